"""How answers are served: /v2 views send the objects the services build (no
marshmallow dump), checked against their schemas in tests; JSON by orjson; links
from the Host the client used; sessions opened only for requests with the cookie."""

import json
import logging
import re
from decimal import Decimal

import marshmallow as ma
import pytest
from flask_smorest import Api

from sandbox.api.blueprint import GatewayBlueprint, ResponseDrift, check_response
from sandbox.app import Settings, create_app
from sandbox.store import Store
from sandbox.web import SESSION_COOKIE


class ThingSchema(ma.Schema):
    class Meta:
        ordered = True

    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)


def things_app(thing: dict, *, check: bool):
    """A one-endpoint app on GatewayBlueprint, answering `thing`."""
    app = create_app(Store(), Settings(check_responses=check))
    api = Api(app, config_prefix="THINGS", spec_kwargs={"title": "things", "version": "1", "openapi_version": "3.0.3"})
    blp = GatewayBlueprint("things", __name__, url_prefix="/things")

    @blp.route("/one")
    @blp.response(200, ThingSchema)
    def one():
        return thing

    @blp.route("/made", methods=["POST"])
    @blp.response(201, ThingSchema)
    def made():
        return thing

    api.register_blueprint(blp)
    return app


@pytest.mark.parametrize("thing, problem", [
    ({"id": 1, "name": "a", "internal": "x"}, "would send"),  # a field the contract does not have
    ({"id": 1}, "name"),  # a required field missing
    ({"id": "1", "name": "a"}, "would send"),  # the wrong type
    ({"id": True, "name": "a"}, "would send"),  # equal to 1 in Python, not in JSON
    ({"id": Decimal(1), "name": "a"}, "would send"),
])
def test_a_drifting_answer_fails_the_check(thing, problem):
    with pytest.raises(ResponseDrift, match=problem):
        check_response(ThingSchema(), thing)


def test_an_answer_in_the_contracts_shape_passes_the_check():
    check_response(ThingSchema(), {"id": 1, "name": "a"})


def test_views_send_what_they_built_in_its_order_with_the_documented_status():
    app = things_app({"name": "a", "id": 1}, check=True)
    response = app.test_client().post("/things/made")
    assert response.status_code == 201
    assert response.data == b'{"name":"a","id":1}\n'  # the view's order, not the schema's


def test_the_check_turns_a_drifting_view_into_a_failure(caplog):
    thing = {"id": 1, "name": "a", "secret": "x"}
    with caplog.at_level(logging.ERROR):
        assert things_app(thing, check=True).test_client().get("/things/one").status_code == 500
    assert "ResponseDrift" in caplog.text
    assert things_app(thing, check=False).test_client().get("/things/one").json == thing  # served as built


def test_the_suites_apps_check_their_answers(app):
    assert app.config["SANDBOX_CHECK_RESPONSES"] is True
    assert create_app(Store()).config["SANDBOX_CHECK_RESPONSES"] is False  # served sandboxes do not


def test_json_keeps_order_and_utf8_and_takes_what_orjson_refuses(app):
    with app.app_context():
        plain = app.json.response({"b": 1, "a": "é", "amount": Decimal("1.50")})
        fallback = app.json.response({"big": 2**70, "odd": "\ud800"})
    assert plain.mimetype == "application/json"
    assert plain.data == '{"b":1,"a":"é","amount":"1.50"}\n'.encode()
    assert json.loads(fallback.data) == {"big": 2**70, "odd": "\ud800"}


def test_links_follow_the_host_the_client_used(shop):
    created = shop.control("POST", "/sandbox/payments", {"amount": "10", "assetShort": "USDT",
                                                         "assetNetwork": "tron"}).json["data"]
    headers = {"API-KEY": shop.merchant["apiKey"]}
    seen = shop.client.get(f"/v2/payment/{created['id']}", headers={**headers, "Host": "shop.test:8080"}).json
    assert seen["data"]["checkoutUrl"].startswith("http://shop.test:8080/checkout/")
    listed = shop.client.get("/v2/payment", headers={**headers, "Host": "bad host/x"}).json
    assert listed["results"][0]["checkoutUrl"].startswith("http://localhost/checkout/")


def test_sessions_open_from_the_cookie_and_api_calls_get_none(client, shop):
    assert "Set-Cookie" not in shop.get("/v2/payment").headers
    page = client.get("/dashboard/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    signed_in = client.post("/dashboard/sign-in", data={"api_key": shop.merchant["apiKey"], "csrf_token": token})
    assert signed_in.status_code == 302 and SESSION_COOKIE in signed_in.headers["Set-Cookie"]
    assert client.get("/dashboard").status_code == 200  # the next request opens the session from its cookie
    client.delete_cookie(SESSION_COOKIE)
    assert client.get("/dashboard").headers["Location"].startswith("/dashboard/sign-in")
