"""The gateway's own rules, as schemathesis checks: what a schema cannot say.

Each check looks at one answer (or, for the class-based ones, at every answer of
a run) and raises AssertionError with the rule it broke. They run against any server
that claims the /v2 contract: the sandbox, a staging gateway, another mock.

| check | rule |
|---|---|
| money_amounts | amounts are plain decimal strings, with at most the asset's decimals |
| list_pagination | total >= results, results <= limit, page and limit echo the request (withdrawals: 0-based page) |
| created_withdrawal | a created withdrawal is OPEN, with empty txnId and addressFrom and receivedAmount 0 |
| deposit_address_validity | each deposit address is valid for its network (checksum) |
| address_binding | the same clientId on the same network always gets the same address |
| error_body_shape | get payment errors are {error}; network fee errors are {code, num, message} |
| hmac_enforced | a signed operation that succeeded refuses the same request with a wrong X-HMAC (403) |
| merchant_isolation | every merchant object seen with one API key is the same merchant |
"""

import re
from decimal import Decimal

import schemathesis

from contracts.hooks import WRONG_SIGNATURE, setting
from sandbox import catalogue
from sandbox.chains import chain_for

DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
# Amount fields, in the asset of the object that holds them (or the network's native
# coin for fee estimates); fields ending in Usd are US dollars.
MONEY_FIELDS = {"amount", "receivedAmount", "totalReceivedAmount", "fixedFee", "percentFee", "networkFee", "fee",
                "feeRequired", "feeAvailable", "feeDeficit"}
LISTS = {("GET", "/v2/withdrawal"): 0, ("GET", "/v2/payment"): 1}  # operation -> first page number in answers


def _json(response):
    try:
        return response.json()
    except ValueError:
        return None


def _operation(case) -> tuple[str, str]:
    """(method, path template) of what was sent; another method than the operation's
    (schemathesis probes OPTIONS…) matches no rule here."""
    return case.method.upper(), case.operation.path if case.method.upper() == case.operation.method.upper() else ""


def _succeeded(response) -> bool:
    return 200 <= response.status_code < 300


@schemathesis.check
def money_amounts(ctx, response, case):
    """Amounts are decimal strings (no sign, no exponent) with at most the asset's decimals."""
    if _succeeded(response):
        _check_amounts(_json(response), None, "")


def _check_amounts(value, asset, path: str) -> None:
    if isinstance(value, list):
        for index, item in enumerate(value):
            _check_amounts(item, asset, f"{path}/{index}")
        return
    if not isinstance(value, dict):
        return
    asset = _asset_of(value) or asset
    for key, item in value.items():
        where = f"{path}/{key}"
        if key in MONEY_FIELDS or key.endswith("Usd"):
            if isinstance(item, dict):  # a Fee object: {amount, amountUsd}
                _check_amounts(item, asset, where)
                continue
            if not isinstance(item, str) or not DECIMAL.match(item):
                raise AssertionError(f"{where}: {item!r} is not a decimal string")
            known = None if key.endswith("Usd") else asset
            if known is not None and "." in item and len(item.split(".")[1]) > known.decimals:
                raise AssertionError(f"{where}: {item} has more than the {known.decimals} decimals of "
                                     f"{known.short} on {known.network}")
        else:
            _check_amounts(item, asset, where)


def _asset_of(value: dict):
    """The catalogue asset an object speaks of, when it names one."""
    if isinstance(value.get("asset"), dict):
        return catalogue.asset(str(value["asset"].get("short", "")).upper(),
                               str(value["asset"].get("network", "")).lower())
    if "assetShort" in value and "assetNetwork" in value:
        return catalogue.asset(str(value["assetShort"]).upper(), str(value["assetNetwork"]).lower())
    if "feeCurrency" in value and isinstance(value.get("details"), dict):  # a fee estimate: the native coin
        native = [a for network in catalogue.networks().values() for a in network.assets.values()
                  if a.is_native and a.short == value["feeCurrency"]]
        return native[0] if len(native) == 1 else None
    return None


@schemathesis.check
def list_pagination(ctx, response, case):
    """total >= len(results) and len(results) <= limit; page and limit echo the request
    (list withdrawals answers the page 0-based)."""
    first_page = LISTS.get(_operation(case))
    body = _json(response)
    if first_page is None or not _succeeded(response) or not isinstance(body, dict):
        return
    results, total = body.get("results"), body.get("total")
    if not isinstance(results, list) or not isinstance(total, int):
        return  # the schema check reports the shape
    if total < len(results):
        raise AssertionError(f"total {total} is less than the {len(results)} results on the page")
    query = case.query or {}
    limit = _number(query.get("limit"), 20)
    page = _number(query.get("page"), 1)
    if limit is not None and body.get("limit") != limit:
        raise AssertionError(f"limit {body.get('limit')!r} does not echo the requested {limit}")
    if limit is not None and len(results) > limit:
        raise AssertionError(f"{len(results)} results on a page of {limit}")
    if page is not None and body.get("page") != page - 1 + first_page:
        raise AssertionError(f"page {body.get('page')!r} for the requested page {page} (expected "
                             f"{page - 1 + first_page}: {'0' if first_page == 0 else '1'}-based)")


def _number(value, default):
    if value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@schemathesis.check
def created_withdrawal(ctx, response, case):
    """A withdrawal just created is OPEN, with empty txnId and addressFrom and receivedAmount 0."""
    body = _json(response)
    if _operation(case) != ("POST", "/v2/withdrawal") or not _succeeded(response) or not isinstance(body, dict):
        return
    expected = {"status": "OPEN", "txnId": "", "addressFrom": ""}
    wrong = {key: body.get(key) for key, value in expected.items() if body.get(key) != value}
    received = body.get("receivedAmount")
    if not isinstance(received, str) or not DECIMAL.match(received) or Decimal(received) != 0:
        wrong["receivedAmount"] = received
    if wrong:
        raise AssertionError(f"a created withdrawal must be OPEN with empty txnId and addressFrom and "
                             f"receivedAmount 0; got {wrong}")


def _created_addresses(case, response) -> tuple[str, list[dict]] | None:
    """(network, addresses) of a successful deposit-address creation."""
    body = _json(response)
    if _operation(case) != ("POST", "/v2/deposit-addresses/create") or not _succeeded(response):
        return None
    if not isinstance(body, dict) or not isinstance(body.get("addresses"), list) or not isinstance(case.body, dict):
        return None
    return str(case.body.get("assetNetwork", "")).lower(), [a for a in body["addresses"] if isinstance(a, dict)]


@schemathesis.check
def deposit_address_validity(ctx, response, case):
    """Every deposit address is valid for its network, checksum included."""
    created = _created_addresses(case, response)
    chain = chain_for(created[0]) if created else None
    for entry in created[1] if chain else []:
        if not isinstance(entry.get("address"), str) or not chain.is_valid_address(entry["address"]):
            raise AssertionError(f"{entry.get('address')!r} is not a valid {created[0]} address")


@schemathesis.check
class address_binding:  # noqa: N801 - schemathesis names a check after its class
    """The same clientId on the same network always gets the same address."""

    def __init__(self):
        self.bound: dict[tuple[str, str, str], str] = {}

    def after_response(self, ctx, response, case):
        created = _created_addresses(case, response)
        client_id = case.body.get("clientId") if created else None
        if not created or not isinstance(client_id, str) or len(created[1]) != 1:
            return
        key = (setting("api_key"), created[0], client_id)
        address = created[1][0].get("address")
        first = self.bound.setdefault(key, address)
        if first != address:
            raise AssertionError(f"clientId {client_id!r} on {created[0]} got {address!r}, earlier {first!r}")


@schemathesis.check
def error_body_shape(ctx, response, case):
    """Errors keep their endpoint family's shape: `{error}` for get payment,
    `{code, num, message}` (code = the HTTP status) for network fee."""
    if response.status_code < 400 or response.status_code >= 500:
        return
    body = _json(response)
    method, path = _operation(case)
    if (method, path) == ("GET", "/v2/payment/{id}"):
        if not isinstance(body, dict) or not isinstance(body.get("error"), str):
            raise AssertionError(f"a get-payment error must be {{\"error\": <text>}}; got {response.text[:200]!r}")
    elif (method, path) == ("GET", "/v2/network-fee"):
        shape = isinstance(body, dict) and isinstance(body.get("code"), int) and isinstance(body.get("num"), int) \
            and isinstance(body.get("message"), str)
        if not shape:
            raise AssertionError(f"a network-fee error must be {{code, num, message}}; got {response.text[:200]!r}")
        if body["code"] != response.status_code:
            raise AssertionError(f"code {body['code']} differs from the HTTP status {response.status_code}")


@schemathesis.check
def hmac_enforced(ctx, response, case):
    """A signed operation that accepted a request refuses it with a wrong X-HMAC (403)."""
    if case.method.upper() != case.operation.method.upper():
        return  # a probe of another method (OPTIONS…) says nothing about signatures
    if not _succeeded(response) or "X-HMAC" not in (case.headers or {}) or not setting("secret"):
        return
    probe = case.derive(headers={**case.headers, "X-HMAC": WRONG_SIGNATURE, "API-KEY": setting("api_key")})
    answer = probe.call()
    if answer.status_code != 403:
        raise AssertionError(f"the same request with a wrong X-HMAC got {answer.status_code}, not 403: "
                             "the signature is not checked")


@schemathesis.check
class merchant_isolation:  # noqa: N801
    """Everything one API key sees belongs to one merchant (the merchant of each payment)."""

    def __init__(self):
        self.seen: dict[str, set[str]] = {}

    def after_response(self, ctx, response, case):
        body = _json(response)
        if not _succeeded(response) or not isinstance(body, dict):
            return
        payments = body.get("results") if _operation(case) == ("GET", "/v2/payment") else [body.get("data")]
        merchants = {str(p["merchant"]["id"]) for p in payments or []
                     if isinstance(p, dict) and isinstance(p.get("merchant"), dict) and "id" in p["merchant"]}
        seen = self.seen.setdefault(setting("api_key"), set())
        seen.update(merchants)
        if len(seen) > 1:
            raise AssertionError(f"one API key sees payments of merchants {sorted(seen)}: another merchant's "
                                 "data leaks")
