"""Schemas shared by several /v2 resources: the spec's Asset, Customer and Merchant objects."""

import marshmallow as ma

from sandbox.api.fields import Email, Text, name


class Schema(ma.Schema):
    """Unknown fields in a request are ignored, as a lenient gateway would."""

    class Meta:
        unknown = ma.EXCLUDE
        ordered = True


class AssetRefSchema(Schema):
    """An asset in a request: `short` and `network` only."""

    short = name("asset.short", validate_length=32, metadata={"example": "USDT"})
    network = name("asset.network", validate_length=32, metadata={"example": "tron"})


class AssetSchema(Schema):
    short = ma.fields.String(required=True, metadata={"example": "USDT"})
    name = ma.fields.String(required=True, metadata={"example": "Tether USD"})
    logoUrl = ma.fields.String(required=True)
    network = ma.fields.String(required=True, metadata={"example": "tron"})


class CustomerInputSchema(Schema):
    id = ma.fields.Integer(required=True, strict=True, validate=ma.validate.Range(min=0, max=2**63 - 1))
    name = Text(required=True, validate=ma.validate.Length(max=255))
    email = Email(required=True)


class CustomerSchema(Schema):
    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    email = ma.fields.String(required=True)


class MerchantSchema(Schema):
    """The Merchant object with an integer id (withdrawals, get payment)."""

    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    siteUrl = ma.fields.String(required=True, metadata={"description": "May be empty"})
    logoUrl = ma.fields.String(required=True, metadata={"description": "May be empty"})
    email = ma.fields.String(required=True)


def timestamp(**kwargs) -> ma.fields.String:
    """An ISO 8601 timestamp, stored and rendered as a string (marshmallow's DateTime
    cannot dump a stored string)."""
    return ma.fields.String(metadata={"format": "date-time", **kwargs.pop("metadata", {})}, **kwargs)
