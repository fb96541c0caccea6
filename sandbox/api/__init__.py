"""The gateway's /v2 surface: blueprints that parse, call one service, serialise."""

from flask import current_app, request

from sandbox.services import Context


def context() -> Context:
    """The sandbox core this app serves."""
    return current_app.extensions["sandbox"]


def base_url() -> str:
    """Where the client reached the sandbox, for links to its pages; a Host header
    that no URL can be built on gives the local address instead of an error."""
    try:
        return request.host_url.rstrip("/")
    except (ValueError, UnicodeError):
        return f"{request.scheme}://localhost"
