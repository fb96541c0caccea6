"""Random sequences of deposits, payments, withdrawals, approvals, cancels and clock moves
keep the sandbox's invariants, and the same sequence on the same seed answers the same."""

import os
from decimal import Decimal

from freezegun import freeze_time
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sandbox.app import Settings, create_app
from sandbox.store import Store
from tests.conftest import MerchantClient, make_merchant

EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "30"))
FINAL = {"COMPLETE", "CANCELLED"}
TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

amounts = st.sampled_from(["1", "2.5", "10", "40"])
STEPS = {
    "payment": st.tuples(st.just("payment"), amounts, st.integers(0, 2)),
    "deposit": st.tuples(st.just("deposit"), amounts, st.integers(0, 2), st.integers(0, 20)),
    "withdraw": st.tuples(st.just("withdraw"), amounts, st.booleans(), st.booleans()),
    "approve": st.tuples(st.just("approve"), st.integers(0, 5)),
    "cancel": st.tuples(st.just("cancel"), st.integers(0, 5)),
    "advance": st.tuples(st.just("advance"), st.sampled_from([1, 3, 30, 299, 600, 3600])),
}
# Withdrawals, clock moves and decisions come often, so short runs reach every state.
operations = st.lists(st.sampled_from(["withdraw", "withdraw", "advance", "advance", "approve", "cancel", "cancel",
                                       "deposit", "deposit", "payment"]).flatmap(STEPS.get),
                      min_size=4, max_size=30)


def run(steps) -> tuple[list[bytes], dict]:
    """Apply the steps to a fresh sandbox (seed 1), checking invariants after each;
    the raw response bodies, for comparing runs."""
    with freeze_time("2026-11-21T10:00:00Z"):
        client = create_app(Store(), Settings(seed=1, check_responses=True)).test_client()
        shop = MerchantClient(client, make_merchant(client, autoApproveSeconds=300))
        shop.control("PUT", "/sandbox/clock", {"frozen": True})
        store = client.application.extensions["sandbox"].store
        clients = [shop.post("/v2/deposit-addresses/create", {"assetNetwork": "tron", "assetShort": "USDT",
                                                              "clientId": f"c{n}"}).json["addresses"][0]["address"]
                   for n in range(3)]
        withdrawals, seen_final, bodies = [], {}, []
        for step in steps:
            kind = step[0]
            if kind == "payment":
                response = shop.control("POST", "/sandbox/payments", {
                    "amount": step[1], "assetShort": "USDT", "assetNetwork": "tron", "clientId": f"c{step[2]}",
                    "timeout": 900, "confirmsNeeded": 5})
            elif kind == "deposit":
                response = shop.control("POST", "/sandbox/transactions", {
                    "assetNetwork": "tron", "assetShort": "USDT", "addressTo": clients[step[2]], "amount": step[1],
                    "confirmations": step[3]})
            elif kind == "withdraw":
                direct = {"addressFrom": clients[0], "clientId": "c0", "transferAll": step[3]} if step[2] else {}
                response = shop.post("/v2/withdrawal", {
                    "amount": step[1], "asset": {"short": "USDT", "network": "tron"}, "addressTo": TRON_TO,
                    "destTag": None, "invoice": "i", "customer": {"id": 1, "name": "A", "email": "a@b.co"},
                    **direct})
                if response.status_code == 200:
                    withdrawals.append(response.json["id"])
            elif kind in ("approve", "cancel"):
                if not withdrawals:
                    continue
                target = withdrawals[step[1] % len(withdrawals)]
                response = shop.control("POST", f"/sandbox/withdrawals/{target}/{kind}")
                assert response.status_code in (200, 409), response.json
            else:
                response = shop.control("POST", "/sandbox/clock/advance", {"seconds": step[1]})
            assert response.status_code < 500, response.json
            bodies.append(response.data)
            check_invariants(shop, store, withdrawals, seen_final)
        bodies.append(shop.get("/v2/withdrawal", limit=100).data)
        bodies.append(shop.get("/v2/payment", limit=100).data)
        return bodies, seen_final


def check_invariants(shop, store, withdrawals, seen_final) -> None:
    listed = {w["id"]: w for w in shop.get("/v2/withdrawal", limit=100).json["results"]}
    for withdrawal_id in withdrawals:
        status = listed[withdrawal_id]["status"]
        if withdrawal_id in seen_final:
            assert status == seen_final[withdrawal_id], "a withdrawal left a final state"
        elif status in FINAL:
            seen_final[withdrawal_id] = status
    for wallet in store.all("wallets"):
        assert Decimal(wallet["amount"]) >= 0, "a balance went negative"
    for payment in store.all("payments"):
        confirmed = sum((Decimal(t["amount"]) for t in store.find("transactions", "payment", payment["id"])
                         if t["confirmedAt"]), Decimal(0))
        assert Decimal(payment["totalReceivedAmount"]) == confirmed, "received total is not the confirmed deposits"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
# Sequences that reach every final state, kept whatever the random draw:
@example([("withdraw", "1", False, False), ("advance", 600), ("cancel", 0), ("approve", 0)])
@example([("deposit", "10", 0, 20), ("withdraw", "10", True, True), ("withdraw", "10", True, False),
          ("cancel", 1), ("approve", 0), ("advance", 30), ("deposit", "2.5", 0, 0), ("advance", 3600)])
@example([("payment", "10", 1), ("deposit", "2.5", 1, 0), ("deposit", "10", 1, 20), ("advance", 3)])
def test_invariants_hold_and_runs_repeat(steps):
    first, _ = run(steps)
    second, _ = run(steps)
    assert first == second, "the same sequence on the same seed answered differently"
