"""POST /v2/withdrawal and GET /v2/withdrawal"""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import CsvList, StrictBoolean, Text, decimal_string, requested_amount
from sandbox.api.schemas import (AssetRefSchema, AssetSchema, CustomerInputSchema, CustomerSchema, MerchantSchema,
                                 PageQuerySchema, Schema, list_schema, timestamp)
from sandbox.domain.withdrawals import STATUSES
from sandbox.services.withdrawals import create_withdrawal, list_withdrawals, withdrawal_object

blp = GatewayBlueprint("withdrawals", __name__, url_prefix="/v2", description="Withdrawals")


class WithdrawalRequestSchema(Schema):
    amount = requested_amount(required=True, metadata={"description": "Ignored when transferAll is true"})
    asset = ma.fields.Nested(AssetRefSchema, required=True,
                             metadata={"description": "USDT on tron, USDT on ethereum or USDC on ethereum"})
    addressTo = Text(required=True, validate=ma.validate.Length(min=1, max=128))
    customer = ma.fields.Nested(CustomerInputSchema, required=True)
    destTag = Text(required=True, allow_none=True, validate=ma.validate.Length(max=128),
                   metadata={"description": "Empty string or null when not applicable"})
    invoice = Text(required=True, validate=ma.validate.Length(min=1, max=255))
    addressFrom = Text(allow_none=True, validate=ma.validate.Length(min=1, max=128),
                       metadata={"description": "Withdraw-direct source; only together with clientId. Null: absent"})
    clientId = Text(allow_none=True, validate=ma.validate.Length(min=1, max=255),
                    metadata={"description": "Owner of addressFrom; only together with addressFrom. Null: absent"})
    transferAll = StrictBoolean(allow_none=True, metadata={"description": "Withdraw the whole balance of addressFrom"})


class WithdrawalSchema(Schema):
    id = ma.fields.String(required=True, metadata={"format": "uuid"})
    txnId = ma.fields.String(required=True, metadata={"description": "Empty until processed"})
    amount = decimal_string(required=True)
    receivedAmount = decimal_string(required=True, metadata={"description": "0 until processed"})
    asset = ma.fields.Nested(AssetSchema, required=True)
    addressFrom = ma.fields.String(required=True, metadata={"description": "Empty until processing"})
    addressTo = ma.fields.String(required=True)
    destTag = ma.fields.String(required=True, allow_none=True,
                               metadata={"description": "An empty string when none was given"})
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(STATUSES))
    customer = ma.fields.Nested(CustomerSchema, required=True)
    merchant = ma.fields.Nested(MerchantSchema, required=True)
    invoice = ma.fields.String(required=True)
    createdAt = timestamp(required=True)
    updatedAt = timestamp(required=True)
    timeToApprove = timestamp(required=True, allow_none=True,
                              metadata={"description": "Automatic approval moment; null when approval is manual"})


class WithdrawalQuerySchema(PageQuerySchema):
    txnIds = CsvList(metadata={"description": "Transaction ids; repeated or comma-separated"})
    ids = CsvList(metadata={"description": "Withdrawal ids; repeated or comma-separated"})
    invoices = CsvList(metadata={"description": "Invoice references; repeated or comma-separated"})
    statuses = CsvList(choices=STATUSES, metadata={"description": "OPEN, APPROVED, COMPLETE, CANCELLED; repeated or "
                                                                   "comma-separated"})


WithdrawalListSchema = list_schema(WithdrawalSchema, "WithdrawalList", page="0-based index of the page",
                                   total="Withdrawals matching the filters")


@blp.route("/withdrawal", methods=["POST"])
@blp.doc(responses={200: {"links": {
    "ListById": {"operationId": "listWithdrawals", "parameters": {"ids": "$response.body#/id"},
                 "description": "The withdrawal just created, by its id"},
    "ListByInvoice": {"operationId": "listWithdrawals", "parameters": {"invoices": "$response.body#/invoice"},
                      "description": "Withdrawals of the same invoice"}}}})
@blp.authenticated(signed=True, operation="createWithdrawal")
@blp.arguments(WithdrawalRequestSchema, example={
    "amount": "25.5", "asset": {"short": "USDT", "network": "tron"}, "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    "destTag": None, "invoice": "INV-1001", "customer": {"id": 42, "name": "Jane Doe", "email": "jane@example.com"}})
@blp.response(200, WithdrawalSchema)
@blp.errors(400, 500)
def create(body):
    """Create a withdrawal request; it waits for approval (status OPEN)."""
    return withdrawal_object(create_withdrawal(context(), g.merchant, body), g.merchant)


@blp.route("/withdrawal", methods=["GET"])
@blp.authenticated(operation="listWithdrawals")
@blp.arguments(WithdrawalQuerySchema, location="query")
@blp.response(200, WithdrawalListSchema)
@blp.errors(400)
def index(query):
    """List withdrawals, newest first."""
    found, total = list_withdrawals(context(), g.merchant, ids=query.get("ids", ()),
                                    txn_ids=query.get("txnIds", ()), invoices=query.get("invoices", ()),
                                    statuses=query.get("statuses", ()), page=query["page"], limit=query["limit"])
    return {"results": [withdrawal_object(w, g.merchant) for w in found], "page": query["page"] - 1,
            "limit": query["limit"], "total": total}
