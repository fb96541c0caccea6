"""POST /v2/deposit-addresses/create"""

import marshmallow as ma
from flask import g

from sandbox.api import context
from sandbox.api.blueprint import GatewayBlueprint
from sandbox.api.fields import Text, name
from sandbox.api.schemas import Schema
from sandbox.services.deposit_addresses import MAX_ADDRESSES, create_deposit_addresses

blp = GatewayBlueprint("deposit_addresses", __name__, url_prefix="/v2", description="Deposit addresses")


class DepositAddressesRequestSchema(Schema):
    assetNetwork = name("assetNetwork", metadata={"description": "Converted to lowercase", "example": "tron"})
    assetShort = name("assetShort", metadata={"description": "Converted to uppercase", "example": "USDT"})
    # Any JSON value: the rule (an integer 1..100 without clientId, ignored with one)
    # is the service's, so that it holds whatever arrives.
    number = ma.fields.Raw(allow_none=True, metadata={
        "type": "integer", "minimum": 1, "maximum": MAX_ADDRESSES,
        "description": "Required when clientId is absent; ignored (1) with one"})
    clientId = Text(allow_none=True, validate=ma.validate.Length(min=1, max=255,
                                                                 error="clientId must be 1 to 255 characters"),
                    metadata={"description": "Binds the address to this client on the network. Null: absent"})

    @staticmethod
    def openapi(json_schema: dict) -> dict:
        """The spec: `number` is required without a clientId and ignored, whatever it
        holds, with one; so its constraints hold only in the branch without a clientId
        (a null clientId counts as none)."""
        properties = dict(json_schema["properties"])
        number = properties.pop("number")
        properties["number"] = {"description": number["description"]}
        return {**json_schema, "properties": properties,
                "anyOf": [{"required": ["clientId"], "properties": {"clientId": {"type": "string"}}},
                          {"required": ["number"], "properties": {"number": {
                              key: value for key, value in number.items() if key not in ("description", "nullable")}}}]}


class DepositAddressSchema(Schema):
    symbol = ma.fields.String(required=True, metadata={"example": "USDT"})
    address = ma.fields.String(required=True)
    dest_tag = ma.fields.String(required=True, allow_none=True,
                                metadata={"description": "Memo: always for TON (the clientId when sent), else null"})


class DepositAddressesSchema(Schema):
    addresses = ma.fields.List(ma.fields.Nested(DepositAddressSchema), required=True)
    success = ma.fields.Boolean(required=True)


@blp.route("/deposit-addresses/create", methods=["POST"])
@blp.doc(responses={200: {"links": {
    "SameAgain": {"operationId": "createDepositAddresses", "requestBody": "$request.body",
                  "description": "The same request again: with a clientId, the same address"}}}})
@blp.authenticated(signed=True, operation="createDepositAddresses")
@blp.arguments(DepositAddressesRequestSchema,
               example={"assetNetwork": "tron", "assetShort": "USDT", "clientId": "customer-42"})
@blp.response(200, DepositAddressesSchema)
@blp.errors(400, 500)
def create(body):
    """Generate deposit addresses, or return the one bound to a clientId."""
    addresses = create_deposit_addresses(context(), g.merchant, body["assetNetwork"], body["assetShort"],
                                         body.get("number"), body.get("clientId"))
    return {"addresses": addresses, "success": bool(addresses)}
