"""POST /sandbox/payments: create a payment, as the gateway's own checkout would."""

import marshmallow as ma
from flask import g

from sandbox.api import base_url, context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import Text, name, requested_amount
from sandbox.api.payments import PaymentEnvelopeSchema
from sandbox.api.schemas import CustomerInputSchema, Schema
from sandbox.domain.money import AMOUNT_PATTERN
from sandbox.services.payments import create_payment, payment_object

blp = ControlBlueprint("sandbox_payments", __name__, url_prefix="/sandbox", description="Payments (sandbox)")

MAX_TIMEOUT_SECONDS = 30 * 24 * 3600


class PaymentCreateSchema(Schema):
    amount = requested_amount(required=True, metadata={"description": "Decimal string within the asset's decimals",
                                                       "pattern": AMOUNT_PATTERN})
    assetShort = name("assetShort", metadata={"example": "USDT"})
    assetNetwork = name("assetNetwork", metadata={"example": "tron"})
    clientId = Text(allow_none=True, validate=ma.validate.Length(min=1, max=255),
                    metadata={"description": "Pay into the client's bound deposit address"})
    invoice = Text(allow_none=True, validate=ma.validate.Length(max=255))
    customer = ma.fields.Nested(CustomerInputSchema, allow_none=True, metadata={"description": "Absent: no customer"})
    timeout = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(1, MAX_TIMEOUT_SECONDS),
                                metadata={"description": "Seconds until expiry; default 3600"})
    confirmsNeeded = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(0, 1000),
                                       metadata={"description": "Default: the network's"})
    fixedFee = Text(allow_none=True, validate=ma.validate.Regexp(AMOUNT_PATTERN, error="fixedFee must be a decimal string"),
                    metadata={"description": "In the asset; default: the merchant's fixedFeeUsd converted"})


@blp.route("/payments", methods=["POST"])
@blp.authenticated()
@blp.arguments(PaymentCreateSchema)
@blp.response(201, PaymentEnvelopeSchema)
@blp.errors(400)
def create(body):
    """Create a payment (status OPEN, displayStatus NEW) in exactly the shape of GET /v2/payment/{id}."""
    return {"data": payment_object(create_payment(context(), g.merchant, body), g.merchant, [], base_url())}
