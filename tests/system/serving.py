"""Start a real sandbox process on 127.0.0.1 and talk to it over HTTP."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from sandbox.domain.signing import sign


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(base_url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stdout.read()}")
        try:
            with urllib.request.urlopen(base_url + "/sandbox/health", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise TimeoutError(f"{base_url} did not become healthy in {timeout}s")


class Served:
    """A `gateway-sandbox serve` process; stopped (SIGTERM) on exit of the with-block."""

    def __init__(self, *args: str, command: list[str] | None = None, env: dict | None = None):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        base = command or [sys.executable, "-m", "sandbox", "serve"]
        self.process = subprocess.Popen([*base, "--host", "127.0.0.1", "--port", str(self.port), "--quiet", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env={**os.environ, **(env or {})}, start_new_session=True)

    def __enter__(self) -> "Served":
        self.banner = self._read_banner()
        wait_healthy(self.base_url, self.process)
        return self

    def _read_banner(self) -> str:
        """What `serve` prints before the server starts: where, and the merchants."""
        lines = []
        for line in iter(self.process.stdout.readline, ""):
            lines.append(line)
            if line.startswith("Ctrl-C stops the server."):
                break
        return "".join(lines)

    @property
    def demo_merchant(self) -> dict:
        return self.merchants[0]

    @property
    def merchants(self) -> list[dict]:
        """The credentials of each merchant the banner shows, in its order."""
        keys = [line.split()[-1] for line in self.banner.splitlines() if line.strip().startswith("API-KEY")]
        secrets = [line.split()[-1] for line in self.banner.splitlines() if line.strip().startswith("HMAC secret")]
        return [{"apiKey": key, "hmacSecret": secret} for key, secret in zip(keys, secrets)]

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self, sig=signal.SIGTERM) -> str:
        """SIGTERM: a clean shutdown. SIGKILL goes to the whole process group (gunicorn's
        master and worker), as when a container or machine dies."""
        if self.process.poll() is None:
            if sig == signal.SIGKILL:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.stdout.read()

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def signed_post(self, merchant: dict, path: str, body: dict) -> tuple[int, dict]:
        raw = json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=raw, method="POST", headers={
            "Content-Type": "application/json", "API-KEY": merchant["apiKey"],
            "X-HMAC": sign(merchant["hmacSecret"], raw)})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
