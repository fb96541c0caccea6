"""The checkout page at a payment's checkoutUrl (/checkout/{id}/{key}), its status
feed for live updates, its QR code, the sandbox's simulate buttons, and
/pay/{id}/{key} (paymentRedirectUrl), which leads to it."""

import io

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request, url_for

from sandbox.api import context
from sandbox.domain import payments as rules
from sandbox.domain.errors import GatewayError, NotFound
from sandbox.services import checkout as service

blp = Blueprint("checkout", __name__, template_folder="templates")

PAGE = "/checkout/<string:payment_id>/<string:key>"
POLL_SECONDS = 2
BUTTONS = ((rules.FULL, "Simulate full payment"), (rules.PARTIAL, "Simulate partial payment"),
           (rules.RISKY, "Simulate risky payment"))


@blp.errorhandler(NotFound)
def not_found(error: NotFound):
    return render_template("error.html", status=404, message="This payment does not exist."), 404


@blp.route(PAGE, methods=["GET"])
def page(payment_id: str, key: str):
    view = service.checkout(context(), payment_id, key)
    return render_template("checkout.html", view=view, key=key, status=service.status_object(view), buttons=BUTTONS,
                           poll_seconds=POLL_SECONDS)


@blp.route(f"{PAGE}/status", methods=["GET"])
def status(payment_id: str, key: str):
    """What the page polls; never cached, it changes with the merchant's clock."""
    response = jsonify(service.status_object(service.checkout(context(), payment_id, key)))
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route(f"{PAGE}/qr.svg", methods=["GET"])
def qr_code(payment_id: str, key: str):
    """The deposit address as a QR code, drawn here (no outside service sees it)."""
    view = service.checkout(context(), payment_id, key)
    image = qrcode.make(view["payment"]["addressTo"], image_factory=qrcode.image.svg.SvgPathImage, box_size=8,
                        border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


@blp.route(f"{PAGE}/simulate", methods=["POST"])
def simulate(payment_id: str, key: str):
    """A sandbox button: a deposit through the control API's own service."""
    view = service.checkout(context(), payment_id, key)  # an unknown payment is a 404 before anything else
    kind = request.form.get("kind", "")
    if kind not in rules.SIMULATIONS:
        return render_template("error.html", status=400, message=f"Unknown simulation; expected one of "
                                                                 f"{', '.join(rules.SIMULATIONS)}."), 400
    try:
        deposit = service.simulate(context(), view["payment"]["id"], key, kind)
    except GatewayError as error:
        flash(error.message, "error")
    else:
        flash(f"A deposit of {deposit['amount']} {deposit['asset']} is on chain; it counts once it has "
              f"{deposit['confirmsNeeded']} confirmations.", "ok")
    return redirect(url_for(".page", payment_id=payment_id, key=key))


@blp.route("/pay/<string:payment_id>/<string:key>", methods=["GET"])
def pay(payment_id: str, key: str):
    """paymentRedirectUrl: where a shop sends its customer; it leads to the checkout page."""
    return redirect(url_for(".page", payment_id=payment_id, key=key))
