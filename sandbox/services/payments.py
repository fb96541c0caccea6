"""Payments: creation (the sandbox's stand-in for the gateway's own), reading and listing."""

import heapq
import itertools
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Callable

from sandbox import catalogue
from sandbox.clock import to_iso
from sandbox.domain import payments as rules
from sandbox.domain.assets import normalise, parse_asset_amount, require_asset, require_network
from sandbox.domain.errors import Forbidden, InvalidRequest
from sandbox.domain.fees import in_asset
from sandbox.domain.market import price_usd
from sandbox.domain.money import ZERO, format_amount
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context, addresses, clocks, engine, events, page_of, wallets
from sandbox.services.merchants import merchant_object
from sandbox.services.urls import checkout_url, payment_redirect_url

NO_CUSTOMER = {"id": 0, "name": "", "email": ""}
# sortField values and the payment field each sorts by.
SORT_FIELDS = {"created_at": "seq", "updated_at": "updatedAt", "amount": "amount",
               "total_received_amount": "totalReceivedAmount", "status": "status", "display_status": "displayStatus"}
DECIMAL_FIELDS = {"amount", "totalReceivedAmount"}


EXPIRE = "payment.expire"


def create_payment(ctx: Context, merchant: dict, request: dict) -> dict:
    """A payment waiting for its deposit (status OPEN, displayStatus NEW), at the
    client's bound address when a clientId is given, at a fresh address otherwise.
    Its expiry is scheduled `timeout` seconds on."""
    network_name, short = normalise(request["assetNetwork"], request["assetShort"])
    network = require_network(network_name)
    asset = require_asset(network, short)
    amount = parse_asset_amount(request["amount"], asset)
    if request.get("fixedFee") is not None:
        fixed_fee = parse_asset_amount(request["fixedFee"], asset, "fixedFee", positive=False)
    else:
        fixed_fee = default_fixed_fee(merchant, asset)
    client_id = request.get("clientId")
    timeout = _given(request, "timeout", rules.DEFAULT_TIMEOUT_SECONDS)
    with ctx.store.transaction():
        if client_id is not None:
            address = addresses.client_address(ctx, merchant["id"], network, client_id)
        else:
            address = addresses.new_address(ctx, merchant["id"], network, None)
        wallets.ensure_wallet(ctx, address, asset.short)
        sequence = ctx.store.count("payments", "merchant", merchant["id"])
        now = clocks.now(ctx, merchant["id"])
        status, display = rules.statuses(rules.Receipts(requested=amount, received=ZERO, confirming=ZERO,
                                                        deposits=0, flagged=False))
        payment = {
            "id": derive_uuid(ctx.seed, "payment", merchant["id"], sequence),
            "merchantId": merchant["id"],
            "seq": sequence,
            "status": status,
            "displayStatus": display,
            "amount": format_amount(amount),
            "totalReceivedAmount": "0",
            "confirmingAmount": "0",
            "assetShort": asset.short,
            "assetNetwork": network.name,
            "addressTo": address["address"],
            "destTag": address["destTag"],
            "confirmsNeeded": _given(request, "confirmsNeeded", network.confirms_needed),
            "timeout": timeout,
            "invoice": request.get("invoice"),
            "clientId": client_id,
            "customer": request.get("customer"),
            "fixedFee": format_amount(fixed_fee),
            "type": "api",
            "deposits": 0,
            "flagged": False,
            "expired": False,
            "completionPrices": {},  # the merchant's USD price of the asset when it completed
            "txnIds": [],
            "addressesFrom": [],
            "createdAt": to_iso(now),
            "updatedAt": to_iso(now),
        }
        ctx.store.put("payments", payment)
        engine.schedule(ctx, merchant["id"], EXPIRE, payment["id"], now + timedelta(seconds=timeout))
    return payment


def _given(request: dict, field: str, default):
    """The value sent, or `default` when it is absent or null."""
    value = request.get(field)
    return default if value is None else value


def default_fixed_fee(merchant: dict, asset) -> Decimal:
    """The merchant's fixed fee (set in USD) in the asset, at the merchant's prices."""
    return in_asset(Decimal(merchant["fixedFeeUsd"]), price_usd(asset.short, merchant["prices"]), asset)


def awaits_funds(payment: dict) -> bool:
    """Open, and what it has seen (confirmed or not) falls short of the amount."""
    seen = Decimal(payment["totalReceivedAmount"]) + Decimal(payment["confirmingAmount"])
    return payment["status"] == rules.OPEN and seen < Decimal(payment["amount"])


def first_awaiting(ctx: Context, network: str, address: str, asset_short: str) -> dict | None:
    """The payment a deposit to this address and asset pays: the oldest one awaiting
    funds (callers have let the engine expire what is due)."""
    return next((p for p in ctx.store.find("payments", "wallet", (network, address, asset_short))
                 if awaits_funds(p)), None)


def see_deposit(ctx: Context, payment: dict, transaction: dict, at: datetime) -> dict:
    """A deposit for the payment appeared on chain (not confirmed yet)."""
    return _change(ctx, payment, at, deposits=payment["deposits"] + 1,
                   confirmingAmount=_plus(payment["confirmingAmount"], transaction["amount"]),
                   flagged=payment["flagged"] or transaction["isDanger"],
                   txnIds=[*payment["txnIds"], transaction["txnId"]],
                   addressesFrom=[*payment["addressesFrom"], transaction["addressFrom"]])


def confirm_deposit(ctx: Context, payment: dict, transaction: dict, at: datetime) -> dict:
    """One of its deposits reached confirmsNeeded: it now counts in totalReceivedAmount."""
    return _change(ctx, payment, at, confirmingAmount=_plus(payment["confirmingAmount"], "-" + transaction["amount"]),
                   totalReceivedAmount=_plus(payment["totalReceivedAmount"], transaction["amount"]))


def expire_when_due(ctx: Context, payment_id: str, at: datetime) -> None:
    """The payment window closes: a payment not complete by now is EXPIRED for good."""
    payment = ctx.store.get("payments", payment_id)
    if payment and payment["status"] == rules.OPEN:
        _change(ctx, payment, at, expired=True)


def _change(ctx: Context, payment: dict, at: datetime, **changes) -> dict:
    """The payment with `changes`, both statuses derived again; a change of either is an event."""
    updated = {**payment, **changes, "updatedAt": to_iso(at)}
    updated["status"], updated["displayStatus"] = rules.statuses(rules.Receipts(
        requested=Decimal(updated["amount"]), received=Decimal(updated["totalReceivedAmount"]),
        confirming=Decimal(updated["confirmingAmount"]), deposits=updated["deposits"], flagged=updated["flagged"],
        expired=updated["expired"]))
    merchant = ctx.store.get("merchants", str(payment["merchantId"]))
    if not updated["completionPrices"] and Decimal(updated["totalReceivedAmount"]) >= Decimal(updated["amount"]):
        updated["completionPrices"] = {updated["assetShort"]: format_amount(price_usd(updated["assetShort"],
                                                                                      merchant["prices"]))}
    ctx.store.put("payments", updated)
    if (updated["status"], updated["displayStatus"]) != (payment["status"], payment["displayStatus"]):
        events.record(ctx, merchant["id"], events.PAYMENT_STATUS_CHANGED,
                      payment_object(updated, merchant, transactions_of(ctx, updated), ctx.public_url), at,
                      subject=updated["id"])
    return updated


def _plus(amount: str, change: str) -> str:
    return format_amount(Decimal(amount) + Decimal(change))


def get_payment(ctx: Context, merchant: dict, payment_id: str) -> tuple[dict, list[dict]]:
    """The payment and its transactions. The spec's answers otherwise: 400 `payment
    not found` for an unknown or malformed id, 403 `forbidden` for another merchant's."""
    with ctx.store.transaction():
        payment = find_payment(ctx, payment_id)
        if payment is None:
            raise InvalidRequest("payment not found")
        if payment["merchantId"] != merchant["id"]:
            raise Forbidden("forbidden")
        return payment, transactions_of(ctx, payment)


def find_payment(ctx: Context, payment_id: str) -> dict | None:
    """The payment with this id (any merchant's), None for an unknown or malformed id."""
    return ctx.store.get("payments", payment_id.lower()) if _is_uuid(payment_id) else None


def parse_method(method: str) -> tuple[str, str]:
    """`USDT_tron` as (asset, network), normalised. An asset or network the sandbox
    does not know is no error: like any filter value, it just matches nothing."""
    short, network_name = method.split("_", 1)
    network_name, short = normalise(network_name, short)
    return short, network_name


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text.lower()
    except ValueError:
        return False


@dataclass(frozen=True)
class _Filter:
    """One filter of the list: the test every match passes, and where candidates can
    come from: `size` of them, read all at once, or, when they are index buckets in
    creation order (`buckets`), page by page."""

    tests: tuple[Callable[[dict], bool], ...]  # what every candidate it supplies passes
    size: int
    read: Callable[[], list[dict]]
    buckets: tuple[tuple[str, object], ...] = ()


def list_payments(ctx: Context, merchant: dict, *, statuses=(), method: str | None = None,
                  search: str | None = None, txn_ids=(), ids=(), invoices=(), sort_field: str = "created_at",
                  sort_order: str = "desc", page: int = 1, limit: int = 20) -> tuple[list[tuple[dict, list]], int]:
    """One page of the merchant's payments (each with its transactions) matching every
    filter, and the number of all matches. `method` is `{asset}_{network}`.

    The smallest candidate supply among the filters is read and every filter's test
    runs on it, so a selective filter never walks all of the merchant's payments.
    When that supply is made of index buckets and no other filter applies, the page
    is merged straight from the buckets (newest or oldest first) without reading the
    rest: a status filter costs the same at 100 payments as at 50,000."""
    merchant_id = merchant["id"]
    store = ctx.store

    def by_index(index: str, values, *tests) -> _Filter:
        keys = tuple((merchant_id, *value) if isinstance(value, tuple) else (merchant_id, value)
                     for value in sorted(set(values)))
        return _Filter(tests, sum(store.count("payments", index, key) for key in keys),
                       lambda: [p for key in keys for p in store.find("payments", index, key)],
                       tuple((index, key) for key in keys))

    def by_ids(payment_ids: set[str], test) -> _Filter:
        found = [p for p in map(lambda key: store.get("payments", key), payment_ids)
                 if p and p["merchantId"] == merchant_id]
        return _Filter((test,), len(found), lambda: found)

    with store.transaction():
        filters = []
        if ids:
            wanted_ids = {payment_id.lower() for payment_id in ids}
            filters.append(by_ids(wanted_ids, lambda p: p["id"] in wanted_ids))
        if txn_ids:
            wanted_txns = set(txn_ids)
            filters.append(by_ids({t["paymentId"] for txn in wanted_txns
                                   for t in store.find("transactions", "merchant_txn", (merchant_id, txn))
                                   if t["paymentId"]}, lambda p: not wanted_txns.isdisjoint(p["txnIds"])))
        if search:
            found = store.search("payments", merchant_id, search) | {search.lower()}  # parts, and the whole id
            filters.append(by_ids(found, lambda p: p["id"] in found))
        if invoices:
            wanted_invoices = set(invoices)
            filters.append(by_index("merchant_invoice", invoices, lambda p: p["invoice"] in wanted_invoices))
        if statuses:
            wanted_statuses = set(statuses)
            status_test = lambda p: p["displayStatus"] in wanted_statuses  # noqa: E731
            filters.append(by_index("merchant_display", statuses, status_test))
        if method:
            asset_network = parse_method(method)
            method_test = lambda p: (p["assetShort"], p["assetNetwork"]) == asset_network  # noqa: E731
            filters.append(by_index("merchant_method", [asset_network], method_test))
            if statuses:  # the common pair has an index of its own
                filters.append(by_index("merchant_method_display", [(*asset_network, s) for s in statuses],
                                        method_test, status_test))
        tests = {test for f in filters for test in f.tests}
        filters.append(_Filter((), store.count("payments", "merchant", merchant_id),
                               lambda: store.find("payments", "merchant", merchant_id), (("merchant", merchant_id),)))
        supply = min(filters, key=lambda f: (f.size, -len(f.tests)))  # of equals, the one that answers more
        field = SORT_FIELDS[sort_field]
        newest_first = sort_order == "desc"
        start = (page - 1) * limit
        if supply.buckets and field == "seq" and tests <= set(supply.tests):
            page_items = _merged_page(store, supply.buckets, start, start + limit, newest_first)
            return [(p, transactions_of(ctx, p)) for p in page_items], supply.size
        others = [test for test in tests if test not in supply.tests]
        matches = [p for p in supply.read() if all(test(p) for test in others)]
        if not (len(supply.buckets) == 1 and field == "seq"):  # else already in creation order
            value = (lambda p: Decimal(p[field])) if field in DECIMAL_FIELDS else (lambda p: p[field])
            matches.sort(key=lambda p: (value(p), p["seq"]))
        if newest_first:
            matches.reverse()
        return [(p, transactions_of(ctx, p)) for p in page_of(matches, page, limit)], len(matches)


def _merged_page(store, buckets, start: int, stop: int, newest_first: bool) -> list[dict]:
    """Items start..stop of several creation-ordered buckets taken as one: at most
    `stop` from each, merged."""
    heads = [store.find_page("payments", index, key, 0, stop, newest_first=newest_first) for index, key in buckets]
    merged = heapq.merge(*heads, key=lambda p: p["seq"], reverse=newest_first)
    return list(itertools.islice(merged, start, stop))


def transactions_of(ctx: Context, payment: dict) -> list[dict]:
    return ctx.store.find("transactions", "payment", payment["id"])


def payment_object(payment: dict, merchant: dict, transactions: list[dict], base_url: str, *,
                   listed: bool = False) -> dict:
    """The spec's Payment object: the get-payment form, or (`listed`) the list form,
    which has no fixedFee, lists transactions in their short form, and carries the
    merchant id as a string (the spec's quirk, reproduced on purpose)."""
    asset = catalogue.asset(payment["assetShort"], payment["assetNetwork"]).as_api()
    merchant_view = merchant_object(merchant)
    if listed:
        merchant_view["id"] = str(merchant_view["id"])
    body = {
        "id": payment["id"],
        "status": payment["status"],
        "displayStatus": payment["displayStatus"],
        "amount": payment["amount"],
        "totalReceivedAmount": payment["totalReceivedAmount"],
        "addressTo": payment["addressTo"],
        "destTag": payment["destTag"],
        "confirmsNeeded": payment["confirmsNeeded"],
        "timeout": payment["timeout"],
        "checkoutUrl": checkout_url(base_url, payment["id"], merchant),
        "paymentRedirectUrl": payment_redirect_url(base_url, payment["id"], merchant),
        "invoice": payment["invoice"],
        "asset": asset,
        "customer": payment["customer"] or NO_CUSTOMER,
        "merchant": merchant_view,
        "transactions": [transaction_object(t, asset, listed=listed) for t in transactions],
    }
    if not listed:
        body["fixedFee"] = payment["fixedFee"]
    body["createdAt"] = payment["createdAt"]
    body["updatedAt"] = payment["updatedAt"]
    return body


def transaction_object(transaction: dict, asset: dict, *, listed: bool = False) -> dict:
    """The spec's payment transaction: full in get payment, short (with `date`) in the list."""
    body = {"paymentId": transaction["paymentId"], "txnId": transaction["txnId"],
            "receivedAmount": transaction["amount"], "addressFrom": transaction["addressFrom"],
            "addressTo": transaction["addressTo"], "destTag": transaction["destTag"], "asset": asset}
    if listed:
        body["date"] = transaction["createdAt"]
    else:
        body.update(fixedFee=transaction["fixedFee"], percentFee=transaction["percentFee"],
                    riskScore=transaction["riskScore"], isDanger=transaction["isDanger"],
                    createdAt=transaction["createdAt"])
    return body
