"""Serving the app with gunicorn: one process (the store's only writer), many threads."""

from typing import Callable

from flask import Flask
from gunicorn.app.base import BaseApplication


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
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        self.app = self.make_app()
        return self.app

    def _worker_exit(self, server, worker):
        """Fold the journal into the snapshot on a clean shutdown."""
        if self.app is not None:
            self.app.extensions["sandbox"].store.close()
