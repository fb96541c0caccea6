"""The gateway's /v2 surface: blueprints that parse, call one service, serialise."""

from flask import current_app

from sandbox.services import Context


def context() -> Context:
    """The sandbox core this app serves."""
    return current_app.extensions["sandbox"]
