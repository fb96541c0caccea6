"""POST /sandbox/merchants, GET and PATCH /sandbox/merchants/me, POST /sandbox/merchants/me/reset,
POST /sandbox/merchants/purge"""


import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.auth import admin_token_required
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.fields import Email, StrictBoolean, Text, decimal_string
from sandbox.api.schemas import Schema
from sandbox.domain import signing
from sandbox.domain.limits import (DEFAULT_RATE_LIMIT, MAX_REQUESTS, MAX_WINDOW_SECONDS,
                                   RATE_LIMITED_OPERATIONS)
from sandbox.domain.market import DEFAULT_PRICES_USD
from sandbox.domain.money import AMOUNT_PATTERN
from sandbox.control.clock import ClockSchema
from sandbox.services import merchants, snapshots

blp = ControlBlueprint("merchants", __name__, url_prefix="/sandbox", description="Sandbox merchants")

MAX_AUTO_APPROVE_SECONDS = 365 * 24 * 3600

# http(s), a host name or IPv4 address, an optional port and path; empty for none
URL_PATTERN = r"^(https?://[A-Za-z0-9._~-]+(:[0-9]{1,5})?([/?#][!-~]*)?)?$"


def _optional_url(**kwargs) -> Text:
    """An http(s) URL, or empty/null for none."""
    metadata = {"pattern": URL_PATTERN, **kwargs.pop("metadata", {})}
    return Text(allow_none=True, validate=ma.validate.Regexp(URL_PATTERN, error="Not a valid URL."),
                metadata=metadata, **kwargs)


PERCENT_PATTERN = r"^(100(\.0{1,18})?|[0-9]{1,2}(\.[0-9]{1,18})?)$"  # 0 to 100
POSITIVE_PATTERN = r"^([0-9]{0,29}[1-9][0-9]{0,29}(\.[0-9]{1,18})?|[0-9]{1,30}\.[0-9]{0,17}[1-9][0-9]{0,17})$"


def _decimal_setting(pattern: str, message: str, **kwargs) -> Text:
    """A decimal string setting; the pattern says it all, so the contract says it too."""
    return Text(validate=ma.validate.Regexp(pattern, error=message), metadata={"pattern": pattern,
                                                                                **kwargs.pop("metadata", {})},
                **kwargs)


class _ClosedSchema(Schema):
    class Meta:
        unknown = ma.RAISE


# USD price overrides, one optional field per coin; null removes an override.
PricesSchema = _ClosedSchema.from_dict(
    {coin: _decimal_setting(POSITIVE_PATTERN, "Must be a decimal string above 0.", allow_none=True)
     for coin in DEFAULT_PRICES_USD}, name="Prices")


class RateLimitSchema(_ClosedSchema):
    requests = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(1, MAX_REQUESTS))
    seconds = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(1, MAX_WINDOW_SECONDS),
                                metadata={"description": "The window"})


# Per-operation thresholds; null puts the default back.
RateLimitsSchema = _ClosedSchema.from_dict(
    {operation: ma.fields.Nested(RateLimitSchema, allow_none=True) for operation in RATE_LIMITED_OPERATIONS},
    name="RateLimits")


class MerchantSettingsSchema(Schema):
    name = Text(validate=ma.validate.Length(min=1, max=255))
    email = Email()
    siteUrl = _optional_url()
    logoUrl = _optional_url()
    webhookUrl = _optional_url(metadata={"description": "http or https; receives withdrawal status changes"})
    autoApproveSeconds = ma.fields.Integer(
        strict=True, allow_none=True, validate=ma.validate.Range(0, MAX_AUTO_APPROVE_SECONDS),
        metadata={"description": "Withdrawals are approved this long after creation; null: manual approval"})
    hmacAlgorithm = ma.fields.String(validate=ma.validate.OneOf(tuple(signing.ALGORITHMS)),
                                     metadata={"description": "X-HMAC hash; default sha256"})
    hmacEncoding = ma.fields.String(validate=ma.validate.OneOf(signing.ENCODINGS),
                                    metadata={"description": "X-HMAC encoding; default hex"})
    feePercent = _decimal_setting(PERCENT_PATTERN, "Must be a decimal string from 0 to 100.",
                                  metadata={"description": "Fee on each incoming transaction, in %; default 1"})
    fixedFeeUsd = _decimal_setting(AMOUNT_PATTERN, "Must be a decimal string.",
                                   metadata={"description": "Fixed fee on each incoming transaction, in USD "
                                                            "(charged in the asset); default 0.3"})
    amlThreshold = ma.fields.Integer(strict=True, validate=ma.validate.Range(0, 100),
                                     metadata={"description": "A risk score at or above it is dangerous; default 75"})
    paymentWebhooks = StrictBoolean(metadata={"description": "Also send payment.status_changed webhooks; "
                                                              "default false (the spec shows none)"})
    prices = ma.fields.Nested(PricesSchema, metadata={"description": "USD price overrides by coin, e.g. "
                                                                     "{\"TRX\": \"0.3\"}; null removes one"})
    rateLimits = ma.fields.Nested(RateLimitsSchema, metadata={
        "description": "Per API key and operation, e.g. {\"listPayments\": {\"requests\": 5, \"seconds\": 60}}; "
                       f"null puts back the default ({DEFAULT_RATE_LIMIT['requests']} per "
                       f"{DEFAULT_RATE_LIMIT['seconds']} s)"})


class MerchantCreateSchema(MerchantSettingsSchema):
    name = Text(required=True, validate=ma.validate.Length(min=1, max=255))
    email = Email(required=True)


class SandboxMerchantSchema(Schema):
    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    email = ma.fields.String(required=True)
    siteUrl = ma.fields.String(required=True)
    logoUrl = ma.fields.String(required=True)
    webhookUrl = ma.fields.String(required=True, allow_none=True)
    autoApproveSeconds = ma.fields.Integer(required=True, allow_none=True)
    hmacAlgorithm = ma.fields.String(required=True)
    hmacEncoding = ma.fields.String(required=True)
    feePercent = decimal_string(required=True)
    fixedFeeUsd = decimal_string(required=True)
    amlThreshold = ma.fields.Integer(required=True)
    prices = ma.fields.Dict(keys=ma.fields.String(), values=decimal_string(), required=True,
                            metadata={"description": "USD price overrides"})
    paymentWebhooks = ma.fields.Boolean(required=True)
    rateLimits = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(RateLimitSchema), required=True,
                                metadata={"description": "Thresholds set; the others are the default"})
    apiKey = ma.fields.String(required=True, metadata={"description": "Send as the API-KEY header"})
    hmacSecret = ma.fields.String(required=True, metadata={"description": "Key of the X-HMAC signature"})


class CreatedMerchantSchema(SandboxMerchantSchema):
    webhookSecret = ma.fields.String(required=True, metadata={
        "description": "Signs webhooks (X-HMAC). Shown only here and when rotated"})


@blp.route("/merchants", methods=["POST"])
@admin_token_required
@blp.arguments(MerchantCreateSchema)
@blp.response(201, CreatedMerchantSchema)
@blp.errors(400, 401)
def create(body):
    """Create a merchant with its API key and HMAC secret (admin token required when the server has one)."""
    return merchants.create_merchant(context(), body)


@blp.route("/merchants/me", methods=["GET"])
@blp.authenticated()
@blp.response(200, SandboxMerchantSchema)
def me():
    """The settings of the merchant the API-KEY belongs to."""
    return g.merchant


@blp.route("/merchants/me", methods=["PATCH"])
@blp.authenticated()
@blp.arguments(MerchantSettingsSchema, required=False)
@blp.response(200, SandboxMerchantSchema)
@blp.errors(400)
def update(body):
    """Change settings: webhook URL, auto-approval, signature scheme and the rest."""
    return merchants.update_merchant(context(), g.merchant, body)


class ResetSchema(Schema):
    clock = ma.fields.Nested(ClockSchema, required=True, metadata={"description": "Back on real time"})


@blp.route("/merchants/me/reset", methods=["POST"])
@blp.authenticated()
@blp.response(200, ResetSchema)
def reset():
    """A fresh start: every record of the merchant is removed (addresses, wallets, payments,
    transactions, withdrawals, events, deliveries, faults) and its clock follows real time
    again; settings, credentials and snapshots stay. What a CI job on a shared sandbox does first."""
    return {"clock": snapshots.reset(context(), g.merchant)}


class PurgeRequestSchema(Schema):
    idleDays = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(0, 36_500),
                                 metadata={"description": "Remove merchants with no API call for this many days"})


class PurgedSchema(Schema):
    purged = ma.fields.List(ma.fields.Integer(), required=True, metadata={"description": "Ids of merchants removed"})


@blp.route("/merchants/purge", methods=["POST"])
@admin_token_required
@blp.arguments(PurgeRequestSchema)
@blp.response(200, PurgedSchema)
@blp.errors(400, 401)
def purge(body):
    """Data retention: remove every merchant (but the demo merchant) idle for `idleDays`
    days of real time, with all its records (admin token required when the server has one)."""
    return {"purged": merchants.purge_idle(context(), body["idleDays"])}
