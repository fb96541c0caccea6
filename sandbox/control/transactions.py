"""POST /sandbox/transactions: simulate an on-chain deposit into a merchant's address."""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import Text, decimal_string, name
from sandbox.api.payments import PaymentTransactionSchema
from sandbox.api.schemas import Schema, timestamp
from sandbox.domain.money import AMOUNT_PATTERN
from sandbox.services.transactions import deposit_object, record_deposit

blp = ControlBlueprint("sandbox_transactions", __name__, url_prefix="/sandbox",
                       description="Simulated on-chain deposits")


class DepositRequestSchema(Schema):
    assetNetwork = name("assetNetwork", metadata={"example": "tron"})
    assetShort = name("assetShort", metadata={"example": "USDT"})
    addressTo = Text(required=True, validate=ma.validate.Length(min=1, max=128),
                     metadata={"description": "One of the merchant's deposit addresses"})
    amount = Text(required=True, validate=ma.validate.Regexp(AMOUNT_PATTERN, error="amount must be a decimal string"),
                  metadata={"pattern": AMOUNT_PATTERN})
    addressFrom = Text(allow_none=True, validate=ma.validate.Length(min=1, max=128),
                       metadata={"description": "Default: a valid address derived from the seed"})
    txnId = Text(allow_none=True, validate=ma.validate.Length(min=1, max=128),
                 metadata={"description": "Default: a valid transaction id derived from the seed"})
    riskScore = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(0, 100),
                                  metadata={"description": "AML risk; default a low score derived from the seed"})
    destTag = Text(allow_none=True, validate=ma.validate.Length(max=255),
                   metadata={"description": "Must match the address's memo when sent"})
    confirmations = ma.fields.Integer(strict=True, allow_none=True, validate=ma.validate.Range(0, 1_000_000),
                                      metadata={"description": "Confirmations it arrives with; default 0. It gains "
                                                               "one per block time of the network"})


class DepositSchema(PaymentTransactionSchema):
    """The get-payment transaction, and what the sandbox knows besides."""

    paymentId = ma.fields.String(required=True, allow_none=True, metadata={"description": "Null when no open payment"})
    networkFee = decimal_string(required=True)
    amlPriceUsd = decimal_string(required=True)
    confirmations = ma.fields.Integer(required=True, metadata={"description": "When recorded"})
    confirmsNeeded = ma.fields.Integer(required=True)
    confirmedAt = timestamp(required=True, allow_none=True,
                            metadata={"description": "When it had enough confirmations to count; null until then"})
    checkedAt = timestamp(required=True)


class DepositEnvelopeSchema(Schema):
    data = ma.fields.Nested(DepositSchema, required=True)


@blp.route("/transactions", methods=["POST"])
@blp.authenticated()
@blp.arguments(DepositRequestSchema)
@blp.response(201, DepositEnvelopeSchema)
@blp.errors(400, 409)
def create(body):
    """Record a deposit: credits the wallet, pays the address's oldest open payment, gets fees and an AML score."""
    return {"data": deposit_object(record_deposit(context(), g.merchant, body))}
