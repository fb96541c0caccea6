"""The webhook HTTP edge, against real sockets on 127.0.0.1."""

import socket
import threading
import time

import pytest

from sandbox.delivery import post


def trickling_server(pause: float) -> tuple[socket.socket, str]:
    """Answers 200, but sends its headers one line every `pause` seconds."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve():
        connection, _ = listener.accept()
        connection.recv(65536)
        for line in [b"HTTP/1.1 200 OK\r\n", b"X-A: 1\r\n", b"X-B: 2\r\n", b"X-C: 3\r\n", b"X-D: 4\r\n",
                     b"Content-Length: 2\r\n", b"\r\n", b"ok"]:
            try:
                connection.sendall(line)
            except OSError:
                break
            time.sleep(pause)
        connection.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener, f"http://127.0.0.1:{listener.getsockname()[1]}/"


def test_a_trickling_answer_is_given_up_on_at_the_deadline():
    listener, url = trickling_server(pause=0.5)
    with listener:
        outcome = post(url, b"{}", {}, timeout=1)
    assert outcome.status is None and outcome.error == "no answer within 1 s"
    assert outcome.duration_ms < 1500


@pytest.mark.parametrize("url", ["http:///hooks", "http://@/", "http://[::1", "http://127.0.0.1:99999/", "ftp://a/"])
def test_malformed_urls_are_failed_attempts_not_errors(url):
    outcome = post(url, b"{}", {}, timeout=1)
    assert not outcome.delivered and outcome.error
