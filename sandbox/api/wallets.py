"""GET /v2/merchants/wallets/info"""

import marshmallow as ma
from flask import g

from sandbox.api import base_url, context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import MAX_PAGE, Count, QueryBoolean, Text, decimal_string
from sandbox.api.schemas import Schema, timestamp
from sandbox.domain.payments import DISPLAY_STATUSES, STATUSES
from sandbox.services.wallets import WALLET_STATUSES, client_wallet_info

blp = GatewayBlueprint("wallets", __name__, url_prefix="/v2", description="Client wallets")

MAX_LIMIT = 1000
UNIX_SECONDS = r"^[0-9]{1,12}$"


class WalletInfoQuerySchema(Schema):
    clientId = Text(required=True, validate=ma.validate.Length(min=1, max=255, error="clientId is required"),
                    error_messages={"required": "clientId is required"})
    dateFrom = Text(validate=ma.validate.Regexp(UNIX_SECONDS, error="dateFrom must be a Unix timestamp in seconds"),
                    metadata={"description": "Unix seconds; filters transactions only together with dateTo"})
    dateTo = Text(validate=ma.validate.Regexp(UNIX_SECONDS, error="dateTo must be a Unix timestamp in seconds"),
                  metadata={"description": "Unix seconds; filters transactions only together with dateFrom"})
    limit = Count(load_default=100, validate=ma.validate.Range(1, MAX_LIMIT),
                              metadata={"description": "Transactions per page"})
    sort = ma.fields.String(load_default="desc", validate=ma.validate.OneOf(("asc", "desc")),
                            metadata={"description": "By createdAt; desc is newest first"})
    blocked = QueryBoolean(load_default=True, metadata={"description": "false: only ACTIVE wallets"})
    zeroBalance = QueryBoolean(load_default=True, metadata={"description": "false: only balances above 0"})
    assetShort = Text(validate=ma.validate.Length(min=1, max=32))
    assetNetwork = Text(validate=ma.validate.Length(min=1, max=32))
    page = Count(load_default=1, validate=ma.validate.Range(min=1, max=MAX_PAGE),
                             metadata={"description": "1-based page of the transactions"})
    pageSize = Count(validate=ma.validate.Range(1, MAX_LIMIT),
                                 metadata={"description": "Transactions per page; when sent, it overrides limit"})


class FeeSchema(Schema):
    amount = decimal_string(required=True, metadata={"description": "In the asset"})
    amountUsd = decimal_string(required=True)


class FeesSchema(Schema):
    fixedFee = ma.fields.Nested(FeeSchema, required=True)
    networkFee = ma.fields.Nested(FeeSchema, required=True)
    percentFee = ma.fields.Nested(FeeSchema, required=True)


class AmlSchema(Schema):
    riskScore = ma.fields.Integer(required=True, validate=ma.validate.Range(0, 100))
    isDanger = ma.fields.Boolean(required=True)
    checkedAt = timestamp(required=True)
    amlPriceUsd = decimal_string(required=True, metadata={"description": "Cost of the AML check in USD"})


class WalletTransactionSchema(Schema):
    txnId = ma.fields.String(required=True)
    amount = decimal_string(required=True)
    createdAt = ma.fields.String(required=True, metadata={"description": "ISO 8601 (declared as a Unix timestamp)"})
    aml = ma.fields.Nested(AmlSchema, required=True)
    fees = ma.fields.Nested(FeesSchema, required=True)


class WalletPaymentSchema(Schema):
    id = ma.fields.String(required=True)
    totalReceivedAmount = decimal_string(required=True)
    totalReceivedAmountUsd = decimal_string(required=True)
    confirmsNeeded = ma.fields.Integer(required=True)
    checkoutUrl = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(STATUSES))
    displayStatus = ma.fields.String(required=True, validate=ma.validate.OneOf(DISPLAY_STATUSES))
    customerId = ma.fields.Integer(required=True, metadata={"description": "0 when none"})
    customerName = ma.fields.String(required=True)
    customerEmail = ma.fields.String(required=True)
    invoice = ma.fields.String(required=True)
    createdAt = timestamp(required=True)
    type = ma.fields.String(required=True, metadata={"description": "api, dashboard"})
    fixedFee = decimal_string(required=True)
    fixedFeeUsd = decimal_string(required=True)
    assetLogoUrl = ma.fields.String(required=True)
    transactions = ma.fields.List(ma.fields.Nested(WalletTransactionSchema), required=True)


class BalanceSchema(Schema):
    amount = decimal_string(required=True)
    amountUsd = decimal_string(required=True)
    updatedAt = ma.fields.String(required=True, metadata={"description": "ISO 8601 (declared as a Unix timestamp)"})


class WalletSchema(Schema):
    address = ma.fields.String(required=True)
    assetShort = ma.fields.String(required=True)
    assetNetwork = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(WALLET_STATUSES))
    isBlocked = ma.fields.Boolean(required=True)
    balance = ma.fields.Nested(BalanceSchema, required=True)
    payments = ma.fields.List(ma.fields.Nested(WalletPaymentSchema), required=True)
    transactions = ma.fields.List(ma.fields.Nested(WalletTransactionSchema), required=True,
                                  metadata={"description": "The wallet's transactions on this page, with or "
                                                           "without a payment"})


class PaginationSchema(Schema):
    page = ma.fields.Integer(required=True)
    pageSize = ma.fields.Integer(required=True)
    hasNext = ma.fields.Boolean(required=True)
    hasPrev = ma.fields.Boolean(required=True)
    total = ma.fields.Integer(required=True, metadata={"description": "Transactions in all pages"})


class WalletInfoSchema(Schema):
    clientId = ma.fields.String(required=True)
    createdAt = ma.fields.String(required=True, metadata={"description": "ISO 8601 (declared as a Unix timestamp)"})
    assetShort = ma.fields.String(required=True, metadata={"description": "Always USD"})
    wallets = ma.fields.List(ma.fields.Nested(WalletSchema), required=True)
    pagination = ma.fields.Nested(PaginationSchema, required=True)


@blp.route("/merchants/wallets/info", methods=["GET"])
@blp.authenticated(operation="getClientWalletInfo")
@blp.arguments(WalletInfoQuerySchema, location="query")
@blp.response(200, WalletInfoSchema)
@blp.errors(400, 404)
def info(query):
    """All wallets of one client with balances, payments, transactions and AML data."""
    return client_wallet_info(
        context(), g.merchant, query["clientId"], base_url(), date_from=query.get("dateFrom"),
        date_to=query.get("dateTo"), newest_first=query["sort"] == "desc", include_blocked=query["blocked"],
        include_empty=query["zeroBalance"], asset_short=query.get("assetShort"),
        asset_network=query.get("assetNetwork"), page=query["page"], limit=query["limit"],
        page_size=query.get("pageSize"))
