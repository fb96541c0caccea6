"""GET /v2/network-fee"""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.errors import CodedErrorSchema, coded_error_body
from sandbox.api.fields import Text, name
from sandbox.api.schemas import Schema
from sandbox.domain.errors import Num
from sandbox.services.network_fee import estimate_network_fee

blp = GatewayBlueprint("network_fee", __name__, url_prefix="/v2", description="Network fee estimates",
                       error_body=coded_error_body, error_schema=CodedErrorSchema)


class NetworkFeeQuerySchema(Schema):
    assetNetwork = name("assetNetwork", metadata={"example": "tron"})
    addressFrom = name("addressFrom", validate_length=128,
                       metadata={"description": "One of the merchant's wallet addresses on the network"})
    addressTo = name("addressTo", validate_length=128)
    assetShort = Text(validate=ma.validate.Regexp(r"\S", error="assetShort must not be empty"),
                      metadata={"description": "Omitted: one entry per withdraw-enabled coin of the network"})

    # `num` of the 400 when a parameter fails validation here.
    ERROR_NUMS = {"assetNetwork": Num.MISSING_NETWORK, "addressFrom": Num.MISSING_ADDRESS_FROM,
                  "addressTo": Num.MISSING_ADDRESS_TO, "assetShort": Num.UNKNOWN_ASSET}


class TronResourceSchema(Schema):
    energy = ma.fields.Integer(required=True)
    bandwidth = ma.fields.Integer(required=True)


class FeeDetailsSchema(Schema):
    """One schema for every network family; which fields appear depends on the network."""

    energy = ma.fields.Integer(metadata={"description": "TRON: energy required"})
    bandwidth = ma.fields.Integer(metadata={"description": "TRON: bandwidth required"})
    isActivated = ma.fields.Boolean(metadata={"description": "TRON: whether the sender is activated"})
    resource = ma.fields.Nested(TronResourceSchema, metadata={"description": "TRON: the sender's available resources"})
    feeRequired = ma.fields.String(metadata={"description": "When the balance falls short"})
    feeAvailable = ma.fields.String(metadata={"description": "When the balance falls short"})
    feeDeficit = ma.fields.String(metadata={"description": "When the balance falls short"})
    error = ma.fields.String(metadata={"description": "When the fee cannot be computed"})


class FeeEntrySchema(Schema):
    assetShort = ma.fields.String(required=True)
    fee = ma.fields.String(required=True, metadata={"description": "In feeCurrency"})
    feeCurrency = ma.fields.String(required=True, metadata={"example": "TRX"})
    canProceed = ma.fields.Boolean(required=True)
    details = ma.fields.Nested(FeeDetailsSchema, required=True)


class NetworkFeeSchema(Schema):
    assetNetwork = ma.fields.String(required=True)
    fees = ma.fields.List(ma.fields.Nested(FeeEntrySchema), required=True)


@blp.route("/network-fee", methods=["GET"])
@blp.authenticated(operation="estimateNetworkFee")
@blp.arguments(NetworkFeeQuerySchema, location="query")
@blp.response(200, NetworkFeeSchema)
@blp.errors(400, 500)
def estimate(query):
    """Estimate the network fee of a withdrawal without sending anything."""
    return estimate_network_fee(context(), g.merchant, query["assetNetwork"], query["addressFrom"],
                                query["addressTo"], query.get("assetShort"))
