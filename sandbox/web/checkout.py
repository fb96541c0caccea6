"""The checkout page at a payment's checkoutUrl (/checkout/{id}), its status feed
for live updates, its QR code, the sandbox's simulate buttons, and /pay/{id}
(paymentRedirectUrl), which leads to it."""

import io

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request, url_for

from sandbox.api import context
from sandbox.domain import payments as rules
from sandbox.domain.errors import GatewayError, NotFound
from sandbox.services import checkout as service

blp = Blueprint("checkout", __name__, template_folder="templates")

POLL_SECONDS = 2
BUTTONS = ((rules.FULL, "Simulate full payment"), (rules.PARTIAL, "Simulate partial payment"),
           (rules.RISKY, "Simulate risky payment"))


@blp.errorhandler(NotFound)
def not_found(error: NotFound):
    return render_template("error.html", status=404, message="This payment does not exist."), 404


@blp.route("/checkout/<string:payment_id>", methods=["GET"])
def page(payment_id: str):
    view = service.checkout(context(), payment_id)
    return render_template("checkout.html", view=view, status=service.status_object(view), buttons=BUTTONS,
                           poll_seconds=POLL_SECONDS)


@blp.route("/checkout/<string:payment_id>/status", methods=["GET"])
def status(payment_id: str):
    """What the page polls; never cached, it changes with the merchant's clock."""
    response = jsonify(service.status_object(service.checkout(context(), payment_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route("/checkout/<string:payment_id>/qr.svg", methods=["GET"])
def qr_code(payment_id: str):
    """The deposit address as a QR code, drawn here (no outside service sees it)."""
    view = service.checkout(context(), payment_id)
    image = qrcode.make(view["payment"]["addressTo"], image_factory=qrcode.image.svg.SvgPathImage, box_size=8,
                        border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


@blp.route("/checkout/<string:payment_id>/simulate", methods=["POST"])
def simulate(payment_id: str):
    """A sandbox button: a deposit through the control API's own service."""
    kind = request.form.get("kind", "")
    if kind not in rules.SIMULATIONS:
        flash(f"Unknown simulation {kind!r}; expected one of {', '.join(rules.SIMULATIONS)}.", "error")
    else:
        try:
            deposit = service.simulate(context(), payment_id, kind)
        except NotFound:
            raise
        except GatewayError as error:
            flash(error.message, "error")
        else:
            flash(f"A deposit of {deposit['amount']} {deposit['asset']} is on chain; it counts once it has "
                  f"{deposit['confirmsNeeded']} confirmations.", "ok")
    return redirect(url_for(".page", payment_id=payment_id))


@blp.route("/pay/<string:payment_id>", methods=["GET"])
def pay(payment_id: str):
    """paymentRedirectUrl: where a shop sends its customer; it leads to the checkout page."""
    return redirect(url_for(".page", payment_id=payment_id))
