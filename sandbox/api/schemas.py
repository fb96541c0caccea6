"""Schemas shared by several /v2 resources: the spec's Asset, Customer and Merchant objects."""

import marshmallow as ma

from sandbox.api.fields import MAX_PAGE, Count, Email, Text, name


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


class PageQuerySchema(Schema):
    """`page` (from 1) and `limit` (1 to 100, default 20), as every list takes them."""

    page = Count(load_default=1, validate=ma.validate.Range(min=1, max=MAX_PAGE))
    limit = Count(load_default=20, validate=ma.validate.Range(min=1, max=100))


def list_schema(item_schema, name: str, *, total: str, page: str = "The requested page") -> type[Schema]:
    """`{results, page, limit, total}` of `item_schema`, as every list answers."""
    return Schema.from_dict({
        "results": ma.fields.List(ma.fields.Nested(item_schema), required=True),
        "page": ma.fields.Integer(required=True, metadata={"description": page}),
        "limit": ma.fields.Integer(required=True),
        "total": ma.fields.Integer(required=True, metadata={"description": total}),
    }, name=name)
