"""Serving the app with gunicorn: one process (the store's only writer), many threads."""

from gunicorn.app.base import BaseApplication

from sandbox.store import Store


class SandboxServer(BaseApplication):
    """gunicorn with one gthread worker: threads share the in-memory store, and the
    store's lock serialises its writes. More processes would mean more writers."""

    def __init__(self, app, store: Store, *, host: str, port: int, threads: int, quiet: bool = False):
        self.application = app
        self.store = store
        self.options = {
            "bind": f"{host}:{port}",
            "workers": 1,
            "worker_class": "gthread",
            "threads": threads,
            "accesslog": None if quiet else "-",
            "graceful_timeout": 10,
            "worker_exit": self._worker_exit,
        }
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application

    def _worker_exit(self, server, worker):
        """Fold the journal into the snapshot on a clean shutdown."""
        self.store.close()
