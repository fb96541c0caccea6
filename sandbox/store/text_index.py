"""Partial-match (substring) search over many documents, kept in SQLite's FTS5.

A substring query has to find documents by any fragment of their text. A
trigram index answers that without scanning every document; kept in Python it
would take hundreds of megabytes at 50,000 documents, while SQLite's FTS5
`trigram` tokenizer (stdlib `sqlite3`) keeps it compact and answers a selective
query over 50,000 rows in about half a millisecond. It is derived state: built
in memory from the store at start-up, never persisted.
"""

import sqlite3

MIN_INDEXED_TERM = 3  # trigrams: shorter terms are answered by a scan
# Between the fields of one document: a term with it never matches across two fields
# (the API refuses control characters in text and in search terms).
FIELD_SEPARATOR = "\x1f"


class TextIndex:
    def __init__(self):
        self._db = sqlite3.connect(":memory:", check_same_thread=False)  # the store's lock serialises use
        self._db.create_function("casefold", 1, str.casefold, deterministic=True)
        self._db.execute("CREATE VIRTUAL TABLE entries USING fts5(scope UNINDEXED, body, tokenize='trigram')")
        self._rowids: dict[str, int] = {}
        self._keys: dict[int, str] = {}
        self._next_rowid = 1

    def put(self, key: str, scope, text: str | None) -> None:
        """Index `text` for `key` within `scope` (a merchant); None removes it."""
        rowid = self._rowids.get(key)
        if rowid is not None:
            self._db.execute("DELETE FROM entries WHERE rowid = ?", (rowid,))
        if text is None:
            if rowid is not None:
                del self._rowids[key], self._keys[rowid]
            return
        if rowid is None:
            rowid, self._next_rowid = self._next_rowid, self._next_rowid + 1
            self._rowids[key], self._keys[rowid] = rowid, key
        self._db.execute("INSERT INTO entries (rowid, scope, body) VALUES (?, ?, ?)", (rowid, str(scope), text))

    def search(self, scope, term: str) -> set[str]:
        """Keys within `scope` whose text contains `term`, ignoring case."""
        if len(term) >= MIN_INDEXED_TERM:
            phrase = '"' + term.replace('"', '""') + '"'
            rows = self._db.execute("SELECT rowid FROM entries WHERE entries MATCH ? AND scope = ?",
                                    (f"body : {phrase}", str(scope)))
        else:
            rows = self._db.execute("SELECT rowid FROM entries WHERE scope = ? AND instr(casefold(body), ?) > 0",
                                    (str(scope), term.casefold()))
        return {self._keys[rowid] for (rowid,) in rows}
