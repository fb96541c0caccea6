"""Snapshots of a merchant's state: POST /sandbox/snapshots, GET /sandbox/snapshots,
POST /sandbox/snapshots/{id}/restore."""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.schemas import PageQuerySchema, Schema, list_schema, timestamp
from sandbox.control.clock import ClockSchema
from sandbox.services import snapshots

blp = ControlBlueprint("sandbox_snapshots", __name__, url_prefix="/sandbox",
                       description="Snapshots: save a merchant's state and put it back (like evm_snapshot/evm_revert)")

SNAPSHOT_ID = {"in": "path", "name": "snapshot_id", "required": True, "schema": {"type": "string"}}


class SnapshotSchema(Schema):
    id = ma.fields.String(required=True)
    createdAt = timestamp(required=True, metadata={"description": "On the merchant's clock"})
    records = ma.fields.Integer(required=True, metadata={"description": "How many records it holds"})


class RestoredSchema(SnapshotSchema):
    clock = ma.fields.Nested(ClockSchema, required=True, metadata={"description": "The clock as restored"})


SnapshotPageSchema = list_schema(SnapshotSchema, "SnapshotPage", total="Snapshots kept")


@blp.route("/snapshots", methods=["POST"])
@blp.authenticated()
@blp.response(201, SnapshotSchema)
def take():
    """Save the merchant's whole state (the newest 20 snapshots are kept)."""
    return snapshots.take(context(), g.merchant)


@blp.route("/snapshots", methods=["GET"])
@blp.authenticated()
@blp.arguments(PageQuerySchema, location="query")
@blp.response(200, SnapshotPageSchema)
@blp.errors(400)
def list_snapshots(query):
    """The merchant's snapshots, newest first."""
    found, total = snapshots.list_snapshots(context(), g.merchant, page=query["page"], limit=query["limit"])
    return {"results": found, "page": query["page"], "limit": query["limit"], "total": total}


@blp.route("/snapshots/<string:snapshot_id>/restore", methods=["POST"], parameters=[SNAPSHOT_ID])
@blp.authenticated()
@blp.response(200, RestoredSchema)
@blp.errors(404)
def restore(snapshot_id):
    """Put the merchant's state back as the snapshot holds it: records made since are
    removed, the clock returns to the snapshot's. The snapshot stays, to restore again."""
    return snapshots.restore(context(), g.merchant, snapshot_id)
