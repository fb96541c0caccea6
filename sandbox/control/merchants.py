"""POST /sandbox/merchants, GET and PATCH /sandbox/merchants/me"""

from decimal import Decimal

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.auth import admin_token_required
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import DECIMAL_STRING_PATTERN, Email, Text, decimal_string
from sandbox.api.schemas import Schema
from sandbox.domain import signing
from sandbox.domain.market import DEFAULT_PRICES_USD
from sandbox.services import merchants

blp = GatewayBlueprint("merchants", __name__, url_prefix="/sandbox", description="Sandbox merchants")

MAX_AUTO_APPROVE_SECONDS = 365 * 24 * 3600

_http_url = ma.validate.URL(schemes={"http", "https"}, require_tld=False)


def _optional_url(**kwargs) -> Text:
    """A URL, or empty/null for none."""
    return Text(allow_none=True, validate=lambda value: value == "" or _http_url(value), **kwargs)


_decimal = ma.validate.Regexp(DECIMAL_STRING_PATTERN, error="Not a decimal string.")


def _percent(value: str) -> None:
    _decimal(value)
    if Decimal(value) > 100:
        raise ma.ValidationError("Must be at most 100.")


def _price(value: str) -> None:
    _decimal(value)
    if Decimal(value) == 0:
        raise ma.ValidationError("Must be greater than 0.")


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
    feePercent = Text(validate=_percent, metadata={"description": "Fee on each incoming transaction, in %; "
                                                                  "default 1"})
    fixedFeeUsd = Text(validate=_decimal, metadata={"description": "Fixed fee on each incoming transaction, in USD "
                                                                   "(charged in the asset); default 0.3"})
    amlThreshold = ma.fields.Integer(strict=True, validate=ma.validate.Range(0, 100),
                                     metadata={"description": "A risk score at or above it is dangerous; default 75"})
    prices = ma.fields.Dict(keys=ma.fields.String(validate=ma.validate.OneOf(tuple(DEFAULT_PRICES_USD))),
                            values=Text(allow_none=True, validate=_price),
                            metadata={"description": "USD price overrides by coin, e.g. {\"TRX\": \"0.3\"}; "
                                                     "null removes one"})


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
    apiKey = ma.fields.String(required=True, metadata={"description": "Send as the API-KEY header"})
    hmacSecret = ma.fields.String(required=True, metadata={"description": "Key of the X-HMAC signature"})


@blp.route("/merchants", methods=["POST"])
@admin_token_required
@blp.arguments(MerchantCreateSchema)
@blp.response(201, SandboxMerchantSchema)
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
@blp.arguments(MerchantSettingsSchema)
@blp.response(200, SandboxMerchantSchema)
@blp.errors(400)
def update(body):
    """Change settings: webhook URL, auto-approval, signature scheme and the rest."""
    return merchants.update_merchant(context(), g.merchant, body)
