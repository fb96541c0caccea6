"""The gateway's /v2 surface: blueprints that parse, call one service, serialise."""

from urllib.parse import quote

from flask import current_app, request

from sandbox.services import Context


def context() -> Context:
    """The sandbox core this app serves."""
    return current_app.extensions["sandbox"]


def base_url() -> str:
    """Where the client reached the sandbox, for links to its pages. werkzeug's
    `host_url` without its IRI decoding, which cost a tenth of a get-payment's time;
    a Host header werkzeug finds invalid gives the local address."""
    return f"{request.scheme}://{request.host or 'localhost'}{quote(request.root_path.rstrip('/'))}"
