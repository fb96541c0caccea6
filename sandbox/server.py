"""Serving the app with gunicorn: one process (the store's only writer), many threads,
and a ticker that applies due transitions for clocks that follow real time."""

import itertools
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from flask import Flask
from gunicorn.app.base import BaseApplication

from sandbox.services import engine, webhooks

log = logging.getLogger(__name__)
TICK_SECONDS = 1.0


class Ticker(threading.Thread):
    """Applies every merchant's due transitions once a second, so that a withdrawal
    approves on time even when nobody asks about it (requests catch up on their own)."""

    def __init__(self, ctx):
        super().__init__(name="sandbox-ticker", daemon=True)
        self.ctx = ctx
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(TICK_SECONDS):
            try:
                engine.catch_up_all(self.ctx)
            except Exception:  # a bad tick must not stop the next ones
                log.exception("ticker: applying due transitions failed")


class Dispatcher(threading.Thread):
    """Sends due webhook deliveries, off the request path. Each merchant's deliveries go
    one after another (their order matters); merchants go in parallel, so a slow or
    failing endpoint holds up only its own merchant."""

    POLL_SECONDS = 0.2

    # Threads are started as merchants need them: enough that a few merchants with slow
    # endpoints never keep the others waiting (an attempt lasts at most the timeout).
    def __init__(self, ctx, timeout: float, workers: int = 64):
        super().__init__(name="sandbox-webhooks", daemon=True)
        self.ctx = ctx
        self.timeout = timeout
        self.stopping = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sandbox-webhook")
        self._busy: set[int] = set()
        self._lock = threading.Lock()

    def run(self) -> None:
        while not self.stopping.wait(self.POLL_SECONDS):
            try:
                due = webhooks.due(self.ctx)
            except Exception:
                log.exception("webhooks: reading the outbox failed")
                continue
            for merchant_id, batch in itertools.groupby(due, key=lambda d: d["merchantId"]):
                with self._lock:
                    if merchant_id in self._busy:
                        continue
                    self._busy.add(merchant_id)
                self._pool.submit(self._send, merchant_id, [d["id"] for d in batch])
        self._pool.shutdown(wait=False, cancel_futures=True)  # attempts under way end within the timeout

    def _send(self, merchant_id: int, delivery_ids: list[str]) -> None:
        try:
            for delivery_id in delivery_ids:
                if self.stopping.is_set():
                    return  # the rest stays in the outbox for the next start
                try:
                    webhooks.attempt(self.ctx, delivery_id, self.timeout)
                except Exception:
                    log.exception("webhooks: attempting delivery %s failed", delivery_id)
        finally:
            with self._lock:
                self._busy.discard(merchant_id)


class SandboxServer(BaseApplication):
    """gunicorn with one gthread worker: threads share the in-memory store, and the
    store's lock serialises its writes; more processes would mean more writers.

    The worker builds the app itself (`make_app`), so a worker that gunicorn
    replaces starts from what is on disk, never from a copy of its parent's memory.
    """

    def __init__(self, make_app: Callable[[], Flask], *, host: str, port: int, threads: int, quiet: bool = False):
        self.make_app = make_app
        self.options = {
            "bind": f"{host}:{port}",
            "workers": 1,
            "worker_class": "gthread",
            "threads": threads,
            "accesslog": None if quiet else "-",
            "graceful_timeout": 10,
            # List filters (ids, invoices, txnIds) can make long URLs; gunicorn's default
            # cap (4094 bytes) would answer 414, a status the gateway never documents.
            "limit_request_line": 0,
            "worker_exit": self._worker_exit,
        }
        self.app = None
        self.workers: list = []
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        self.app = self.make_app()
        ctx = self.app.extensions["sandbox"]
        self.workers = [Ticker(ctx), Dispatcher(ctx, self.app.config["SANDBOX_WEBHOOK_TIMEOUT"])]
        for background in self.workers:
            background.start()
        return self.app

    def _worker_exit(self, server, worker):
        """Stop the background threads and fold the journal into the snapshot."""
        for background in self.workers:
            background.stopping.set()
        for background in self.workers:
            background.join(timeout=4)  # within gunicorn's graceful timeout, so the journal gets folded
        if self.app is not None:
            self.app.extensions["sandbox"].store.close()
