"""Durable persistence: a TinyDB snapshot plus an append-only journal of transactions.

Stock TinyDB rewrites its whole JSON file on every write, so a write costs O(n).
Here a committed transaction is one JSON line appended to `<path>.journal` (and
fsynced), which costs the same whatever the size of the store. The store folds
the journal into the TinyDB file (`<path>`, readable with plain TinyDB) at
start-up, at shutdown, and whenever the journal has grown past a threshold, so
folding stays amortised O(1) per write.

Crash safety: a snapshot is written to a temporary file, fsynced and renamed
over the old one, so it is always whole; journal entries carry whole documents,
so replaying entries the snapshot already holds changes nothing. A line is
written unbuffered from a known offset; when writing or syncing it fails, the
file is cut back to that offset, so a failed transaction never comes back and
never damages the lines after it. Only a crash can leave a torn line, and only
as the last one: it is dropped (its transaction was never acknowledged).
"""

import fcntl
import json
import os
import time

from tinydb.storages import JSONStorage

LOCK_POLL_SECONDS = 0.1


class StoreCorrupted(Exception):
    """The data files cannot be read; the message says which and where."""


class StoreLocked(Exception):
    """Another process has the data file open: two writers would corrupt it."""


class StoreFailed(OSError):
    """A failed write could not be undone; the store refuses writes until restarted."""


class JournalPersistence:
    def __init__(self, path: str, *, fsync: bool = True, lock_timeout: float = 0):
        self.path = os.path.abspath(path)
        self.journal_path = self.path + ".journal"
        self.fsync = fsync
        self.lock_timeout = lock_timeout
        self.journal_length = 0  # transactions in the journal since the last snapshot
        self._fd: int | None = None
        self._end = 0  # length of the journal's whole lines
        self._failed = False

    def load(self) -> tuple[dict[str, list[dict]], list[tuple[str, str, dict | None]]]:
        """The snapshot's documents per table, and the journal's changes to replay over them."""
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._lock()
        snapshot = self._read_snapshot()
        changes = self._read_journal()
        self._fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        return snapshot, changes

    def _lock(self) -> None:
        """Hold `<path>.lock` while open; wait up to `lock_timeout` for a process that is leaving."""
        self._lock_file = open(self.path + ".lock", "a+")
        deadline = time.monotonic() + self.lock_timeout
        while True:
            try:
                fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self._lock_file.close()
                    raise StoreLocked(f"{self.path} is in use by another process (a running sandbox?)") from None
                time.sleep(LOCK_POLL_SECONDS)

    def _read_snapshot(self) -> dict[str, list[dict]]:
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return {}
        storage = JSONStorage(self.path, access_mode="r", encoding="utf-8")
        try:
            data = storage.read()
        except (ValueError, OSError) as error:
            raise StoreCorrupted(f"{self.path} is not a readable TinyDB file: {error}") from error
        finally:
            storage.close()
        if not isinstance(data, dict) or not all(isinstance(table, dict) for table in data.values()):
            raise StoreCorrupted(f"{self.path} is not a TinyDB database (tables of documents)")
        return {name: list(table.values()) for name, table in data.items()}

    def _read_journal(self) -> list[tuple[str, str, dict | None]]:
        """The changes of every whole line; a torn last line is cut off the file."""
        if not os.path.exists(self.journal_path):
            return []
        with open(self.journal_path, "rb") as journal:
            lines = journal.readlines()
        changes = []
        for number, line in enumerate(lines, start=1):
            try:
                if not line.endswith(b"\n"):
                    raise ValueError("torn line")
                entry = json.loads(line)
                changes.extend((table, key, document) for table, key, document in entry)
            except (ValueError, TypeError):
                if number == len(lines):  # the transaction being written when the process died
                    with open(self.journal_path, "r+b") as journal:
                        journal.truncate(self._end)
                    break
                raise StoreCorrupted(f"{self.journal_path}: line {number} is damaged") from None
            self._end += len(line)
            self.journal_length += 1
        return changes

    def append(self, changes: list[tuple[str, str, dict | None]]) -> None:
        """Write one transaction durably, or raise and leave the journal as it was."""
        if self._failed:
            raise StoreFailed("the journal could not be repaired after a failed write; restart the sandbox")
        if self._fd is None:
            raise StoreFailed("the store is closed")
        line = json.dumps(changes, separators=(",", ":")).encode() + b"\n"
        try:
            written = 0
            while written < len(line):
                written += os.write(self._fd, line[written:])
            if self.fsync:
                os.fsync(self._fd)
        except OSError:
            self._cut_back()
            raise
        self._end += len(line)
        self.journal_length += 1

    def _cut_back(self) -> None:
        """Remove what a failed append wrote; if even that fails, refuse further writes."""
        try:
            os.ftruncate(self._fd, self._end)
            if self.fsync:
                os.fsync(self._fd)
        except OSError:
            self._failed = True

    def compact(self, tables: dict[str, list[dict]]) -> None:
        """Write `tables` as the new TinyDB snapshot, then empty the journal."""
        temporary = self.path + ".tmp"
        if os.path.exists(temporary):  # left by a crash during an earlier compaction
            os.remove(temporary)
        storage = JSONStorage(temporary, encoding="utf-8")  # TinyDB's write() flushes and fsyncs
        try:
            storage.write({name: {str(number): document for number, document in enumerate(documents, start=1)}
                           for name, documents in tables.items() if documents})
        finally:
            storage.close()
        os.replace(temporary, self.path)
        _fsync_path(os.path.dirname(self.path))
        os.ftruncate(self._fd, 0)
        self._end = 0
        self.journal_length = 0

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self._lock_file.close()  # releases the lock


def _fsync_path(path: str) -> None:
    """fsync a directory, so a rename in it survives a power cut."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
