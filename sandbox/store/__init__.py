"""Persistence behind a small repository interface (see `repository.Repository`)."""

from sandbox.store.repository import Repository, Store
from sandbox.store.journal import JournalPersistence, StoreCorrupted, StoreLocked

__all__ = ["JournalPersistence", "Repository", "Store", "StoreCorrupted", "StoreLocked", "open_store"]


def open_store(path: str | None, *, fsync: bool = True) -> Store:
    """A store kept in memory only (`path` None) or persisted at `path`."""
    return Store(JournalPersistence(path, fsync=fsync) if path else None)
