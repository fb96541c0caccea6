"""No Docker engine here: install the package the way the Dockerfile does, into a fresh
virtual environment, and run the Dockerfile's CMD and HEALTHCHECK against it."""

import json
import re
import shlex
import subprocess
import venv
from pathlib import Path

import pytest

from tests.system.serving import Served

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def dockerfile() -> dict:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    install = next(line for line in text.splitlines() if line.startswith("RUN pip install"))
    return {
        "copies": re.findall(r"^COPY (.+?) \S+$", text, re.M),
        "install": shlex.split(install.removeprefix("RUN ").split("&&")[0]),
        "cmd": json.loads(re.search(r"^CMD (\[.*\])$", text, re.M).group(1)),
        "healthcheck": json.loads(re.search(r"HEALTHCHECK .*? CMD (\[.*\])$", text, re.M).group(1)),
    }


def test_dockerfile_install_and_command_serve_a_healthy_sandbox(tmp_path):
    spec = dockerfile()
    # the build context: only what the Dockerfile copies
    context = tmp_path / "app"
    context.mkdir()
    for copy in spec["copies"]:
        for name in copy.split():
            source = ROOT / name
            target = context / name
            if source.is_dir():
                subprocess.run(["cp", "-r", str(source), str(target)], check=True)
            else:
                target.write_bytes(source.read_bytes())
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    bin_dir = environment / "bin"
    # `pip install --no-cache-dir .` as in the image; the cache only changes the speed here
    install = [str(bin_dir / "python"), "-m", *[arg for arg in spec["install"] if arg != "--no-cache-dir"]]
    result = subprocess.run(install, cwd=context, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    cmd = spec["cmd"]
    assert cmd[:2] == ["gateway-sandbox", "serve"] and "--host" in cmd and cmd[cmd.index("--host") + 1] == "0.0.0.0"
    args = cmd[2:]
    for flag in ("--host", "--port"):  # tests bind 127.0.0.1 on a free port
        index = args.index(flag)
        del args[index:index + 2]
    data_dir = tmp_path / "data"
    args[args.index("--data") + 1] = str(data_dir / Path(args[args.index("--data") + 1]).name)
    with Served(*args, command=[str(bin_dir / cmd[0]), "serve"]) as server:
        assert "Created the demo merchant" in server.banner
        probe = [str(bin_dir / "python") if arg == "python" else arg for arg in spec["healthcheck"]]
        probe[-1] = probe[-1].replace("127.0.0.1:8000", f"127.0.0.1:{server.port}")
        assert subprocess.run(probe, timeout=10).returncode == 0
        status, body = server.signed_post(server.demo_merchant, "/v2/deposit-addresses/create",
                                          {"assetNetwork": "ton", "assetShort": "USDT", "clientId": "docker"})
        assert status == 200 and body["addresses"][0]["dest_tag"] == "docker"
    assert (data_dir / "sandbox.json").exists()
