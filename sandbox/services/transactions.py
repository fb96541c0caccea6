"""Simulated on-chain deposits: what the gateway's chain scanner would see."""

from datetime import datetime, timedelta
from decimal import Decimal

from sandbox import catalogue
from sandbox.chains import chain_for
from sandbox.clock import to_iso
from sandbox.domain import aml
from sandbox.domain.assets import normalise, parse_asset_amount, require_asset, require_network
from sandbox.domain.errors import Conflict, InvalidRequest
from sandbox.domain.fees import percent_fee
from sandbox.domain.money import format_amount
from sandbox.domain.seed import derive_bytes
from sandbox.services import Context, addresses, engine, payments, wallets
from sandbox.services.network_fee import sweep_fee


CONFIRM = "deposit.confirm"


def record_deposit(ctx: Context, merchant: dict, request: dict) -> dict:
    """A transaction into one of the merchant's deposit addresses. It joins the
    address's oldest OPEN payment of the same asset (if any), is charged the
    merchant's fees and gets an AML score at once; a dangerous score blocks the
    wallet and flags the payment AML_CHECK_DANGER. It arrives with `confirmations`
    (default 0) and gains one per block time of its network: once it has the
    payment's confirmsNeeded (the network's, without a payment) it is credited to
    the wallet and counted in the payment's total."""
    network_name, short = normalise(request["assetNetwork"], request["assetShort"])
    network = require_network(network_name)
    asset = require_asset(network, short)
    amount = parse_asset_amount(request["amount"], asset)
    chain = chain_for(network.name)
    if request.get("addressFrom") is not None and not chain.is_valid_address(request["addressFrom"]):
        raise InvalidRequest(f"addressFrom is not a valid {network.name} address")
    merchant_id = merchant["id"]
    with ctx.store.transaction():
        now = engine.settled_now(ctx, merchant_id)  # so a payment that has just expired takes nothing
        address = addresses.merchant_address(ctx, merchant_id, network, request["addressTo"])
        if address is None:
            raise InvalidRequest(f"addressTo is not one of this merchant's deposit addresses on {network.name}")
        dest_tag = request.get("destTag") or None  # "" means none, as for withdrawals
        if dest_tag is not None and dest_tag != address["destTag"]:
            raise InvalidRequest("destTag does not match the memo of addressTo")
        sequence = ctx.store.count("transactions", "merchant", merchant_id)
        txn_id = request.get("txnId") or chain.transaction_id(derive_bytes(ctx.seed, "txn", merchant_id, sequence,
                                                                           size=64))
        if ctx.store.get("transactions", _key(merchant_id, network.name, txn_id)) is not None:
            raise Conflict(f"transaction {txn_id} is already recorded on {network.name}")
        address_from = (chain.canonical(request["addressFrom"]) if request.get("addressFrom") is not None
                        else addresses.outside_address(ctx, network, merchant_id, sequence))
        risk_score = request.get("riskScore")
        if risk_score is None:
            risk_score = aml.default_risk_score(ctx.seed, merchant_id, network.name, txn_id)
        danger = aml.is_danger(risk_score, merchant["amlThreshold"])
        payment = payments.first_awaiting(ctx, network.name, address["address"], asset.short)
        fixed_fee = Decimal(payment["fixedFee"]) if payment else payments.default_fixed_fee(merchant, asset)
        confirmations = request.get("confirmations") or 0
        needed = payment["confirmsNeeded"] if payment else network.confirms_needed
        transaction = {
            "merchantId": merchant_id,
            "seq": sequence,
            "paymentId": payment["id"] if payment else None,
            "clientId": address["clientId"],
            "network": network.name,
            "asset": asset.short,
            "txnId": txn_id,
            "amount": format_amount(amount),
            "addressFrom": address_from,
            "addressTo": address["address"],
            "destTag": address["destTag"],
            "fixedFee": format_amount(fixed_fee),
            "percentFee": format_amount(percent_fee(amount, Decimal(merchant["feePercent"]), asset)),
            "networkFee": format_amount(sweep_fee(ctx, merchant, network, asset)),
            "riskScore": risk_score,
            "isDanger": danger,
            "amlPriceUsd": format_amount(aml.CHECK_PRICE_USD),
            "confirmations": confirmations,
            "confirmsNeeded": needed,
            "confirmedAt": None,
            "checkedAt": to_iso(now),
            "createdAt": to_iso(now),
        }
        ctx.store.put("transactions", transaction)
        if danger:
            wallets.block(ctx, address, asset.short, now)
        if payment:
            payments.see_deposit(ctx, payment, transaction, now)
        if confirmations >= needed:
            transaction = _confirm(ctx, transaction, now)
        else:
            wait = timedelta(seconds=float(network.block_time * (needed - confirmations)))
            engine.schedule(ctx, merchant_id, CONFIRM, _key(merchant_id, network.name, txn_id), now + wait)
    return transaction


def confirm_when_due(ctx: Context, key: str, at: datetime) -> None:
    transaction = ctx.store.get("transactions", key)
    if transaction and transaction["confirmedAt"] is None:
        _confirm(ctx, transaction, at)


def _confirm(ctx: Context, transaction: dict, at: datetime) -> dict:
    """Enough confirmations: credit the wallet and count it for its payment."""
    confirmed = {**transaction, "confirmations": max(transaction["confirmations"], transaction["confirmsNeeded"]),
                 "confirmedAt": to_iso(at)}
    ctx.store.put("transactions", confirmed)
    network = catalogue.network(transaction["network"])
    wallets.credit(ctx, addresses.find_address(ctx, network, transaction["addressTo"]), transaction["asset"],
                   Decimal(transaction["amount"]), at)
    if transaction["paymentId"]:
        payments.confirm_deposit(ctx, ctx.store.get("payments", transaction["paymentId"]), confirmed, at)
    return confirmed


def _key(merchant_id: int, network: str, txn_id: str) -> str:
    """The transactions table's key (see store/schema.py)."""
    return f"{merchant_id}:{network}:{txn_id}"


def deposit_object(transaction: dict) -> dict:
    """A recorded deposit as the control API shows it: the get-payment transaction
    fields, plus the network fee and the AML check's price and time."""
    return {**transaction, "receivedAmount": transaction["amount"],
            "asset": catalogue.asset(transaction["asset"], transaction["network"]).as_api()}
