"""POST /v2/deposit-addresses/create"""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import Text
from sandbox.api.schemas import Schema
from sandbox.services.deposit_addresses import MAX_ADDRESSES, create_deposit_addresses

blp = GatewayBlueprint("deposit_addresses", __name__, url_prefix="/v2", description="Deposit addresses")

NUMBER_RULE = f"number must be between 1 and {MAX_ADDRESSES}"


class DepositAddressesRequestSchema(Schema):
    assetNetwork = Text(required=True, validate=ma.validate.Length(min=1, error="assetNetwork is required"),
                        error_messages={"required": "assetNetwork is required"},
                        metadata={"description": "Converted to lowercase", "example": "tron"})
    assetShort = Text(required=True, validate=ma.validate.Length(min=1, error="assetShort is required"),
                      error_messages={"required": "assetShort is required"},
                      metadata={"description": "Converted to uppercase", "example": "USDT"})
    number = ma.fields.Integer(strict=True, validate=ma.validate.Range(1, MAX_ADDRESSES, error=NUMBER_RULE),
                               error_messages={"invalid": NUMBER_RULE, "null": NUMBER_RULE},
                               metadata={"description": "Required when clientId is absent; ignored (1) with one"})
    clientId = Text(validate=ma.validate.Length(min=1, max=255),
                    metadata={"description": "Binds the address to this client on the network"})

    @staticmethod
    def openapi(json_schema: dict) -> dict:
        """The spec: `number` is required without a clientId and ignored, whatever it
        holds, with one; so its constraints hold only in the branch without clientId."""
        properties = dict(json_schema["properties"])
        number = properties.pop("number")
        properties["number"] = {"description": number["description"]}
        return {**json_schema, "properties": properties,
                "anyOf": [{"required": ["clientId"]},
                          {"required": ["number"], "properties": {"number": {k: v for k, v in number.items()
                                                                             if k != "description"}}}]}

    @ma.pre_load
    def ignore_number_with_client(self, data, **kwargs):
        if isinstance(data, dict) and data.get("clientId") is not None:
            return {key: value for key, value in data.items() if key != "number"}
        return data


class DepositAddressSchema(Schema):
    symbol = ma.fields.String(required=True, metadata={"example": "USDT"})
    address = ma.fields.String(required=True)
    dest_tag = ma.fields.String(required=True, allow_none=True,
                                metadata={"description": "Memo: always for TON (the clientId when sent), else null"})


class DepositAddressesSchema(Schema):
    addresses = ma.fields.List(ma.fields.Nested(DepositAddressSchema), required=True)
    success = ma.fields.Boolean(required=True)


@blp.route("/deposit-addresses/create", methods=["POST"])
@blp.authenticated(signed=True)
@blp.arguments(DepositAddressesRequestSchema)
@blp.response(200, DepositAddressesSchema)
@blp.errors(400)
def create(body):
    """Generate deposit addresses, or return the one bound to a clientId."""
    addresses = create_deposit_addresses(context(), g.merchant, body["assetNetwork"], body["assetShort"],
                                         body.get("number"), body.get("clientId"))
    return {"addresses": addresses, "success": bool(addresses)}
