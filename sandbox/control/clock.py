"""The merchant's sandbox clock: GET /sandbox/clock, POST /sandbox/clock/advance, PUT /sandbox/clock."""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import StrictBoolean
from sandbox.api.schemas import Schema, timestamp
from sandbox.services import clocks

blp = ControlBlueprint("sandbox_clock", __name__, url_prefix="/sandbox", description="Merchant clocks")

MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 3600


class ClockSchema(Schema):
    now = timestamp(required=True, metadata={"description": "The merchant's time"})
    frozen = ma.fields.Boolean(required=True)


class AdvanceSchema(Schema):
    seconds = ma.fields.Float(required=True, allow_nan=False,
                              validate=ma.validate.Range(0, MAX_ADVANCE_SECONDS,
                                                         error="seconds must be between 0 and 10 years"),
                              metadata={"description": "How far to move the clock forward"})


class ClockUpdateSchema(Schema):
    now = ma.fields.AwareDateTime(allow_none=True, metadata={
        "description": "ISO 8601 with a time zone; never earlier than now, at most 100 years ahead"})
    frozen = StrictBoolean(allow_none=True, metadata={"description": "true: stop the clock; false: let it run on"})


@blp.route("/clock", methods=["GET"])
@blp.authenticated()
@blp.response(200, ClockSchema)
def show():
    """The merchant's clock. It follows real time unless frozen or moved."""
    return clocks.state(context(), g.merchant["id"])


@blp.route("/clock/advance", methods=["POST"])
@blp.authenticated()
@blp.arguments(AdvanceSchema)
@blp.response(200, ClockSchema)
@blp.errors(400)
def advance(body):
    """Move the clock forward; everything due by the new time happens before this returns."""
    return clocks.advance(context(), g.merchant, body["seconds"])


@blp.route("/clock", methods=["PUT"])
@blp.authenticated()
@blp.arguments(ClockUpdateSchema, required=False)
@blp.response(200, ClockSchema)
@blp.errors(400)
def update(body):
    """Set the time (never backwards) and/or freeze or release the clock."""
    body = body or {}
    return clocks.update(context(), g.merchant, moment=body.get("now"), frozen=body.get("frozen"))
