"""The checkout page's use cases: what a customer sees of a payment, and the
sandbox's buttons that pay it. A checkout link works without credentials, as the
gateway's does: whoever holds the payment's URL (with its key) sees that one payment."""

import hmac

from datetime import timedelta
from decimal import Decimal

from sandbox import catalogue
from sandbox.clock import from_iso
from sandbox.domain import payments as rules
from sandbox.domain.errors import Conflict, NotFound
from sandbox.domain.money import format_amount
from sandbox.services import Context, clocks, engine, payments, transactions
from sandbox.services.urls import checkout_key


def checkout(ctx: Context, payment_id: str, key: str) -> dict:
    """The payment as its checkout page shows it, on its merchant's clock, with
    everything due by now applied. A wrong key is as unknown as a wrong id."""
    payment = _payment(ctx, payment_id, key)
    merchant_id = payment["merchantId"]
    engine.catch_up(ctx, merchant_id)
    with ctx.store.transaction():
        payment = ctx.store.get("payments", payment["id"])
        merchant = ctx.store.get("merchants", str(merchant_id))
        now = clocks.now(ctx, merchant_id)
        frozen = clocks.clock_of(ctx, merchant_id).frozen
        deposits = payments.transactions_of(ctx, payment)
    expires_at = from_iso(payment["createdAt"]) + timedelta(seconds=payment["timeout"])
    seen = Decimal(payment["totalReceivedAmount"]) + Decimal(payment["confirmingAmount"])
    return {
        "payment": payment,
        "merchant": merchant,
        "asset": catalogue.asset(payment["assetShort"], payment["assetNetwork"]),
        "deposits": deposits,
        "now": now,
        "frozen": frozen,
        "expiresAt": expires_at,
        "secondsLeft": max(0, int((expires_at - now).total_seconds())) if payment["status"] == rules.OPEN else 0,
        "missing": max(Decimal(payment["amount"]) - seen, Decimal(0)),
        "acceptsDeposits": payments.awaits_funds(payment),
    }


def status_object(view: dict) -> dict:
    """What the page polls: enough to redraw the status, the totals, the deposits and the countdown."""
    payment = view["payment"]
    return {
        "status": payment["status"],
        "displayStatus": payment["displayStatus"],
        "amount": payment["amount"],
        "totalReceivedAmount": payment["totalReceivedAmount"],
        "confirmingAmount": payment["confirmingAmount"],
        "missingAmount": format_amount(view["missing"]),
        "secondsLeft": view["secondsLeft"],
        "frozen": view["frozen"],
        "acceptsDeposits": view["acceptsDeposits"],
        "deposits": [{"txnId": d["txnId"], "amount": d["amount"], "confirmed": d["confirmedAt"] is not None,
                      "isDanger": d["isDanger"]} for d in view["deposits"]],
    }


def simulate(ctx: Context, payment_id: str, key: str, kind: str) -> dict:
    """A deposit into the payment's address, made by the control API's own service
    (POST /sandbox/transactions): `full`, `partial` or `risky` (see the domain rule).
    A deposit pays the address's oldest open payment, so a payment waiting behind an
    older one of the same client is refused rather than paid by mistake."""
    with ctx.store.transaction():  # what is missing, and the deposit that pays it, in one step
        view = checkout(ctx, payment_id, key)
        payment, merchant = view["payment"], view["merchant"]
        if not view["acceptsDeposits"]:
            raise Conflict(f"this payment takes no more deposits (status {payment['status']}, "
                           f"displayStatus {payment['displayStatus']})")
        first = payments.first_awaiting(ctx, payment["assetNetwork"], payment["addressTo"], payment["assetShort"])
        if first["id"] != payment["id"]:
            raise Conflict(f"a deposit to this address pays the older payment {first['id']} first")
        deposit = rules.simulated_deposit(kind, view["missing"], view["asset"].decimals, merchant["amlThreshold"])
        return transactions.record_deposit(ctx, merchant, {
            "assetNetwork": payment["assetNetwork"], "assetShort": payment["assetShort"],
            "addressTo": payment["addressTo"], "destTag": payment["destTag"],
            "amount": format_amount(deposit.amount), "riskScore": deposit.risk_score,
        })


def _payment(ctx: Context, payment_id: str, key: str) -> dict:
    payment = payments.find_payment(ctx, payment_id)
    if payment is not None:
        merchant = ctx.store.get("merchants", str(payment["merchantId"]))
        if hmac.compare_digest(checkout_key(merchant, payment["id"]).encode(), key.encode()):
            return payment
    raise NotFound("payment not found")
