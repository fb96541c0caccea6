"""Serving the app with gunicorn: one process (the store's only writer), many threads,
and a ticker that applies due transitions for clocks that follow real time."""

import logging
import threading
from typing import Callable

from flask import Flask
from gunicorn.app.base import BaseApplication

from sandbox.services import engine

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
            "worker_exit": self._worker_exit,
        }
        self.app = None
        self.ticker = None
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        self.app = self.make_app()
        self.ticker = Ticker(self.app.extensions["sandbox"])
        self.ticker.start()
        return self.app

    def _worker_exit(self, server, worker):
        """Stop the ticker and fold the journal into the snapshot on a clean shutdown."""
        if self.ticker is not None:
            self.ticker.stopping.set()
            self.ticker.join(timeout=5)
        if self.app is not None:
            self.app.extensions["sandbox"].store.close()
