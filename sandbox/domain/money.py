"""Decimal amounts: parsed from and rendered to decimal strings, never through float."""

import decimal
import re
from decimal import ROUND_DOWN, Decimal

# 30 integer digits and 18 decimals must add up exactly: widen Python's default 28
# significant digits, for this thread and every thread started later.
decimal.DefaultContext.prec = decimal.getcontext().prec = 60
# Products and quotients of such amounts (prices, fees) need room for both factors.
CONVERSION_PRECISION = 200

# Digits, an optional fraction; no sign, exponent or spaces. 30 integer digits is
# far above any real supply and keeps absurd inputs out of the arithmetic.
AMOUNT_PATTERN = r"^[0-9]{1,30}(\.[0-9]{1,18})?$"
_AMOUNT_RE = re.compile(AMOUNT_PATTERN)

ZERO = Decimal(0)


def parse_amount(text: str) -> Decimal | None:
    """The Decimal a plain decimal string denotes, or None when it is not one."""
    if not isinstance(text, str) or not _AMOUNT_RE.match(text):
        return None
    return Decimal(text)


def decimal_places(value: Decimal) -> int:
    """Significant decimal places: trailing zeros do not count."""
    text = format_amount(value)
    return len(text) - text.index(".") - 1 if "." in text else 0


def format_amount(value: Decimal) -> str:
    """Canonical rendering: no exponent, no trailing zeros, `0` for zero."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") or value == 0 else text


def convert(amount: Decimal, factor: Decimal, places: int, *, divide: bool = False, rounding=ROUND_DOWN) -> Decimal:
    """`amount` times (or divided by) `factor`, rounded to `places` decimals: computed
    with room for any two amounts the sandbox accepts, so it never overflows."""
    with decimal.localcontext(prec=CONVERSION_PRECISION):
        result = amount / factor if divide else amount * factor
        return result.quantize(Decimal(1).scaleb(-places), rounding=rounding)
