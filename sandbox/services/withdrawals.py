"""Withdrawals: creation (pooled or withdraw-direct), listing, and the lifecycle
OPEN → APPROVED → COMPLETE, or CANCELLED before processing."""

from datetime import datetime, timedelta
from decimal import Decimal

from sandbox import catalogue
from sandbox.chains import chain_for
from sandbox.clock import to_iso
from sandbox.domain import withdrawals as rules
from sandbox.domain.assets import normalise, require_asset, require_network
from sandbox.domain.errors import Forbidden, InvalidRequest, NotFound
from sandbox.domain.money import format_amount
from sandbox.domain.seed import derive_bytes, derive_uuid
from sandbox.services import Context, addresses, engine, events, page_of, wallets
from sandbox.services.merchants import merchant_object

APPROVE, COMPLETE = "withdrawal.approve", "withdrawal.complete"


def create_withdrawal(ctx: Context, merchant: dict, request: dict) -> dict:
    """An OPEN withdrawal. `request` is the validated body of POST /v2/withdrawal.
    With auto-approval its approval is scheduled at `timeToApprove`."""
    network_name, short = normalise(request["asset"]["network"], request["asset"]["short"])
    rules.require_supported(short, network_name)
    network = require_network(network_name)
    asset = require_asset(network, short)
    chain = chain_for(network.name)
    transfer_all = bool(request.get("transferAll"))
    direct = rules.require_direct_mode_pair(request.get("addressFrom"), request.get("clientId"), transfer_all)
    if not transfer_all:  # with transferAll the amount is ignored: the whole balance goes
        amount = rules.parse_requested_amount(request["amount"], asset)
    if not chain.is_valid_address(request["addressTo"]):
        raise InvalidRequest(f"addressTo is not a valid {network.name} address")

    with ctx.store.transaction():
        source = None
        if direct:
            source = addresses.merchant_address(ctx, merchant["id"], network, request["addressFrom"])
            if source is None or source["clientId"] != request["clientId"]:
                raise Forbidden("addressFrom does not belong to this merchant and clientId")
            if wallets.is_blocked(ctx, network, source["address"], asset.short):
                raise InvalidRequest(f"the {asset.short} wallet at addressFrom is BLOCKED by the AML check")
        if transfer_all:
            amount = rules.require_transferable(wallets.balance_of(ctx, network, source["address"], asset.short))
        now = engine.settled_now(ctx, merchant["id"])
        sequence = ctx.store.count("withdrawals", "merchant", merchant["id"])
        auto_approve = merchant["autoApproveSeconds"]
        approve_at = now + timedelta(seconds=auto_approve) if auto_approve is not None else None
        withdrawal = {
            "id": derive_uuid(ctx.seed, "withdrawal", merchant["id"], sequence),
            "merchantId": merchant["id"],
            "seq": sequence,
            "txnId": "",
            "amount": format_amount(amount),
            "receivedAmount": "0",
            "assetShort": asset.short,
            "assetNetwork": network.name,
            "addressFrom": "",
            "addressTo": request["addressTo"],
            "destTag": request.get("destTag") or "",
            "status": rules.OPEN,
            "customer": {key: request["customer"][key] for key in ("id", "name", "email")},
            "invoice": request["invoice"],
            "createdAt": to_iso(now),
            "updatedAt": to_iso(now),
            "timeToApprove": to_iso(approve_at) if approve_at else None,
            "sourceAddress": source["address"] if source else None,
            "clientId": request.get("clientId"),
            "transferAll": transfer_all,
        }
        _save(ctx, withdrawal, merchant, now)
        if approve_at:
            engine.schedule(ctx, merchant["id"], APPROVE, withdrawal["id"], approve_at)
    return withdrawal


def approve(ctx: Context, merchant: dict, withdrawal_id: str) -> dict:
    """Manual approval (the dashboard's button): OPEN → APPROVED now."""
    with ctx.store.transaction():
        now = engine.settled_now(ctx, merchant["id"])
        withdrawal = get_withdrawal(ctx, merchant, withdrawal_id)
        rules.require_transition(withdrawal["status"], rules.APPROVED)
        return _approve(ctx, withdrawal, now)


def cancel(ctx: Context, merchant: dict, withdrawal_id: str) -> dict:
    """OPEN or APPROVED → CANCELLED; whatever was scheduled for it is dropped."""
    with ctx.store.transaction():
        now = engine.settled_now(ctx, merchant["id"])
        withdrawal = get_withdrawal(ctx, merchant, withdrawal_id)
        rules.require_transition(withdrawal["status"], rules.CANCELLED)
        for kind in (APPROVE, COMPLETE):
            engine.unschedule(ctx, merchant["id"], kind, withdrawal_id)
        return _change(ctx, withdrawal, now, status=rules.CANCELLED)


def approve_when_due(ctx: Context, withdrawal_id: str, at: datetime) -> None:
    """The system's approval at `timeToApprove`."""
    withdrawal = ctx.store.get("withdrawals", withdrawal_id)
    if withdrawal and withdrawal["status"] == rules.OPEN:
        _approve(ctx, withdrawal, at)


def complete_when_due(ctx: Context, withdrawal_id: str, at: datetime) -> None:
    """Processing on chain: COMPLETE with txnId, addressFrom and receivedAmount filled;
    in withdraw-direct mode the source pays, and a source that cannot pay, or whose
    wallet the AML check blocked meanwhile (the sandbox's decision), makes the
    withdrawal CANCELLED instead."""
    withdrawal = ctx.store.get("withdrawals", withdrawal_id)
    if not withdrawal or withdrawal["status"] != rules.APPROVED:
        return
    network = catalogue.network(withdrawal["assetNetwork"])
    payout = Decimal(withdrawal["amount"])
    if withdrawal["sourceAddress"]:
        source = addresses.find_address(ctx, network, withdrawal["sourceAddress"])
        balance = wallets.balance_of(ctx, network, source["address"], withdrawal["assetShort"])
        payout = rules.direct_payout(payout, withdrawal["transferAll"], balance)
        if payout is None or wallets.is_blocked(ctx, network, source["address"], withdrawal["assetShort"]):
            _change(ctx, withdrawal, at, status=rules.CANCELLED)
            return
        wallets.credit(ctx, source, withdrawal["assetShort"], -payout, at)
        sender = source["address"]
    else:
        sender = addresses.hot_wallet(ctx, withdrawal["merchantId"], network)
    txn_id = chain_for(network.name).transaction_id(derive_bytes(ctx.seed, "withdrawal-txn", withdrawal_id, size=64))
    _change(ctx, withdrawal, at, status=rules.COMPLETE, txnId=txn_id, addressFrom=sender,
            receivedAmount=format_amount(payout))


def _approve(ctx: Context, withdrawal: dict, at: datetime) -> dict:
    engine.unschedule(ctx, withdrawal["merchantId"], APPROVE, withdrawal["id"])
    network = catalogue.network(withdrawal["assetNetwork"])
    engine.schedule(ctx, withdrawal["merchantId"], COMPLETE, withdrawal["id"], at + rules.processing_time(network))
    return _change(ctx, withdrawal, at, status=rules.APPROVED)


def _change(ctx: Context, withdrawal: dict, at: datetime, **changes) -> dict:
    updated = {**withdrawal, **changes, "updatedAt": to_iso(at)}
    _save(ctx, updated, ctx.store.get("merchants", str(withdrawal["merchantId"])), at)
    return updated


def _save(ctx: Context, withdrawal: dict, merchant: dict, at: datetime) -> None:
    """Store the withdrawal and record its status as an event."""
    ctx.store.put("withdrawals", withdrawal)
    events.record(ctx, merchant["id"], events.WITHDRAWAL_STATUS_CHANGED, withdrawal_object(withdrawal, merchant), at,
                  subject=withdrawal["id"])


def get_withdrawal(ctx: Context, merchant: dict, withdrawal_id: str) -> dict:
    """The merchant's withdrawal; 404 for an unknown id and for another merchant's."""
    withdrawal = ctx.store.get("withdrawals", withdrawal_id)
    if withdrawal is None or withdrawal["merchantId"] != merchant["id"]:
        raise NotFound("withdrawal not found")
    return withdrawal


def list_withdrawals(ctx: Context, merchant: dict, *, ids=(), txn_ids=(), invoices=(), statuses=(),
                     page: int = 1, limit: int = 20) -> tuple[list[dict], int]:
    """One page of the merchant's withdrawals matching every given filter, newest
    first, and the number of all matches."""
    wanted = [(set(ids), "id"), (set(txn_ids), "txnId"), (set(invoices), "invoice"), (set(statuses), "status")]
    created = ctx.store.find("withdrawals", "merchant", merchant["id"])  # oldest first
    matches = [w for w in reversed(created) if all(not values or w[field] in values for values, field in wanted)]
    return page_of(matches, page, limit), len(matches)


def withdrawal_object(withdrawal: dict, merchant: dict) -> dict:
    """The spec's Withdrawal object."""
    return {
        "id": withdrawal["id"],
        "txnId": withdrawal["txnId"],
        "amount": withdrawal["amount"],
        "receivedAmount": withdrawal["receivedAmount"],
        "asset": catalogue.asset(withdrawal["assetShort"], withdrawal["assetNetwork"]).as_api(),
        "addressFrom": withdrawal["addressFrom"],
        "addressTo": withdrawal["addressTo"],
        "destTag": withdrawal["destTag"],
        "status": withdrawal["status"],
        "customer": withdrawal["customer"],
        "merchant": merchant_object(merchant),
        "invoice": withdrawal["invoice"],
        "createdAt": withdrawal["createdAt"],
        "updatedAt": withdrawal["updatedAt"],
        "timeToApprove": withdrawal["timeToApprove"],
    }
