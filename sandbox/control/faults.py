"""Fault injection: POST /sandbox/faults, GET /sandbox/faults, DELETE /sandbox/faults,
DELETE /sandbox/faults/{id}."""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import Text
from sandbox.api.schemas import Schema, timestamp
from sandbox.control.clock import MAX_ADVANCE_SECONDS
from sandbox.domain import faults as rules
from sandbox.services import faults

blp = ControlBlueprint("sandbox_faults", __name__, url_prefix="/sandbox",
                       description="Fault injection: rehearse the gateway's errors, latency and a scanner that is down")

FAULT_ID = {"in": "path", "name": "fault_id", "required": True, "schema": {"type": "string"}}


class FaultRequestSchema(Schema):
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(rules.KINDS), metadata={
        "description": "error: answer `status` with `message`; latency: answer `latencyMs` later; "
                       "scanner: network fee entries of `network` come back canProceed false with details.error"})
    operation = ma.fields.String(allow_none=True, validate=ma.validate.OneOf(rules.OPERATIONS), metadata={
        "description": "The gateway operation (operationId) it hits; required for error and latency"})
    network = Text(allow_none=True, validate=ma.validate.Length(min=1, max=32),
                   metadata={"description": "scanner: the network whose scanner is down"})
    status = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(400, 599),
                               metadata={"description": "error: the HTTP status; default 500"})
    message = Text(allow_none=True, validate=ma.validate.Length(min=1, max=500), metadata={
        "description": "error: the error text; default the spec's (`wallet generation service unavailable` "
                       "for createDepositAddresses, `internal error` otherwise)"})
    latencyMs = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(1, rules.MAX_LATENCY_MS),
                                  metadata={"description": "latency: milliseconds added to each call it hits"})
    times = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(1, 1_000_000),
                              metadata={"description": "Hit this many calls, then stop; default: no limit"})
    share = ma.fields.Float(allow_none=True, allow_nan=False, validate=ma.validate.Range(0, 1, min_inclusive=False),
                            metadata={"description": "Hit this share of the calls, evenly spread "
                                                     "(0.5: every second call); default 1"})
    forSeconds = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(1, MAX_ADVANCE_SECONDS),
                                   metadata={"description": "Live for this long on the merchant's clock; "
                                                            "default: until cleared or spent"})


class FaultSchema(Schema):
    id = ma.fields.String(required=True)
    kind = ma.fields.String(required=True)
    operation = ma.fields.String(required=True)
    network = ma.fields.String(required=True, allow_none=True)
    status = ma.fields.Integer(required=True, allow_none=True)
    message = ma.fields.String(required=True, allow_none=True)
    latencyMs = ma.fields.Integer(required=True, allow_none=True)
    times = ma.fields.Integer(required=True, allow_none=True)
    share = ma.fields.String(required=True)
    until = timestamp(required=True, allow_none=True, metadata={"description": "End of its window, merchant clock"})
    seen = ma.fields.Integer(required=True, metadata={"description": "Calls it has seen while live"})
    fired = ma.fields.Integer(required=True, metadata={"description": "Calls it has hit"})
    remaining = ma.fields.Integer(required=True, allow_none=True, metadata={"description": "Hits left, with `times`"})
    live = ma.fields.Boolean(required=True, metadata={"description": "Whether it still hits calls"})
    createdAt = timestamp(required=True)


class FaultListSchema(Schema):
    results = ma.fields.List(ma.fields.Nested(FaultSchema), required=True)


@blp.route("/faults", methods=["POST"])
@blp.authenticated()
@blp.arguments(FaultRequestSchema)
@blp.response(201, FaultSchema)
@blp.errors(400)
def add(body):
    """Make the merchant's next calls of an operation fail, slow down, or see a scanner that is down."""
    return faults.add_fault(context(), g.merchant, body)


@blp.route("/faults", methods=["GET"])
@blp.authenticated()
@blp.response(200, FaultListSchema)
def index():
    """The merchant's faults, oldest first, with what each has done so far."""
    return {"results": faults.list_faults(context(), g.merchant)}


@blp.route("/faults", methods=["DELETE"])
@blp.authenticated()
@blp.response(204)
def clear():
    """Remove every fault of the merchant."""
    faults.clear_faults(context(), g.merchant)


@blp.route("/faults/<string:fault_id>", methods=["DELETE"], parameters=[FAULT_ID])
@blp.authenticated()
@blp.response(204)
@blp.errors(404)
def remove(fault_id):
    """Remove one fault."""
    faults.clear_faults(context(), g.merchant, fault_id)
