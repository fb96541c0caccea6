"""Fault injection rules: which calls a fault hits, and what it does to them.

A fault belongs to one merchant and one gateway operation (its operationId). It
hits calls while it is live: until it has fired `times` times (when set) and until
its window on the merchant's clock closes (when set). Of the calls it sees it hits
a `share`, spread evenly and reproducibly (0.25 hits the 4th, 8th, … call), not at
random, so a scenario gives the same answers every run.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from math import floor

ERROR, LATENCY, SCANNER = "error", "latency", "scanner"
KINDS = (ERROR, LATENCY, SCANNER)
OPERATIONS = ("createDepositAddresses", "createWithdrawal", "listWithdrawals", "getPayment", "listPayments",
              "getClientWalletInfo", "estimateNetworkFee")
SCANNER_OPERATION = "estimateNetworkFee"
# The spec's own example of a 500, for the operation it belongs to; "internal error" elsewhere.
DEFAULT_MESSAGES = {"createDepositAddresses": "wallet generation service unavailable"}
DEFAULT_MESSAGE = "internal error"
SCANNER_ERROR = "network scanner unavailable"
MAX_LATENCY_MS = 30_000


@dataclass(frozen=True)
class Hit:
    """What a fault does to the call it hits."""

    kind: str
    status: int | None = None
    message: str | None = None
    latency_ms: int = 0


def is_live(fault: dict, now: datetime, until: datetime | None) -> bool:
    return (fault["times"] is None or fault["fired"] < fault["times"]) and (until is None or now < until)


def hits_next_call(fault: dict) -> bool:
    """Whether the call after the `seen` ones so far is one of the `share` it hits."""
    share = Decimal(fault["share"])
    seen = fault["seen"]
    return floor((seen + 1) * share) > floor(seen * share)


def hit_of(fault: dict) -> Hit:
    if fault["kind"] == ERROR:
        return Hit(ERROR, status=fault["status"], message=fault["message"])
    if fault["kind"] == LATENCY:
        return Hit(LATENCY, latency_ms=fault["latencyMs"])
    return Hit(SCANNER, message=SCANNER_ERROR)


def default_message(operation: str) -> str:
    return DEFAULT_MESSAGES.get(operation, DEFAULT_MESSAGE)
