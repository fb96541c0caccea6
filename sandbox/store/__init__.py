"""Persistence behind a small repository interface (see `repository.Repository`)."""

from sandbox.store.repository import Repository, Store
from sandbox.store.journal import JournalPersistence, StoreCorrupted, StoreFailed, StoreLocked

__all__ = ["JournalPersistence", "Repository", "Store", "StoreCorrupted", "StoreFailed", "StoreLocked", "open_store"]


def open_store(path: str | None, *, fsync: bool = True, lock_timeout: float = 0) -> Store:
    """A store kept in memory only (`path` None) or persisted at `path`; `lock_timeout`
    is how long to wait for another process to let go of the file."""
    return Store(JournalPersistence(path, fsync=fsync, lock_timeout=lock_timeout) if path else None)
