"""The HTTP edge of webhooks: one POST, with the sandbox's safety rules.

No redirect is followed (a 3xx is a failed attempt, so a delivery can never be sent on
to another host); the response body is read up to a cap; and the whole attempt,
connecting to the last byte read, has one deadline: a receiver that trickles its
answer is given up on when the time is over, like one that never answers. Any
failure, whatever it is, becomes a failed `Outcome`, never an exception.
"""

import http.client
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

RESPONSE_BODY_CAP = 4096  # bytes of the receiver's answer kept


@dataclass(frozen=True)
class Outcome:
    status: int | None  # the receiver's HTTP status; None when there was no answer
    body: str  # the start of its answer
    duration_ms: int
    error: str | None  # why the attempt failed, when it did

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> Outcome:
    """Send, and wait at most `timeout` seconds for the whole exchange. (Durations are
    measured with the monotonic clock: they are lengths of time, not moments.)"""
    started = time.monotonic()
    result: list[Outcome] = []
    exchange = threading.Thread(target=lambda: result.append(_exchange(url, body, headers, timeout, started)),
                                name="webhook-post", daemon=True)
    exchange.start()
    exchange.join(timeout)
    if not result:  # still talking: given up on; the socket timeouts end the thread soon after
        return Outcome(None, "", int((time.monotonic() - started) * 1000), f"no answer within {timeout:g} s")
    return result[0]


def _exchange(url: str, body: bytes, headers: dict[str, str], timeout: float, started: float) -> Outcome:
    def outcome(status=None, text="", error=None) -> Outcome:
        return Outcome(status, text, int((time.monotonic() - started) * 1000), error)

    try:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return outcome(error=f"not an http(s) URL with a host: {url!r}")
        connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection = connection_class(parts.hostname, parts.port, timeout=timeout)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read(RESPONSE_BODY_CAP).decode("utf-8", "replace")
        finally:
            connection.close()
    except TimeoutError:
        return outcome(error=f"no answer within {timeout:g} s")
    except Exception as failure:  # noqa: BLE001 - any failure of the receiver is an outcome, not our crash
        return outcome(error=f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__)
    if 300 <= response.status < 400:
        return outcome(response.status, text, f"redirect to {response.getheader('Location')!r} not followed")
    if not 200 <= response.status < 300:
        return outcome(response.status, text, f"HTTP {response.status}")
    return outcome(response.status, text)
