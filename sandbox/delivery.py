"""The HTTP edge of webhooks: one POST, with the sandbox's safety rules.

No redirect is followed (a 3xx is a failed attempt, so a delivery can never be sent on
to another host), the response body is read up to a cap, and connecting and reading
both time out. stdlib http.client: it lets all three be exact.
"""

import http.client
import socket
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
    started = time.monotonic()

    def outcome(status=None, text="", error=None) -> Outcome:
        return Outcome(status, text, int((time.monotonic() - started) * 1000), error)

    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection = connection_class(parts.hostname, parts.port, timeout=timeout)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read(RESPONSE_BODY_CAP).decode("utf-8", "replace")
        finally:
            connection.close()
    except socket.timeout:
        return outcome(error=f"no answer within {timeout:g} s")
    except (OSError, http.client.HTTPException, ValueError) as failure:
        return outcome(error=f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__)
    if 300 <= response.status < 400:
        return outcome(response.status, text, f"redirect to {response.getheader('Location')!r} not followed")
    if not 200 <= response.status < 300:
        return outcome(response.status, text, f"HTTP {response.status}")
    return outcome(response.status, text)
