"""Faults a merchant injects into its own gateway calls to rehearse the gateway's
failures: errors, latency, a network scanner that is down. Stored with the
merchant's state, so a snapshot keeps them and no other merchant ever meets them."""

from datetime import timedelta

from sandbox.clock import from_iso, to_iso
from sandbox.domain import faults as rules
from sandbox.domain.assets import normalise_network, require_network
from sandbox.domain.errors import InvalidRequest, NotFound
from sandbox.domain.seed import derive_uuid
from sandbox.services import Context, clocks, next_number, snapshots

# Each live fault is looked at on every call of its operation, under the store's lock.
MAX_FAULTS_PER_MERCHANT = 50


def add_fault(ctx: Context, merchant: dict, request: dict) -> dict:
    """A new fault, live from now. `request` is the validated body of POST /sandbox/faults."""
    kind = request["kind"]
    operation = request.get("operation")
    network = None
    if kind == rules.SCANNER:
        if request.get("network") is None:
            raise InvalidRequest("network is required for a scanner fault")
        network = require_network(normalise_network(request["network"])).name
        if operation not in (None, rules.SCANNER_OPERATION):
            raise InvalidRequest(f"a scanner fault acts on {rules.SCANNER_OPERATION} only")
        operation = rules.SCANNER_OPERATION
    elif operation is None:
        raise InvalidRequest(f"operation is required for an {kind} fault")
    if kind == rules.LATENCY and request.get("latencyMs") is None:
        raise InvalidRequest("latencyMs is required for a latency fault")
    with ctx.store.transaction():
        now = clocks.now(ctx, merchant["id"])
        if ctx.store.count("faults", "merchant", merchant["id"]) >= MAX_FAULTS_PER_MERCHANT:
            raise InvalidRequest(f"a merchant has at most {MAX_FAULTS_PER_MERCHANT} faults; delete some first")
        sequence = next_number(ctx, "fault-sequence", merchant["id"])  # a deleted fault's id is never reused
        fault = {
            "id": derive_uuid(ctx.seed, "fault", merchant["id"], *snapshots.restores(ctx, merchant["id"]), sequence),
            "merchantId": merchant["id"],
            "seq": sequence,
            "kind": kind,
            "operation": operation,
            "network": network,
            "status": (request.get("status") or 500) if kind == rules.ERROR else None,
            "message": (request.get("message") or rules.default_message(operation)) if kind == rules.ERROR else None,
            "latencyMs": request.get("latencyMs") if kind == rules.LATENCY else None,
            "times": request.get("times"),
            "share": str(request.get("share") or 1),
            "until": to_iso(now + timedelta(seconds=request["forSeconds"])) if request.get("forSeconds") else None,
            "seen": 0,
            "fired": 0,
            "createdAt": to_iso(now),
        }
        ctx.store.put("faults", fault)
        return fault_object(fault, now)


def list_faults(ctx: Context, merchant: dict) -> list[dict]:
    """Every fault of the merchant, oldest first, spent ones included."""
    with ctx.store.transaction():
        now = clocks.now(ctx, merchant["id"])
        return [fault_object(f, now) for f in ctx.store.find("faults", "merchant", merchant["id"])]


def clear_faults(ctx: Context, merchant: dict, fault_id: str | None = None) -> None:
    """Remove one fault, or all of the merchant's."""
    with ctx.store.transaction():
        if fault_id is None:
            for fault in ctx.store.find("faults", "merchant", merchant["id"]):
                ctx.store.delete("faults", fault["id"])
            return
        fault = ctx.store.get("faults", fault_id)
        if fault is None or fault["merchantId"] != merchant["id"]:
            raise NotFound("fault not found")
        ctx.store.delete("faults", fault_id)


def hits(ctx: Context, merchant: dict, operation: str, *, network: str | None = None) -> list[rules.Hit]:
    """What the live faults of this operation (a scanner's: of this network) do to
    this call; each one that sees the call counts it."""
    scanner = network is not None
    found = []
    with ctx.store.transaction():
        now = clocks.now(ctx, merchant["id"])
        for fault in ctx.store.find("faults", "merchant", merchant["id"]):
            if fault["operation"] != operation or (fault["kind"] == rules.SCANNER) != scanner \
                    or (scanner and fault["network"] != network):
                continue
            until = from_iso(fault["until"]) if fault["until"] else None
            if not rules.is_live(fault, now, until):
                continue
            fires = rules.hits_next_call(fault)
            ctx.store.put("faults", {**fault, "seen": fault["seen"] + 1, "fired": fault["fired"] + fires})
            if fires:
                found.append(rules.hit_of(fault))
    return found


def fault_object(fault: dict, now) -> dict:
    until = from_iso(fault["until"]) if fault["until"] else None
    return {
        "id": fault["id"], "kind": fault["kind"], "operation": fault["operation"], "network": fault["network"],
        "status": fault["status"], "message": fault["message"], "latencyMs": fault["latencyMs"],
        "times": fault["times"], "share": fault["share"], "until": fault["until"],
        "seen": fault["seen"], "fired": fault["fired"],
        "remaining": None if fault["times"] is None else max(0, fault["times"] - fault["fired"]),
        "live": rules.is_live(fault, now, until), "createdAt": fault["createdAt"],
    }
