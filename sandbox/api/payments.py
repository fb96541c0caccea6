"""GET /v2/payment/{id} and GET /v2/payment"""

import marshmallow as ma
from flask import g

from sandbox.api import base_url, context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import CsvList, Text, decimal_string
from sandbox.api.schemas import AssetSchema, CustomerSchema, MerchantSchema, PageQuerySchema, Schema, list_schema, timestamp
from sandbox.domain.payments import DISPLAY_STATUSES, STATUSES
from sandbox.services.payments import SORT_FIELDS, get_payment, list_payments, payment_object

blp = GatewayBlueprint("payments", __name__, url_prefix="/v2", description="Payments")


class PaymentTransactionBaseSchema(Schema):
    paymentId = ma.fields.String(required=True, metadata={"format": "uuid"})
    txnId = ma.fields.String(required=True)
    receivedAmount = decimal_string(required=True)
    addressFrom = ma.fields.String(required=True)
    addressTo = ma.fields.String(required=True)
    destTag = ma.fields.String(required=True, allow_none=True)
    asset = ma.fields.Nested(AssetSchema, required=True)


class PaymentTransactionSchema(PaymentTransactionBaseSchema):
    """The full form, in get payment."""

    fixedFee = decimal_string(required=True)
    percentFee = decimal_string(required=True)
    riskScore = ma.fields.Integer(required=True, validate=ma.validate.Range(0, 100))
    isDanger = ma.fields.Boolean(required=True)
    createdAt = timestamp(required=True)


class ListedPaymentTransactionSchema(PaymentTransactionBaseSchema):
    """The short form, in list payments."""

    date = timestamp(required=True, metadata={"description": "Time of the transaction"})


class ListedMerchantSchema(MerchantSchema):
    """In list payments the merchant id is a string (the spec's quirk)."""

    id = ma.fields.String(required=True)


class PaymentBaseSchema(Schema):
    id = ma.fields.String(required=True, metadata={"format": "uuid"})
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(STATUSES))
    displayStatus = ma.fields.String(required=True, validate=ma.validate.OneOf(DISPLAY_STATUSES))
    amount = decimal_string(required=True)
    totalReceivedAmount = decimal_string(required=True)
    addressTo = ma.fields.String(required=True)
    destTag = ma.fields.String(required=True, allow_none=True)
    confirmsNeeded = ma.fields.Integer(required=True)
    timeout = ma.fields.Integer(required=True, metadata={"description": "Seconds until the payment expires"})
    checkoutUrl = ma.fields.String(required=True)
    paymentRedirectUrl = ma.fields.String(required=True)
    invoice = ma.fields.String(required=True, allow_none=True)
    asset = ma.fields.Nested(AssetSchema, required=True)
    customer = ma.fields.Nested(CustomerSchema, required=True)
    createdAt = timestamp(required=True)
    updatedAt = timestamp(required=True)


class PaymentSchema(PaymentBaseSchema):
    """Get payment: with fixedFee and full transactions."""

    merchant = ma.fields.Nested(MerchantSchema, required=True)
    transactions = ma.fields.List(ma.fields.Nested(PaymentTransactionSchema), required=True)
    fixedFee = decimal_string(required=True)


class ListedPaymentSchema(PaymentBaseSchema):
    """List payments: no fixedFee, short transactions, a string merchant id."""

    merchant = ma.fields.Nested(ListedMerchantSchema, required=True)
    transactions = ma.fields.List(ma.fields.Nested(ListedPaymentTransactionSchema), required=True)


class PaymentEnvelopeSchema(Schema):
    data = ma.fields.Nested(PaymentSchema, required=True)


class PaymentQuerySchema(PageQuerySchema):
    statuses = CsvList(choices=DISPLAY_STATUSES, metadata={"description": "displayStatus values, comma-separated"})
    method = Text(validate=ma.validate.Regexp(r"^[A-Za-z0-9]+_[A-Za-z0-9]+$",
                                              error="method must look like USDT_tron ({{asset}}_{{network}})"),
                  metadata={"description": "Asset and network as {asset}_{network}, e.g. USDT_tron",
                            "example": "USDT_tron"})
    search = Text(validate=ma.validate.Length(min=1, max=255),
                  metadata={"description": "Partial match on addressFrom, addressTo, clientId, txnId, invoice; "
                                           "exact match on id"})
    txnIds = CsvList(metadata={"description": "Transaction ids, comma-separated"})
    ids = CsvList(metadata={"description": "Payment ids, comma-separated"})
    invoices = CsvList(metadata={"description": "Invoice references, comma-separated"})
    sortField = ma.fields.String(load_default="created_at", validate=ma.validate.OneOf(tuple(SORT_FIELDS)))
    sortOrder = ma.fields.String(load_default="desc", validate=ma.validate.OneOf(("asc", "desc")))


PaymentListSchema = list_schema(ListedPaymentSchema, "PaymentList", total="Payments matching the filters")


PAYMENT_ID = {"in": "path", "name": "id", "required": True, "schema": {"type": "string", "format": "uuid"},
              "description": "The payment's UUID; an unknown or malformed one gives 400 `payment not found`"}


@blp.route("/payment/<string:id>", methods=["GET"], parameters=[PAYMENT_ID])
@blp.authenticated(operation="getPayment")
@blp.response(200, PaymentEnvelopeSchema)
@blp.errors(400, 403)
def show(id):  # noqa: A002 - the spec's name for the path parameter
    """One payment with its fixed fee and on-chain transactions."""
    payment, transactions = get_payment(context(), g.merchant, id)
    return {"data": payment_object(payment, g.merchant, transactions, base_url())}


@blp.route("/payment", methods=["GET"])
@blp.doc(responses={200: {"links": {
    "GetFirst": {"operationId": "getPayment", "parameters": {"id": "$response.body#/results/0/id"},
                 "description": "The first payment of the page, by its id"}}}})
@blp.authenticated(operation="listPayments")
@blp.arguments(PaymentQuerySchema, location="query")
@blp.response(200, PaymentListSchema)
@blp.errors(400)
def index(query):
    """List payments; `statuses` filters on displayStatus."""
    found, total = list_payments(context(), g.merchant, statuses=query.get("statuses", ()),
                                 method=query.get("method"), search=query.get("search"),
                                 txn_ids=query.get("txnIds", ()), ids=query.get("ids", ()),
                                 invoices=query.get("invoices", ()), sort_field=query["sortField"],
                                 sort_order=query["sortOrder"], page=query["page"], limit=query["limit"])
    links = base_url()
    return {"results": [payment_object(payment, g.merchant, transactions, links, listed=True)
                        for payment, transactions in found],
            "page": query["page"], "limit": query["limit"], "total": total}
