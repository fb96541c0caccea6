"""Events and webhook deliveries: GET /sandbox/events, GET /sandbox/webhooks/deliveries,
POST …/deliveries/{id}/redeliver, POST /sandbox/webhooks/test, POST /sandbox/webhooks/dispatch,
POST /sandbox/webhooks/secret."""

import marshmallow as ma
from flask import current_app, g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import Text
from sandbox.api.schemas import PageQuerySchema, Schema, list_schema, timestamp
from sandbox.services import events, webhooks

blp = ControlBlueprint("sandbox_webhooks", __name__, url_prefix="/sandbox", description="Events and webhooks")

DELIVERY_ID = {"in": "path", "name": "delivery_id", "required": True, "schema": {"type": "string"}}


class EventQuerySchema(PageQuerySchema):
    type = ma.fields.String(validate=ma.validate.OneOf(events.EVENT_TYPES))


class DeliveryQuerySchema(PageQuerySchema):
    eventId = Text(validate=ma.validate.Length(min=1, max=64))
    type = ma.fields.String(validate=ma.validate.OneOf(events.EVENT_TYPES), metadata={"description": "Event type"})
    status = ma.fields.String(validate=ma.validate.OneOf(webhooks.DELIVERY_STATUSES))


class EventSchema(Schema):
    id = ma.fields.String(required=True)
    type = ma.fields.String(required=True)
    createdAt = timestamp(required=True)
    data = ma.fields.Dict(required=True, metadata={"description": "The object as the API returns it"})


class AttemptSchema(Schema):
    attempt = ma.fields.Integer(required=True)
    at = timestamp(required=True, metadata={"description": "On the merchant's clock"})
    url = ma.fields.String(required=True, allow_none=True)
    requestHeaders = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True)
    responseStatus = ma.fields.Integer(required=True, allow_none=True)
    responseBody = ma.fields.String(required=True, metadata={"description": "The first 4 KiB"})
    durationMs = ma.fields.Integer(required=True)
    error = ma.fields.String(required=True, allow_none=True)


class DeliverySchema(Schema):
    id = ma.fields.String(required=True)
    eventId = ma.fields.String(required=True)
    eventType = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(webhooks.DELIVERY_STATUSES))
    body = ma.fields.String(required=True, metadata={"description": "The exact bytes sent (and signed)"})
    attempts = ma.fields.List(ma.fields.Nested(AttemptSchema), required=True)
    nextAttemptAt = timestamp(required=True, allow_none=True)
    createdAt = timestamp(required=True)


EventPageSchema = list_schema(EventSchema, "EventPage", total="Events matching the filter")
DeliveryPageSchema = list_schema(DeliverySchema, "DeliveryPage", total="Deliveries matching the filters")


class SecretSchema(Schema):
    webhookSecret = ma.fields.String(required=True)


def timeout() -> float:
    return current_app.config["SANDBOX_WEBHOOK_TIMEOUT"]


@blp.route("/events", methods=["GET"])
@blp.authenticated()
@blp.arguments(EventQuerySchema, location="query")
@blp.response(200, EventPageSchema)
@blp.errors(400)
def list_events(query):
    """Every event of the merchant, newest first."""
    found, total = events.list_events(context(), g.merchant, event_type=query.get("type"), page=query["page"],
                                      limit=query["limit"])
    return {"results": [webhooks.public_event(e) for e in found], "page": query["page"], "limit": query["limit"],
            "total": total}


@blp.route("/webhooks/deliveries", methods=["GET"])
@blp.authenticated()
@blp.arguments(DeliveryQuerySchema, location="query")
@blp.response(200, DeliveryPageSchema)
@blp.errors(400)
def list_deliveries(query):
    """Every delivery, newest first, with each attempt's request headers, response and error."""
    found, total = webhooks.list_deliveries(context(), g.merchant, event_id=query.get("eventId"),
                                            event_type=query.get("type"), status=query.get("status"),
                                            page=query["page"], limit=query["limit"])
    return {"results": found, "page": query["page"], "limit": query["limit"], "total": total}


@blp.route("/webhooks/deliveries/<string:delivery_id>/redeliver", methods=["POST"], parameters=[DELIVERY_ID])
@blp.authenticated()
@blp.response(201, DeliverySchema)
@blp.errors(404)
def redeliver(delivery_id):
    """Queue the same event again, due now."""
    return webhooks.redeliver(context(), g.merchant, delivery_id)


@blp.route("/webhooks/test", methods=["POST"])
@blp.authenticated()
@blp.response(200, DeliverySchema)
@blp.errors(400)
def send_test():
    """Send a `webhook.test` event now and answer with the attempt's outcome."""
    return webhooks.send_test(context(), g.merchant, timeout())


class DispatchedSchema(Schema):
    attempted = ma.fields.Integer(required=True, metadata={"description": "Attempts made"})


@blp.route("/webhooks/dispatch", methods=["POST"])
@blp.authenticated()
@blp.response(200, DispatchedSchema)
def dispatch():
    """Attempt every delivery due now on the merchant's clock, and answer once all are
    recorded. A served sandbox sends them on its own within a moment; scenarios and
    tests call this to check deliveries without waiting (in process it is the only way)."""
    return {"attempted": webhooks.dispatch_due(context(), timeout(), g.merchant["id"])}


@blp.route("/webhooks/secret", methods=["POST"])
@blp.authenticated()
@blp.response(200, SecretSchema)
def rotate_secret():
    """A new webhook secret, shown once; webhooks are signed with it from now on."""
    return {"webhookSecret": webhooks.rotate_secret(context(), g.merchant)}
