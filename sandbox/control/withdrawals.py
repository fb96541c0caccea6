"""Manual withdrawal decisions: POST /sandbox/withdrawals/{id}/approve and /cancel."""

from flask import g

from sandbox.api import context
from sandbox.api.blueprint import ControlBlueprint
from sandbox.api.withdrawals import WithdrawalSchema
from sandbox.services.withdrawals import approve, cancel, withdrawal_object

blp = ControlBlueprint("sandbox_withdrawals", __name__, url_prefix="/sandbox",
                       description="Withdrawal approval (the merchant dashboard's buttons)")

WITHDRAWAL_ID = {"in": "path", "name": "withdrawal_id", "required": True, "schema": {"type": "string"}}


@blp.route("/withdrawals/<string:withdrawal_id>/approve", methods=["POST"], parameters=[WITHDRAWAL_ID])
@blp.authenticated()
@blp.response(200, WithdrawalSchema)
@blp.errors(404, 409)
def approve_withdrawal(withdrawal_id):
    """OPEN → APPROVED now; processing on chain follows after the network's processing time."""
    return withdrawal_object(approve(context(), g.merchant, withdrawal_id), g.merchant)


@blp.route("/withdrawals/<string:withdrawal_id>/cancel", methods=["POST"], parameters=[WITHDRAWAL_ID])
@blp.authenticated()
@blp.response(200, WithdrawalSchema)
@blp.errors(404, 409)
def cancel_withdrawal(withdrawal_id):
    """OPEN or APPROVED → CANCELLED (before processing); any other state gives 409."""
    return withdrawal_object(cancel(context(), g.merchant, withdrawal_id), g.merchant)
