"""Per-merchant clocks: read, advance, set, freeze; never backwards; each merchant its own."""

import pytest
from freezegun import freeze_time

WALL = "2026-11-21T10:00:00Z"


def clock(shop):
    return shop.control("GET", "/sandbox/clock").json


@freeze_time(WALL)
def test_a_new_clock_follows_real_time(shop):
    assert clock(shop) == {"now": "2026-11-21T10:00:00.000000Z", "frozen": False}


def test_advance_moves_a_running_clock_and_it_keeps_running(shop):
    with freeze_time(WALL) as wall:
        assert shop.control("POST", "/sandbox/clock/advance", {"seconds": 3600}).json == {
            "now": "2026-11-21T11:00:00.000000Z", "frozen": False}
        wall.tick(30)
        assert clock(shop)["now"] == "2026-11-21T11:00:30.000000Z"


def test_a_frozen_clock_stands_still_until_moved_or_released(shop):
    with freeze_time(WALL) as wall:
        assert shop.control("PUT", "/sandbox/clock", {"frozen": True}).json["frozen"] is True
        wall.tick(120)
        assert clock(shop)["now"] == "2026-11-21T10:00:00.000000Z"
        assert shop.control("POST", "/sandbox/clock/advance", {"seconds": 1.5}).json["now"] == \
            "2026-11-21T10:00:01.500000Z"
        shop.control("PUT", "/sandbox/clock", {"frozen": False})
        wall.tick(10)
        assert clock(shop) == {"now": "2026-11-21T10:00:11.500000Z", "frozen": False}


def test_set_jumps_forward_and_never_back(shop):
    with freeze_time(WALL):
        moved = shop.control("PUT", "/sandbox/clock", {"now": "2027-01-01T00:00:00+02:00"})
        assert moved.json == {"now": "2026-12-31T22:00:00.000000Z", "frozen": False}
        back = shop.control("PUT", "/sandbox/clock", {"now": "2026-12-01T00:00:00Z"})
        assert back.status_code == 400 and back.json == {"error": "the clock cannot move backwards"}
        negative = shop.control("POST", "/sandbox/clock/advance", {"seconds": -1})
        assert negative.status_code == 400


@pytest.mark.parametrize("body, message", [
    ({}, "seconds is required"), ({"seconds": "soon"}, "seconds"), ({"seconds": 10 ** 12}, "seconds"),
])
def test_advance_validation(shop, body, message):
    response = shop.control("POST", "/sandbox/clock/advance", body)
    assert response.status_code == 400 and response.json["error"].startswith(message)


def test_a_time_without_zone_is_refused(shop):
    assert shop.control("PUT", "/sandbox/clock", {"now": "2030-01-01T00:00:00"}).status_code == 400


def test_merchants_have_their_own_clocks(shop, other_shop):
    with freeze_time(WALL):
        shop.control("POST", "/sandbox/clock/advance", {"seconds": 86400})
        assert clock(shop)["now"] == "2026-11-22T10:00:00.000000Z"
        assert clock(other_shop)["now"] == "2026-11-21T10:00:00.000000Z"


def test_timestamps_come_from_the_merchants_clock(shop):
    with freeze_time(WALL):
        shop.control("PUT", "/sandbox/clock", {"now": "2030-05-05T05:05:05Z", "frozen": True})
        payment = shop.control("POST", "/sandbox/payments", {"amount": "1", "assetShort": "USDT",
                                                             "assetNetwork": "tron"}).json["data"]
        assert payment["createdAt"] == "2030-05-05T05:05:05.000000Z"


def test_a_clock_goes_at_most_100_years_ahead(shop):
    with freeze_time(WALL):
        response = shop.control("PUT", "/sandbox/clock", {"now": "9999-12-31T23:59:59Z", "frozen": True})
        assert response.status_code == 400 and response.json == {
            "error": "the clock cannot run more than 100 years ahead"}
        assert shop.control("PUT", "/sandbox/clock", {"now": "2120-01-01T00:00:00Z"}).status_code == 200
        assert shop.control("POST", "/sandbox/clock/advance", {"seconds": 10 * 366 * 24 * 3600}).status_code == 400


def test_null_clock_fields_count_as_absent(shop):
    assert shop.control("PUT", "/sandbox/clock", {"now": None, "frozen": None}).status_code == 200


def test_one_merchants_broken_transitions_never_stop_the_others(shop, other_shop, ctx, monkeypatch):
    from sandbox.services import engine

    other_shop.control("PATCH", "/sandbox/merchants/me", {"autoApproveSeconds": 0})
    created = other_shop.post("/v2/withdrawal", {
        "amount": "1", "asset": {"short": "USDT", "network": "tron"}, "destTag": None, "invoice": "i",
        "addressTo": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "customer": {"id": 1, "name": "A", "email": "a@b.co"}}).json
    broken = shop.merchant["id"]
    real = engine.catch_up
    monkeypatch.setattr(engine, "catch_up", lambda c, merchant_id: 1 / 0 if merchant_id == broken else real(c, merchant_id))
    assert engine.catch_up_all(ctx) >= 1  # the first merchant failed; the other's approval still happened
    assert ctx.store.get("withdrawals", created["id"])["status"] == "APPROVED"
