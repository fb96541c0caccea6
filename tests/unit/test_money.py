from decimal import Decimal

import pytest

from sandbox.domain.money import convert, decimal_places, format_amount, parse_amount


@pytest.mark.parametrize("text, value", [("0", Decimal(0)), ("10.5", Decimal("10.5")), ("0.00000001", Decimal("1e-8")),
                                         ("007.10", Decimal("7.1"))])
def test_parse_amount_accepts_plain_decimal_strings(text, value):
    assert parse_amount(text) == value


@pytest.mark.parametrize("text", ["", "1e5", "-1", "+1", " 1", "1.", ".5", "1,5", "NaN", "Infinity", "1" * 31, None, 5])
def test_parse_amount_rejects_everything_else(text):
    assert parse_amount(text) is None


@pytest.mark.parametrize("value, text", [(Decimal("0"), "0"), (Decimal("0E-8"), "0"), (Decimal("10.500"), "10.5"),
                                         (Decimal("1E+3"), "1000"), (Decimal("0.00000001"), "0.00000001"),
                                         (Decimal("123456789012345678901234567890"), "123456789012345678901234567890")])
def test_format_amount_is_canonical(value, text):
    assert format_amount(value) == text


def test_decimal_places_ignores_trailing_zeros():
    assert decimal_places(Decimal("1.2300")) == 2
    assert decimal_places(Decimal("100")) == 0


def test_convert_truncates_by_default_and_never_overflows():
    assert convert(Decimal("1.23456789"), Decimal(1), 6) == Decimal("1.234567")
    assert convert(Decimal("2"), Decimal("3"), 8, divide=True) == Decimal("0.66666666")
    huge, tiny = Decimal("9" * 30 + "." + "9" * 18), Decimal("0.000000000000000001")
    assert convert(huge, tiny, 18, divide=True) > 0
    assert convert(huge, huge, 8) > 0
