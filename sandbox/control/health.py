"""GET /sandbox/health"""

import marshmallow as ma

from sandbox import __version__
from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.schemas import Schema

blp = ControlBlueprint("health", __name__, url_prefix="/sandbox", description="Liveness")


class HealthSchema(Schema):
    status = ma.fields.String(required=True, metadata={"example": "ok"})
    version = ma.fields.String(required=True)
    seed = ma.fields.Integer(required=True)


@blp.route("/health", methods=["GET"])
@blp.response(200, HealthSchema)
def health():
    """Whether the sandbox is up, and with which seed."""
    return {"status": "ok", "version": __version__, "seed": context().seed}
