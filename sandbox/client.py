"""A Python client of the gateway's v2 API and the sandbox's control API.

    from sandbox.client import GatewayClient

    client = GatewayClient("http://127.0.0.1:8000", api_key="sk_sandbox_…", hmac_secret="hs_sandbox_…")
    address = client.create_deposit_addresses("tron", "USDT", client_id="customer-42").json["addresses"][0]
    client.create_withdrawal({"amount": "25.5", "asset": {"short": "USDT", "network": "tron"}, …})
    client.advance_clock(600)

Every call answers a `Response` (status, headers, json) and never raises for an HTTP
status: a test asserts what it expects. The two POSTs that need it are signed with
X-HMAC over the exact bytes sent. The same client runs in process against a Flask
app (`GatewayClient.in_process(app, …)`), through the same HTTP semantics.
"""

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from sandbox.domain.signing import sign


@dataclass
class Response:
    status: int
    json: object
    headers: dict = field(default_factory=dict)
    text: str = ""


class HttpTransport:
    """Real HTTP with the standard library."""

    def __init__(self, base_url: str, timeout: float = 30):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def send(self, method: str, path: str, body: bytes | None, headers: dict) -> Response:
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return _response(answer.status, answer.read(), dict(answer.headers))
        except urllib.error.HTTPError as error:
            return _response(error.code, error.read(), dict(error.headers))


class FlaskTransport:
    """In process, through Flask's test client: the same requests, no sockets."""

    def __init__(self, app):
        self.client = app.test_client()

    def send(self, method: str, path: str, body: bytes | None, headers: dict) -> Response:
        answer = self.client.open(path, method=method, data=body, headers=headers)
        return _response(answer.status_code, answer.data, dict(answer.headers))


def _query_value(value):
    """Query values as the API reads them: booleans as `true`/`false`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return [_query_value(item) for item in value]
    return value


def _response(status: int, raw: bytes, headers: dict) -> Response:
    text = raw.decode("utf-8", "replace")
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    return Response(status, parsed, headers, text)


class GatewayClient:
    """One merchant's view of a sandbox (or of a real gateway, for the v2 calls)."""

    def __init__(self, base_url: str | None = None, *, api_key: str | None = None, hmac_secret: str | None = None,
                 hmac_algorithm: str = "sha256", hmac_encoding: str = "hex", admin_token: str | None = None,
                 transport=None):
        self.transport = transport or HttpTransport(base_url or "http://127.0.0.1:8000")
        self.api_key = api_key
        self.hmac_secret = hmac_secret
        self.hmac_algorithm = hmac_algorithm
        self.hmac_encoding = hmac_encoding
        self.admin_token = admin_token

    @classmethod
    def in_process(cls, app, **credentials) -> "GatewayClient":
        return cls(transport=FlaskTransport(app), **credentials)

    def as_merchant(self, merchant: dict) -> "GatewayClient":
        """A client with the credentials of `merchant` (as POST /sandbox/merchants answers), same transport."""
        return GatewayClient(transport=self.transport, api_key=merchant["apiKey"], hmac_secret=merchant["hmacSecret"],
                             hmac_algorithm=merchant.get("hmacAlgorithm", "sha256"),
                             hmac_encoding=merchant.get("hmacEncoding", "hex"), admin_token=self.admin_token)

    # -- raw requests ------------------------------------------------------------------

    def request(self, method: str, path: str, body=None, *, query: dict | None = None, signed: bool = False,
                headers: dict | None = None) -> Response:
        """Any call: `body` is sent as compact JSON (and signed when `signed`)."""
        raw = json.dumps(body, separators=(",", ":")).encode() if body is not None else None
        all_headers = {}
        if self.api_key:
            all_headers["API-KEY"] = self.api_key
        if self.admin_token:
            all_headers["X-Sandbox-Admin-Token"] = self.admin_token
        if raw is not None:
            all_headers["Content-Type"] = "application/json"
        if signed and self.hmac_secret:
            all_headers["X-HMAC"] = sign(self.hmac_secret, raw or b"", self.hmac_algorithm, self.hmac_encoding)
        all_headers.update(headers or {})
        path = urllib.parse.quote(path, safe="/%?&=;:@!$'()*+,~-._")  # spaces and the like, as a browser sends them
        if query:
            path += "?" + urllib.parse.urlencode({k: _query_value(v) for k, v in query.items() if v is not None},
                                                 doseq=True)
        return self.transport.send(method, path, raw, all_headers)

    # -- the gateway (v2) --------------------------------------------------------------

    def create_deposit_addresses(self, network: str, asset: str, *, number: int | None = None,
                                 client_id: str | None = None) -> Response:
        body = {"assetNetwork": network, "assetShort": asset}
        body.update({k: v for k, v in (("number", number), ("clientId", client_id)) if v is not None})
        return self.request("POST", "/v2/deposit-addresses/create", body, signed=True)

    def create_withdrawal(self, body: dict) -> Response:
        return self.request("POST", "/v2/withdrawal", body, signed=True)

    def list_withdrawals(self, **query) -> Response:
        return self.request("GET", "/v2/withdrawal", query=query)

    def get_payment(self, payment_id: str) -> Response:
        return self.request("GET", f"/v2/payment/{urllib.parse.quote(payment_id, safe='')}")

    def list_payments(self, **query) -> Response:
        return self.request("GET", "/v2/payment", query=query)

    def wallet_info(self, client_id: str, **query) -> Response:
        return self.request("GET", "/v2/merchants/wallets/info", query={"clientId": client_id, **query})

    def network_fee(self, network: str, address_from: str, address_to: str, asset: str | None = None) -> Response:
        return self.request("GET", "/v2/network-fee", query={"assetNetwork": network, "addressFrom": address_from,
                                                             "addressTo": address_to, "assetShort": asset})

    # -- the sandbox's controls -----------------------------------------------------------

    def create_merchant(self, **settings) -> Response:
        return self.request("POST", "/sandbox/merchants", settings)

    def update_settings(self, **settings) -> Response:
        return self.request("PATCH", "/sandbox/merchants/me", settings)

    def create_payment(self, **payment) -> Response:
        return self.request("POST", "/sandbox/payments", payment)

    def deposit(self, **transaction) -> Response:
        return self.request("POST", "/sandbox/transactions", transaction)

    def clock(self) -> Response:
        return self.request("GET", "/sandbox/clock")

    def advance_clock(self, seconds: float) -> Response:
        return self.request("POST", "/sandbox/clock/advance", {"seconds": seconds})

    def set_clock(self, *, now: str | None = None, frozen: bool | None = None) -> Response:
        return self.request("PUT", "/sandbox/clock", {k: v for k, v in (("now", now), ("frozen", frozen))
                                                       if v is not None})

    def approve_withdrawal(self, withdrawal_id: str) -> Response:
        return self.request("POST", f"/sandbox/withdrawals/{urllib.parse.quote(withdrawal_id, safe='')}/approve")

    def cancel_withdrawal(self, withdrawal_id: str) -> Response:
        return self.request("POST", f"/sandbox/withdrawals/{urllib.parse.quote(withdrawal_id, safe='')}/cancel")

    def events(self, **query) -> Response:
        return self.request("GET", "/sandbox/events", query=query)

    def deliveries(self, **query) -> Response:
        return self.request("GET", "/sandbox/webhooks/deliveries", query=query)

    def dispatch_webhooks(self) -> Response:
        """Make every webhook attempt due now, and answer once they are recorded."""
        return self.request("POST", "/sandbox/webhooks/dispatch")

    def redeliver(self, delivery_id: str) -> Response:
        return self.request("POST", f"/sandbox/webhooks/deliveries/{urllib.parse.quote(delivery_id, safe='')}/redeliver")

    def send_test_webhook(self) -> Response:
        return self.request("POST", "/sandbox/webhooks/test")

    def snapshot(self) -> Response:
        """Save the merchant's state; `.json["id"]` restores it."""
        return self.request("POST", "/sandbox/snapshots")

    def snapshots(self, **query) -> Response:
        return self.request("GET", "/sandbox/snapshots", query=query)

    def restore(self, snapshot_id: str) -> Response:
        return self.request("POST", f"/sandbox/snapshots/{urllib.parse.quote(snapshot_id, safe='')}/restore")
