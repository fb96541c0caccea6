"""Durable persistence: a TinyDB snapshot plus an append-only journal of transactions.

Stock TinyDB rewrites its whole JSON file on every write, so a write costs O(n).
Here a committed transaction is one JSON line appended to `<path>.journal` (and
fsynced), which costs the same whatever the size of the store. The store folds
the journal into the TinyDB file (`<path>`, readable with plain TinyDB) at
start-up, at shutdown, and whenever the journal has grown as large as the store,
so folding stays amortised O(1) per write.

Crash safety: a snapshot is written to a temporary file, fsynced and renamed
over the old one, so it is always whole; journal entries carry whole documents,
so replaying entries the snapshot already holds changes nothing; a line torn by
a crash can only be the last one, and it is dropped (its transaction was never
acknowledged).
"""

import fcntl
import json
import os

from tinydb import TinyDB
from tinydb.storages import JSONStorage


class StoreCorrupted(Exception):
    """The data files cannot be read; the message says which and where."""


class StoreLocked(Exception):
    """Another process has the data file open: two writers would corrupt it."""


class JournalPersistence:
    def __init__(self, path: str, *, fsync: bool = True):
        self.path = os.path.abspath(path)
        self.journal_path = self.path + ".journal"
        self.fsync = fsync
        self.journal_length = 0  # transactions in the journal since the last snapshot
        self._journal = None

    def load(self) -> tuple[dict[str, list[dict]], list[tuple[str, str, dict | None]]]:
        """The snapshot's documents per table, and the journal's changes to replay over them."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._lock_file = open(self.path + ".lock", "a+")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock_file.close()
            raise StoreLocked(f"{self.path} is in use by another process (a running sandbox?)") from None
        snapshot = self._read_snapshot()
        changes = self._read_journal()
        self._journal = open(self.journal_path, "ab")
        return snapshot, changes

    def _read_snapshot(self) -> dict[str, list[dict]]:
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return {}
        try:
            with TinyDB(self.path, storage=JSONStorage, access_mode="r", encoding="utf-8") as db:
                return {name: list(db.table(name).all()) for name in db.tables()}
        except (ValueError, OSError) as error:
            raise StoreCorrupted(f"{self.path} is not a readable TinyDB file: {error}") from error

    def _read_journal(self) -> list[tuple[str, str, dict | None]]:
        """The changes of every whole line; a torn last line is cut off the file."""
        if not os.path.exists(self.journal_path):
            return []
        with open(self.journal_path, "rb") as journal:
            lines = journal.readlines()
        changes, good_end = [], 0
        for number, line in enumerate(lines, start=1):
            try:
                if not line.endswith(b"\n"):
                    raise ValueError("torn line")
                entry = json.loads(line)
            except ValueError:
                if number == len(lines):  # the transaction being written when the process died
                    with open(self.journal_path, "r+b") as journal:
                        journal.truncate(good_end)
                    break
                raise StoreCorrupted(f"{self.journal_path}: line {number} is damaged") from None
            good_end += len(line)
            self.journal_length += 1
            changes.extend((table, key, document) for table, key, document in entry)
        return changes

    def append(self, changes: list[tuple[str, str, dict | None]]) -> None:
        line = json.dumps(changes, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        self._journal.write(line)
        self._journal.flush()
        if self.fsync:
            os.fsync(self._journal.fileno())
        self.journal_length += 1

    def compact(self, tables: dict[str, list[dict]]) -> None:
        """Write `tables` as the new TinyDB snapshot, then empty the journal."""
        temporary = self.path + ".tmp"
        if os.path.exists(temporary):  # left by a crash during an earlier compaction
            os.remove(temporary)
        storage = JSONStorage(temporary, encoding="utf-8", ensure_ascii=False)  # TinyDB's write() flushes and fsyncs
        try:
            storage.write({name: {str(number): document for number, document in enumerate(documents, start=1)}
                           for name, documents in tables.items() if documents})
        finally:
            storage.close()
        os.replace(temporary, self.path)
        _fsync_path(os.path.dirname(self.path))
        self._journal.truncate(0)
        self._journal.seek(0)
        self.journal_length = 0

    def close(self) -> None:
        if self._journal:
            self._journal.close()
            self._journal = None
            self._lock_file.close()  # releases the lock


def _fsync_path(path: str) -> None:
    """fsync a directory, so a rename in it survives a power cut."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
