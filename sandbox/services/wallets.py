"""Wallets: one per address and asset, with a balance and a status; and the
client wallet info the gateway returns for a clientId."""

from datetime import datetime
from decimal import Decimal

from sandbox import catalogue
from sandbox.catalogue import Asset, Network
from sandbox.chains import EXTERNAL_ACCOUNT, AccountState, chain_for
from sandbox.clock import from_iso, to_iso
from sandbox.domain.assets import normalise_network, normalise_ticker
from sandbox.domain.errors import NotFound
from sandbox.domain.market import to_usd
from sandbox.domain.money import ZERO, format_amount
from sandbox.services import Context, clocks
from sandbox.services.addresses import find_address
from sandbox.services.urls import checkout_url

ACTIVE, LOCKED, BLOCKED = "ACTIVE", "LOCKED", "BLOCKED"
WALLET_STATUSES = (ACTIVE, LOCKED, BLOCKED)


def wallet_key(network: str, address: str, asset_short: str) -> str:
    return f"{network}:{address}:{asset_short}"


def ensure_wallet(ctx: Context, address: dict, asset_short: str, at: datetime | None = None) -> dict:
    """The wallet of `asset_short` at a deposit address, opened (empty, ACTIVE) on first
    use, at `at` (default: the merchant's now)."""
    with ctx.store.transaction():
        wallet = ctx.store.get("wallets", wallet_key(address["network"], address["address"], asset_short))
        if wallet is None:
            now = to_iso(at or clocks.now(ctx, address["merchantId"]))
            wallet = {"merchantId": address["merchantId"], "clientId": address["clientId"],
                      "network": address["network"], "address": address["address"], "asset": asset_short,
                      "amount": "0", "status": ACTIVE, "createdAt": now, "updatedAt": now, "lastReceivedAt": None}
            ctx.store.put("wallets", wallet)
        return wallet


def credit(ctx: Context, address: dict, asset_short: str, amount: Decimal, at: datetime) -> dict:
    """Receive `amount` (a negative one sends) into the wallet at moment `at`."""
    with ctx.store.transaction():
        wallet = ensure_wallet(ctx, address, asset_short, at)
        updated = {**wallet, "amount": format_amount(Decimal(wallet["amount"]) + amount), "updatedAt": to_iso(at),
                   "lastReceivedAt": to_iso(at) if amount > 0 else wallet["lastReceivedAt"]}
        ctx.store.put("wallets", updated)
        return updated


def block(ctx: Context, address: dict, asset_short: str, at: datetime) -> None:
    """AML: the wallet that received a dangerous transaction becomes BLOCKED."""
    with ctx.store.transaction():
        wallet = ensure_wallet(ctx, address, asset_short, at)
        ctx.store.put("wallets", {**wallet, "status": BLOCKED, "updatedAt": to_iso(at)})


def balance_of(ctx: Context, network: Network, address: str, asset_short: str) -> Decimal:
    wallet = ctx.store.get("wallets", wallet_key(network.name, address, asset_short))
    return Decimal(wallet["amount"]) if wallet else ZERO


def is_blocked(ctx: Context, network: Network, address: str, asset_short: str) -> bool:
    wallet = ctx.store.get("wallets", wallet_key(network.name, address, asset_short))
    return bool(wallet and wallet["status"] == BLOCKED)


def account_state(ctx: Context, network: Network, address: str, asset: Asset) -> AccountState:
    """What the chain knows of an address: sandbox addresses from their wallets,
    addresses outside the sandbox as established wallets (EXTERNAL_ACCOUNT).
    An account is activated once it has received the native coin."""
    record = find_address(ctx, network, address)
    if record is None:
        return EXTERNAL_ACCOUNT
    native = ctx.store.get("wallets", wallet_key(network.name, record["address"], network.native_asset))
    return chain_for(network.name).account(
        native_balance=Decimal(native["amount"]) if native else ZERO,
        activated=bool(native and native["lastReceivedAt"]),
        holds_asset=balance_of(ctx, network, record["address"], asset.short) > 0,
    )


def client_wallet_info(ctx: Context, merchant: dict, client_id: str, base_url: str, *,
                       date_from: str | None = None, date_to: str | None = None, newest_first: bool = True,
                       include_blocked: bool = True, include_empty: bool = True, asset_short: str | None = None,
                       asset_network: str | None = None, page: int = 1, limit: int = 100,
                       page_size: int | None = None) -> dict:
    """Every wallet of one client with balances, payments and transactions.

    dateFrom and dateTo (Unix seconds) narrow the transactions only when both are
    given (one alone is ignored), and never the balances or the wallets. Pagination
    runs over the transactions of all the selected wallets together, `page_size`
    (when given) or `limit` a page; each wallet and payment lists those on the page.
    A clientId without wallets (never seen, or another merchant's) is not found."""
    period = (int(date_from), int(date_to)) if date_from is not None and date_to is not None else None
    asset_network = normalise_network(asset_network) if asset_network is not None else None
    asset_short = normalise_ticker(asset_short) if asset_short is not None else None
    page_size = page_size or limit
    prices = merchant["prices"]
    with ctx.store.transaction():
        every = ctx.store.find("wallets", "client", (merchant["id"], client_id))
        if not every:
            raise NotFound("client not found")
        selected = [w for w in every
                    if (include_blocked or w["status"] == ACTIVE) and (include_empty or Decimal(w["amount"]) > 0)
                    and asset_short in (None, w["asset"]) and asset_network in (None, w["network"])]
        received = {wallet_key(w["network"], w["address"], w["asset"]):
                    [t for t in ctx.store.find("transactions", "wallet", (w["network"], w["address"], w["asset"]))
                     if period is None or period[0] <= int(from_iso(t["createdAt"]).timestamp()) <= period[1]]
                    for w in selected}
        paid = {key: ctx.store.find("payments", "wallet", (w["network"], w["address"], w["asset"]))
                for key, w in zip(received, selected)}

    ordered = sorted((t for transactions in received.values() for t in transactions),
                     key=lambda t: (t["createdAt"], t["seq"]), reverse=newest_first)
    by_payment: dict[str, list[dict]] = {}
    for transactions in received.values():
        for transaction in transactions:  # in creation order
            by_payment.setdefault(transaction["paymentId"], []).append(transaction)
    start = (page - 1) * page_size
    on_page = {id(t) for t in ordered[start:start + page_size]}

    def page_of(transactions: list[dict]) -> list[dict]:
        shown = [t for t in transactions if id(t) in on_page]
        return [_wallet_transaction(t, prices) for t in (reversed(shown) if newest_first else shown)]

    def wallet_payment(payment: dict, transactions: list[dict]) -> dict:
        customer = payment["customer"] or {}
        asset = catalogue.asset(payment["assetShort"], payment["assetNetwork"])
        usd_prices = {**prices, **payment["completionPrices"]}  # "at the time of payment completion"
        return {
            "id": payment["id"],
            "totalReceivedAmount": payment["totalReceivedAmount"],
            "totalReceivedAmountUsd": _usd(payment["totalReceivedAmount"], asset.short, usd_prices),
            "confirmsNeeded": payment["confirmsNeeded"],
            "checkoutUrl": checkout_url(base_url, payment["id"], merchant),
            "status": payment["status"],
            "displayStatus": payment["displayStatus"],
            "customerId": customer.get("id", 0),
            "customerName": customer.get("name", ""),
            "customerEmail": customer.get("email", ""),
            "invoice": payment["invoice"] or "",
            "createdAt": payment["createdAt"],
            "type": payment["type"],
            "fixedFee": payment["fixedFee"],
            "fixedFeeUsd": _usd(payment["fixedFee"], asset.short, usd_prices),
            "assetLogoUrl": asset.logo_url,
            "transactions": page_of(transactions),
        }

    return {
        "clientId": client_id,
        "createdAt": min(w["createdAt"] for w in every),
        "assetShort": "USD",
        "wallets": [{
            "address": w["address"],
            "assetShort": w["asset"],
            "assetNetwork": w["network"],
            "status": w["status"],
            "isBlocked": w["status"] == BLOCKED,
            "balance": {"amount": w["amount"], "amountUsd": _usd(w["amount"], w["asset"], prices),
                        "updatedAt": w["updatedAt"]},
            "payments": [wallet_payment(p, by_payment.get(p["id"], [])) for p in paid[key]],
            "transactions": page_of(received[key]),
        } for key, w in zip(received, selected)],
        "pagination": {"page": page, "pageSize": page_size, "hasNext": start + page_size < len(ordered),
                       "hasPrev": page > 1, "total": len(ordered)},
    }


def _usd(amount: str, asset_short: str, prices: dict) -> str:
    return format_amount(to_usd(Decimal(amount), asset_short, prices))


def _wallet_transaction(transaction: dict, prices: dict) -> dict:
    asset = transaction["asset"]

    def fee(amount: str) -> dict:
        return {"amount": amount, "amountUsd": _usd(amount, asset, prices)}

    return {
        "txnId": transaction["txnId"],
        "amount": transaction["amount"],
        "createdAt": transaction["createdAt"],
        "aml": {"riskScore": transaction["riskScore"], "isDanger": transaction["isDanger"],
                "checkedAt": transaction["checkedAt"], "amlPriceUsd": transaction["amlPriceUsd"]},
        "fees": {"fixedFee": fee(transaction["fixedFee"]), "networkFee": fee(transaction["networkFee"]),
                 "percentFee": fee(transaction["percentFee"])},
    }
