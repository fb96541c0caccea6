"""The repository: every table in memory with its indexes, changed in transactions.

All state lives in memory, so a read or a write costs the same at 100 records as
at 100,000; a persistence adapter (see journal.py) makes committed transactions
durable. One process owns a store; threads inside it are serialised by one
re-entrant lock, which a service holds for the whole of its read-modify-write.
Documents handed out are the stored objects: callers never mutate them, they
`put` a new document instead.
"""

import logging
import os
import threading
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import Iterator, Protocol

from sortedcontainers import SortedList

from sandbox.store.journal import StoreCorrupted
from sandbox.store.schema import TABLES
from sandbox.store.text_index import TextIndex

log = logging.getLogger(__name__)

Change = tuple[str, str, dict | None]  # (table, key, new document or None when deleted)


# The journal is folded into a new snapshot once it holds this many transactions and
# at least as many as the store holds documents (amortised O(1) per write). The
# environment variable lets tests fold often.
MIN_JOURNAL_BEFORE_COMPACTION = int(os.environ.get("SANDBOX_COMPACT_AFTER", "10000"))


class Persistence(Protocol):
    journal_length: int

    def load(self) -> tuple[dict[str, list[dict]], list[Change]]: ...
    def append(self, changes: list[Change]) -> None: ...
    def compact(self, tables: dict[str, list[dict]]) -> None: ...
    def close(self) -> None: ...


class Repository(ABC):
    """What services may ask of storage."""

    @abstractmethod
    def transaction(self):
        """A context in which reads and writes are isolated from other threads and
        committed all together, or not at all when the block raises."""

    @abstractmethod
    def get(self, table: str, key: str) -> dict | None: ...

    @abstractmethod
    def find(self, table: str, index: str, value) -> list[dict]:
        """Documents whose index key equals `value`, in the table's order."""

    @abstractmethod
    def find_page(self, table: str, index: str, value, start: int, stop: int, *, newest_first: bool = False
                  ) -> list[dict]:
        """`find(...)[start:stop]` (of the reversed order when `newest_first`), without
        reading the rest of the bucket."""

    @abstractmethod
    def search(self, table: str, scope, term: str) -> set[str]:
        """Keys of the documents within `scope` whose searchable text contains `term`."""

    @abstractmethod
    def count(self, table: str, index: str, value) -> int: ...

    @abstractmethod
    def count_all(self, table: str) -> int: ...

    @abstractmethod
    def all(self, table: str) -> list[dict]: ...

    @abstractmethod
    def put(self, table: str, document: dict) -> None:
        """Insert or replace; must be called inside a transaction."""

    @abstractmethod
    def delete(self, table: str, key: str) -> None:
        """Remove if present; must be called inside a transaction."""


class Store(Repository):
    def __init__(self, persistence: Persistence | None = None):
        self._persistence = persistence
        self._lock = threading.RLock()
        self._pending: list[tuple[str, str, dict | None]] | None = None  # (table, key, previous document)
        self._docs: dict[str, dict[str, dict]] = {name: {} for name in TABLES}
        # index key -> bucket of (order, document key), kept sorted
        self._indexes: dict[str, dict[str, dict[object, SortedList]]] = {
            name: {index: {} for index in table.indexes} for name, table in TABLES.items()
        }
        self._texts = {name: TextIndex() for name, table in TABLES.items() if table.text}
        if persistence:
            snapshot, changes = persistence.load()
            try:
                for table, documents in snapshot.items():
                    if table in TABLES:
                        for document in documents:
                            self._apply(table, TABLES[table].key(document), document)
                for table, key, document in changes:
                    if table in TABLES:
                        self._apply(table, key, document)
            except (KeyError, TypeError, AttributeError, ValueError) as error:
                persistence.close()
                raise StoreCorrupted(f"the data does not have the shape this version expects: {error!r}") from None
            if persistence.journal_length:
                self.compact()

    # -- transactions -------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._pending is not None:  # nested: part of the enclosing transaction
                yield
                return
            self._pending = []
            try:
                yield
                if self._pending and self._persistence:
                    self._persistence.append([(table, key, self._docs[table].get(key))
                                              for table, key, _ in self._pending])
            except BaseException:
                for table, key, previous in reversed(self._pending):
                    self._apply(table, key, previous)
                raise
            finally:
                self._pending = None
            if self._persistence and self._persistence.journal_length >= max(MIN_JOURNAL_BEFORE_COMPACTION,
                                                                                 self.size()):
                self._compact_committed()

    def _compact_committed(self) -> None:
        """Fold the journal after a commit; a failure here loses nothing (the journal
        still holds every change), so it is logged, not raised to the request."""
        try:
            self.compact()
        except OSError:
            log.exception("could not fold the journal into a new snapshot; will retry")

    # -- reads --------------------------------------------------------------------

    def get(self, table: str, key: str) -> dict | None:
        return self._docs[table].get(key)

    def find(self, table: str, index: str, value) -> list[dict]:
        with self._lock:
            docs = self._docs[table]
            return [docs[key] for _, key in self._indexes[table][index].get(value, ())]

    def find_page(self, table: str, index: str, value, start: int, stop: int, *, newest_first: bool = False
                  ) -> list[dict]:
        with self._lock:
            bucket = self._indexes[table][index].get(value)
            if not bucket:
                return []
            size = len(bucket)
            if newest_first:
                start, stop = max(size - stop, 0), max(size - start, 0)
            entries = bucket[start:stop]
            docs = self._docs[table]
            return [docs[key] for _, key in (reversed(entries) if newest_first else entries)]

    def search(self, table: str, scope, term: str) -> set[str]:
        with self._lock:
            return self._texts[table].search(scope, term)

    def count(self, table: str, index: str, value) -> int:
        with self._lock:
            return len(self._indexes[table][index].get(value, ()))

    def count_all(self, table: str) -> int:
        return len(self._docs[table])

    def all(self, table: str) -> list[dict]:
        with self._lock:
            return list(self._docs[table].values())

    def size(self) -> int:
        return sum(len(docs) for docs in self._docs.values())

    # -- writes -------------------------------------------------------------------

    def put(self, table: str, document: dict) -> None:
        if self._pending is None:
            raise RuntimeError("Store.put outside a transaction")
        key = TABLES[table].key(document)
        self._pending.append((table, key, self._docs[table].get(key)))
        self._apply(table, key, document)

    def delete(self, table: str, key: str) -> None:
        if self._pending is None:
            raise RuntimeError("Store.delete outside a transaction")
        previous = self._docs[table].get(key)
        if previous is not None:
            self._pending.append((table, key, previous))
            self._apply(table, key, None)

    def _apply(self, table: str, key: str, document: dict | None) -> None:
        """Set (or delete, for None) one document and keep its indexes in step."""
        schema = TABLES[table]
        previous = self._docs[table].get(key)
        old_entry = (schema.order(previous), key) if previous is not None else None
        new_entry = (schema.order(document), key) if document is not None else None
        for name, index_key in schema.indexes.items():
            old = index_key(previous) if previous is not None else None
            new = index_key(document) if document is not None else None
            if old == new and old_entry == new_entry:
                continue
            buckets = self._indexes[table][name]
            if old is not None:
                bucket = buckets[old]
                bucket.remove(old_entry)
                if not bucket:
                    del buckets[old]
            if new is not None:
                buckets.setdefault(new, SortedList()).add(new_entry)
        if schema.text:
            self._texts[table].put(key, *(schema.text(document) if document is not None else (None, None)))
        if document is None:
            self._docs[table].pop(key, None)
        else:
            self._docs[table][key] = document

    # -- lifecycle ----------------------------------------------------------------

    def compact(self) -> None:
        if self._persistence:
            with self._lock:
                self._persistence.compact({name: list(docs.values()) for name, docs in self._docs.items()})

    def close(self) -> None:
        if self._persistence:
            with self._lock:
                self.compact()
                self._persistence.close()
