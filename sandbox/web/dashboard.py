"""The merchant dashboard at /dashboard: sign in with the API key, then the
merchant's withdrawals (approve, cancel), payments, client wallets, clock,
webhooks and settings. Every read and every button goes through the same
service as the JSON API, scoped to the signed-in merchant; forms carry a CSRF
token; another merchant's record is simply not found."""

import re
from urllib.parse import urlsplit

import marshmallow as ma
from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for

from sandbox.api import base_url, context
from sandbox.api.errors import first_message
from sandbox.api.payments import PaymentQuerySchema
from sandbox.api.withdrawals import WithdrawalQuerySchema
from sandbox.control.clock import AdvanceSchema
from sandbox.control.merchants import MerchantSettingsSchema
from sandbox.control.webhooks import DeliveryQuerySchema
from sandbox.domain import payments as payment_rules
from sandbox.domain import withdrawals as withdrawal_rules
from sandbox.domain.errors import GatewayError, InvalidRequest, Unauthorized
from sandbox.services import clocks, engine, events, merchants, payments, wallets, webhooks, withdrawals
from sandbox.services.payments import SORT_FIELDS
from sandbox.services.urls import checkout_url

blp = Blueprint("dashboard", __name__, url_prefix="/dashboard", template_folder="templates",
                static_folder="static", static_url_path="/static")

PUBLIC_ENDPOINTS = {"dashboard.sign_in", "dashboard.static"}
# The clock page's buttons: label and seconds.
CLOCK_STEPS = (("+1 minute", 60), ("+10 minutes", 600), ("+1 hour", 3600), ("+1 day", 86400),
               ("+1 week", 7 * 86400))
SETTINGS_FIELDS = ("webhookUrl", "autoApproveSeconds", "feePercent", "fixedFeeUsd", "amlThreshold")
WHOLE_NUMBER = re.compile(r"^[0-9]{1,12}$")
SAFE_PATH = re.compile(r"^[\x21-\x5b\x5d-\x7e]+$")  # printable ASCII without spaces or backslashes


def _signed_in() -> dict | None:
    return merchants.session_merchant(context(), session.get("merchant"), session.get("key"),
                                      session.get("generation"))


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a dashboard path of this site, nothing else."""
    target = target or ""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/dashboard") or not SAFE_PATH.match(target):
        return url_for(".overview")
    return target


@blp.before_request
def guard():
    """The signed-in merchant (or the sign-in page; forms passed their CSRF check
    before this), and, as the API does, everything due on the merchant's clock applied."""
    if request.endpoint in PUBLIC_ENDPOINTS:
        return None
    merchant = _signed_in()
    if merchant is None:
        session.pop("merchant", None)
        return redirect(url_for(".sign_in", next=request.full_path.rstrip("?") if request.method == "GET" else None))
    engine.catch_up(context(), merchant["id"])
    g.merchant = merchant
    return None


@blp.context_processor
def page_context() -> dict:
    merchant = g.get("merchant")
    return {"merchant": merchant, "clock": clocks.state(context(), merchant["id"]) if merchant else None}


@blp.errorhandler(GatewayError)
def not_found(error: GatewayError):
    """A record that is unknown, malformed or another merchant's: the same 404 page for all three."""
    return render_template("error.html", status=404, message="Not found."), 404


def _act(action, done: str, back: str):
    """Run a button's action; its outcome (or the reason it was refused) shows on the page it returns to."""
    try:
        action()
    except GatewayError as error:
        flash(error.message, "error")
    else:
        flash(done, "ok")
    return redirect(back)


def _query(schema: ma.Schema) -> tuple[dict, str | None]:
    """The page's filter form read by the API's own query schema (empty fields left
    out), and the first problem, if any: then no filter applies."""
    data = {}
    for key in request.args:
        values = [value for value in request.args.getlist(key) if value.strip()]
        if values and key in schema.fields:
            data[key] = values if isinstance(schema.fields[key], ma.fields.List) else values[0]
    try:
        return schema.load(data), None
    except ma.ValidationError as error:
        return schema.load({}), first_message(error.messages)


def _pages(page: int, limit: int, total: int) -> dict:
    last = max(1, -(-total // limit))
    return {"page": page, "last": last, "total": total, "limit": limit}


@blp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    """The merchant's API key, once; the session remembers who signed in."""
    error = None
    if request.method == "POST":
        try:
            merchant = merchants.authenticate(context(), request.form.get("api_key", "").strip() or None)
        except Unauthorized:
            error = "That API key belongs to no merchant of this sandbox."
        else:
            session.clear()  # a fresh session (and CSRF token) for whoever signs in
            session["merchant"] = merchant["id"]
            session["key"] = merchants.key_digest(merchant)
            session["generation"] = merchants.session_generation(context(), merchant["id"])
            return redirect(_safe_next(request.args.get("next")))
    return render_template("sign_in.html", error=error), 401 if error else 200


@blp.route("/sign-out", methods=["POST"])
def sign_out():
    """Ends every dashboard session of the merchant, this one and any copy of it."""
    merchants.end_sessions(context(), g.merchant)
    session.clear()
    flash("Signed out.", "ok")
    return redirect(url_for(".sign_in"))


@blp.route("/", methods=["GET"])
@blp.route("", methods=["GET"])  # registered first: url_for gives /dashboard
def overview():
    ctx = context()
    waiting, waiting_total = withdrawals.list_withdrawals(ctx, g.merchant, statuses=(withdrawal_rules.OPEN,),
                                                          limit=5)
    recent, _ = payments.list_payments(ctx, g.merchant, limit=5)
    failed, failed_total = webhooks.list_deliveries(ctx, g.merchant, status=webhooks.FAILED, limit=5)
    return render_template("overview.html", waiting=waiting, waiting_total=waiting_total,
                           recent=[payment for payment, _ in recent], failed=failed, failed_total=failed_total)


@blp.route("/withdrawals", methods=["GET"])
def withdrawal_list():
    query, problem = _query(WithdrawalQuerySchema())
    found, total = withdrawals.list_withdrawals(context(), g.merchant, ids=query.get("ids", ()),
                                                txn_ids=query.get("txnIds", ()), invoices=query.get("invoices", ()),
                                                statuses=query.get("statuses", ()), page=query["page"],
                                                limit=query["limit"])
    return render_template("withdrawals.html", withdrawals=found, query=query, problem=problem,
                           statuses=withdrawal_rules.STATUSES, pages=_pages(query["page"], query["limit"], total)), \
        400 if problem else 200


@blp.route("/withdrawals/<string:withdrawal_id>", methods=["GET"])
def withdrawal_detail(withdrawal_id: str):
    ctx = context()
    withdrawal = withdrawals.get_withdrawal(ctx, g.merchant, withdrawal_id)
    history = events.about(ctx, g.merchant, withdrawal["id"])
    deliveries = webhooks.deliveries_of(ctx, g.merchant, [event["id"] for event in history])
    return render_template("withdrawal.html", withdrawal=withdrawal, history=history, deliveries=deliveries)


@blp.route("/withdrawals/<string:withdrawal_id>/approve", methods=["POST"])
def approve_withdrawal(withdrawal_id: str):
    return _act(lambda: withdrawals.approve(context(), g.merchant, withdrawal_id), "Withdrawal approved.",
                url_for(".withdrawal_detail", withdrawal_id=withdrawal_id))


@blp.route("/withdrawals/<string:withdrawal_id>/cancel", methods=["POST"])
def cancel_withdrawal(withdrawal_id: str):
    return _act(lambda: withdrawals.cancel(context(), g.merchant, withdrawal_id), "Withdrawal cancelled.",
                url_for(".withdrawal_detail", withdrawal_id=withdrawal_id))


@blp.route("/payments", methods=["GET"])
def payment_list():
    query, problem = _query(PaymentQuerySchema())
    found, total = payments.list_payments(context(), g.merchant, statuses=query.get("statuses", ()),
                                          method=query.get("method"), search=query.get("search"),
                                          txn_ids=query.get("txnIds", ()), ids=query.get("ids", ()),
                                          invoices=query.get("invoices", ()), sort_field=query["sortField"],
                                          sort_order=query["sortOrder"], page=query["page"], limit=query["limit"])
    return render_template("payments.html", payments=[payment for payment, _ in found], query=query, problem=problem,
                           statuses=payment_rules.DISPLAY_STATUSES, sort_fields=SORT_FIELDS,
                           pages=_pages(query["page"], query["limit"], total)), 400 if problem else 200


@blp.route("/payments/<string:payment_id>", methods=["GET"])
def payment_detail(payment_id: str):
    ctx = context()
    payment, deposits = payments.get_payment(ctx, g.merchant, payment_id)
    return render_template("payment.html", payment=payment, deposits=deposits,
                           history=events.about(ctx, g.merchant, payment["id"]),
                           checkout_url=checkout_url(base_url(), payment["id"], g.merchant))


@blp.route("/wallets", methods=["GET"])
def wallet_search():
    client_id = request.args.get("clientId", "").strip()
    info, problem = None, None
    if client_id:
        try:
            info = wallets.client_wallet_info(context(), g.merchant, client_id, base_url())
        except GatewayError as error:
            problem = "No wallets for this clientId." if error.message.endswith("not found") else error.message
    return render_template("wallets.html", client_id=client_id, info=info, problem=problem)


@blp.route("/clock", methods=["GET"])
def clock_page():
    return render_template("clock.html", steps=CLOCK_STEPS)


@blp.route("/clock/advance", methods=["POST"])
def advance_clock():
    try:
        seconds = AdvanceSchema().load({"seconds": request.form.get("seconds", "")})["seconds"]
    except ma.ValidationError as error:
        return render_template("clock.html", steps=CLOCK_STEPS, problem=first_message(error.messages)), 400
    return _act(lambda: clocks.advance(context(), g.merchant, seconds),
                "Clock moved forward; everything due by then has happened.", url_for(".clock_page"))


@blp.route("/clock/freeze", methods=["POST"])
def freeze_clock():
    choice = request.form.get("frozen")
    if choice not in ("true", "false"):
        return render_template("clock.html", steps=CLOCK_STEPS, problem="frozen must be true or false"), 400
    frozen = choice == "true"
    return _act(lambda: clocks.update(context(), g.merchant, frozen=frozen),
                "Clock frozen." if frozen else "Clock running.", url_for(".clock_page"))


@blp.route("/webhooks", methods=["GET"])
def webhook_log():
    query, problem = _query(DeliveryQuerySchema())
    found, total = webhooks.list_deliveries(context(), g.merchant, event_type=query.get("type"),
                                            status=query.get("status"), page=query["page"], limit=query["limit"])
    return render_template("webhooks.html", deliveries=found, query=query, problem=problem,
                           statuses=webhooks.DELIVERY_STATUSES, event_types=events.EVENT_TYPES,
                           pages=_pages(query["page"], query["limit"], total)), 400 if problem else 200


@blp.route("/webhooks/<string:delivery_id>/redeliver", methods=["POST"])
def redeliver(delivery_id: str):
    return _act(lambda: webhooks.redeliver(context(), g.merchant, delivery_id),
                "Queued again; it is sent within a moment.", url_for(".webhook_log"))


@blp.route("/webhooks/test", methods=["POST"])
def send_test():
    def send():
        delivery = webhooks.send_test(context(), g.merchant, current_app.config["SANDBOX_WEBHOOK_TIMEOUT"])
        if delivery["status"] != webhooks.DELIVERED:
            raise InvalidRequest(f"Test webhook not delivered: {webhooks.last_outcome(delivery)}.")
    return _act(send, "Test webhook delivered.", url_for(".webhook_log"))


@blp.route("/settings", methods=["GET", "POST"])
def settings_page():
    problem = None
    if request.method == "POST":
        form = {name: request.form.get(name, "").strip() for name in SETTINGS_FIELDS}
        changes = {
            "webhookUrl": form["webhookUrl"] or None,
            "autoApproveSeconds": _whole_number(form["autoApproveSeconds"]) if form["autoApproveSeconds"] else None,
            "feePercent": form["feePercent"],
            "fixedFeeUsd": form["fixedFeeUsd"],
            "amlThreshold": _whole_number(form["amlThreshold"]),
            "paymentWebhooks": request.form.get("paymentWebhooks") == "on",
        }
        try:
            merchants.update_merchant(context(), g.merchant, MerchantSettingsSchema().load(changes))
        except ma.ValidationError as error:
            problem = first_message(error.messages)
        else:
            flash("Settings saved.", "ok")
            return redirect(url_for(".settings_page"))
    return render_template("settings.html", problem=problem, form=request.form if problem else None), \
        400 if problem else 200


def _whole_number(text: str) -> int | str:
    """A form's digits as the integer the settings schema expects; anything else is
    passed on for the schema to refuse with its own message."""
    return int(text) if WHOLE_NUMBER.match(text) else text
