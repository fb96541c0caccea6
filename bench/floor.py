"""The ceiling of one Python process, for bench/prism.py: a Flask app that answers a
constant body (a payment the sandbox served), run by gunicorn as `sandbox serve`
runs the sandbox (one gthread worker, 8 threads). No Flask app served this way
answers faster on this machine, the sandbox included.

    FLOOR_BODY=payment.json python -m gunicorn -k gthread --threads 8 bench.floor:app
"""

import os
import pathlib

from flask import Flask, Response

BODY = pathlib.Path(os.environ["FLOOR_BODY"]).read_bytes()
app = Flask("floor")


@app.get("/<path:anything>")
def constant(anything: str) -> Response:
    return Response(BODY, mimetype="application/json")
