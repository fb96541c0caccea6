"""Withdrawals: creation (pooled or withdraw-direct) and listing."""

from datetime import timedelta

from sandbox import catalogue
from sandbox.chains import chain_for
from sandbox.clock import to_iso
from sandbox.domain import withdrawals as rules
from sandbox.domain.assets import normalise, require_asset, require_network
from sandbox.domain.errors import Forbidden, InvalidRequest
from sandbox.domain.money import format_amount
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context, addresses, wallets
from sandbox.services.merchants import merchant_object


def create_withdrawal(ctx: Context, merchant: dict, request: dict) -> dict:
    """An OPEN withdrawal. `request` is the validated body of POST /v2/withdrawal."""
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
        if transfer_all:
            amount = rules.require_transferable(wallets.balance_of(ctx, network, source["address"], asset.short))
        now = ctx.clock.now()
        sequence = ctx.store.count("withdrawals", "merchant", merchant["id"])
        auto_approve = merchant["autoApproveSeconds"]
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
            "timeToApprove": to_iso(now + timedelta(seconds=auto_approve)) if auto_approve is not None else None,
            "sourceAddress": source["address"] if source else None,
            "clientId": request.get("clientId"),
            "transferAll": transfer_all,
        }
        ctx.store.put("withdrawals", withdrawal)
    return withdrawal


def list_withdrawals(ctx: Context, merchant: dict, *, ids=(), txn_ids=(), invoices=(), statuses=(),
                     page: int = 1, limit: int = 20) -> tuple[list[dict], int]:
    """One page of the merchant's withdrawals matching every given filter, newest
    first, and the number of all matches."""
    wanted = [(set(ids), "id"), (set(txn_ids), "txnId"), (set(invoices), "invoice"), (set(statuses), "status")]
    created = ctx.store.find("withdrawals", "merchant", merchant["id"])  # oldest first
    matches = [w for w in reversed(created) if all(not values or w[field] in values for values, field in wanted)]
    start = (page - 1) * limit
    return matches[start:start + limit], len(matches)


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
