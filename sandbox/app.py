"""The Flask application: the /v2 gateway surface and the /sandbox control API."""

from dataclasses import dataclass

from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask
from flask_smorest import Api

from sandbox import __version__
from sandbox.api import deposit_addresses, network_fee, payments, wallets, withdrawals
from sandbox.api.auth import API_KEY_HEADER
from sandbox.api.errors import ErrorSchema, register_error_handlers
from sandbox.api.json_provider import OrjsonProvider
from sandbox.api.limits import install_rate_limits
from sandbox.clock import Clock
from sandbox.control import clock, faults, health, merchants, snapshots
from sandbox.control import payments as sandbox_payments
from sandbox.control import transactions
from sandbox.control import webhooks
from sandbox.control import withdrawals as sandbox_withdrawals
from sandbox.services import Context
from sandbox.store import Repository
from sandbox.web import init_web

GATEWAY_BLUEPRINTS = (deposit_addresses.blp, withdrawals.blp, payments.blp, wallets.blp, network_fee.blp)
CONTROL_BLUEPRINTS = (health.blp, merchants.blp, clock.blp, sandbox_payments.blp, transactions.blp,
                      sandbox_withdrawals.blp, webhooks.blp, snapshots.blp, faults.blp)
MAX_BODY_BYTES = 1024 * 1024
SWAGGER_UI_URL = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/"


@dataclass
class Settings:
    seed: int = 0
    admin_token: str | None = None
    public_url: str = "http://localhost"  # links in webhooks (checkoutUrl) start with it
    webhook_timeout: float = 10.0  # seconds a receiver has to answer
    check_responses: bool = False  # dump every answer through its schema too, failing on a difference (tests)


class GatewayMarshmallowPlugin(MarshmallowPlugin):
    """Lets a schema finish its JSON Schema where marshmallow cannot express a rule (a
    schema class may define `openapi(json_schema) -> json_schema`), and writes a
    nullable nested object as `nullable` + `allOf` (apispec's `anyOf` with a bare
    object would let any object through)."""

    def schema_helper(self, name, _, schema=None, **kwargs):
        json_schema = super().schema_helper(name, _, schema=schema, **kwargs)
        if json_schema is None:
            return None
        for prop_name, prop in json_schema.get("properties", {}).items():
            options = prop.get("anyOf", [])
            refs = [option for option in options if "$ref" in option]
            if len(options) == 2 and len(refs) == 1 and {"type": "object", "nullable": True} in options:
                json_schema["properties"][prop_name] = {**{k: v for k, v in prop.items() if k != "anyOf"},
                                                        "nullable": True, "allOf": refs}
        finish = getattr(schema, "openapi", None)
        return finish(json_schema) if finish else json_schema


class GatewayApi(Api):
    """Documents only the error codes an operation really gives, in the gateway's shape."""

    DEFAULT_ERROR_RESPONSE_NAME = None
    ERROR_SCHEMA = ErrorSchema


def _api(app: Flask, prefix: str, title: str, description: str, url_prefix: str) -> Api:
    app.config.update({
        f"{prefix}_API_TITLE": title,
        f"{prefix}_API_VERSION": __version__,
        f"{prefix}_OPENAPI_VERSION": "3.0.3",
        f"{prefix}_OPENAPI_URL_PREFIX": url_prefix,
        f"{prefix}_OPENAPI_JSON_PATH": "openapi.json",
        f"{prefix}_OPENAPI_SWAGGER_UI_PATH": "docs",
        f"{prefix}_OPENAPI_SWAGGER_UI_URL": SWAGGER_UI_URL,
        f"{prefix}_API_SPEC_OPTIONS": {"info": {"description": description}},
    })
    api = GatewayApi(app, config_prefix=prefix, spec_kwargs={"marshmallow_plugin": GatewayMarshmallowPlugin()})
    api.spec.components.schemas.pop("PaginationMetadata", None)  # flask-smorest's; no endpoint pages that way
    api.spec.components.security_scheme("ApiKey", {"type": "apiKey", "in": "header", "name": API_KEY_HEADER})
    return api


def create_app(store: Repository, settings: Settings | None = None, clock: Clock | None = None) -> Flask:
    settings = settings or Settings()
    app = Flask("sandbox")
    app.json = OrjsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["SANDBOX_ADMIN_TOKEN"] = settings.admin_token
    app.extensions["sandbox"] = Context(store=store, clock=clock or Clock(), seed=settings.seed,
                                        credential_secret=settings.admin_token or "",
                                        public_url=settings.public_url.rstrip("/"))
    app.config["SANDBOX_WEBHOOK_TIMEOUT"] = settings.webhook_timeout
    app.config["SANDBOX_CHECK_RESPONSES"] = settings.check_responses

    gateway = _api(app, "V2", "Merchant crypto payment gateway API",
                   "The gateway's v2 API as the sandbox serves it.", "/")
    for blueprint in GATEWAY_BLUEPRINTS:
        gateway.register_blueprint(blueprint)

    control = _api(app, "SANDBOX", "gateway-sandbox control API",
                   "Sandbox controls: merchants, clocks, simulated payments and deposits, approvals, webhooks, snapshots. "
                   "Not part of the gateway.", "/sandbox")
    for blueprint in CONTROL_BLUEPRINTS:
        control.register_blueprint(blueprint)

    install_rate_limits(app)
    init_web(app)
    register_error_handlers(app)
    return app
