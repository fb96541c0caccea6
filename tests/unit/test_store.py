"""The repository: indexes, transactions, the journal, snapshots and crash recovery."""

import json
import os
import threading

import pytest
from tinydb import TinyDB

from sandbox.store import Store, StoreCorrupted, StoreLocked, open_store
from sandbox.store import repository


def withdrawal(number: int, merchant: int = 1, **extra) -> dict:
    return {"id": f"w{number}", "merchantId": merchant, "seq": number, **extra}


def test_indexes_follow_puts_and_keep_the_table_order():
    store = Store()
    with store.transaction():
        for number in (2, 0, 1):
            store.put("withdrawals", withdrawal(number))
        store.put("withdrawals", withdrawal(9, merchant=2))
    assert [w["id"] for w in store.find("withdrawals", "merchant", 1)] == ["w0", "w1", "w2"]
    with store.transaction():
        store.put("withdrawals", withdrawal(1, merchant=2))  # moves to another index bucket
    assert [w["id"] for w in store.find("withdrawals", "merchant", 1)] == ["w0", "w2"]
    assert store.count("withdrawals", "merchant", 2) == 2


def test_a_failing_transaction_leaves_nothing_behind():
    store = Store()
    with store.transaction():
        store.put("withdrawals", withdrawal(1, status="OPEN"))
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.put("withdrawals", withdrawal(1, status="APPROVED"))
            store.put("withdrawals", withdrawal(2))
            raise RuntimeError("boom")
    assert store.get("withdrawals", "w1")["status"] == "OPEN"
    assert store.get("withdrawals", "w2") is None
    assert store.count("withdrawals", "merchant", 1) == 1


def test_put_outside_a_transaction_is_a_programming_error():
    with pytest.raises(RuntimeError):
        Store().put("withdrawals", withdrawal(1))


def test_committed_transactions_survive_a_reopen(tmp_path):
    path = str(tmp_path / "data.json")
    store = open_store(path)
    with store.transaction():
        store.put("withdrawals", withdrawal(1, note="ünïcode"))
    store.close()
    reopened = open_store(path)
    assert reopened.get("withdrawals", "w1")["note"] == "ünïcode"
    # the snapshot is a plain TinyDB database
    with TinyDB(path, access_mode="r", encoding="utf-8") as db:
        assert db.table("withdrawals").all() == [withdrawal(1, note="ünïcode")]


def test_the_journal_replays_when_the_process_did_not_close_the_store(tmp_path):
    path = str(tmp_path / "data.json")
    store = open_store(path)
    with store.transaction():
        store.put("withdrawals", withdrawal(1))
    store._persistence._lock_file.close()  # as if the process died: no close(), no compaction
    assert os.path.getsize(path + ".journal") > 0
    assert open_store(path).get("withdrawals", "w1") == withdrawal(1)


def test_a_torn_last_line_is_dropped_and_cut(tmp_path):
    path = str(tmp_path / "data.json")
    with open(path + ".journal", "wb") as journal:
        journal.write(json.dumps([["withdrawals", "w1", withdrawal(1)]]).encode() + b"\n")
        journal.write(b'[["withdrawals","w2",{"id":"w2","merch')
    store = open_store(path)
    assert store.get("withdrawals", "w1") == withdrawal(1)
    assert store.get("withdrawals", "w2") is None


def test_a_damaged_line_in_the_middle_is_reported(tmp_path):
    path = str(tmp_path / "data.json")
    with open(path + ".journal", "wb") as journal:
        journal.write(b"garbage\n" + json.dumps([["withdrawals", "w1", withdrawal(1)]]).encode() + b"\n")
    with pytest.raises(StoreCorrupted, match="line 1"):
        open_store(path)


def test_a_second_process_cannot_open_the_same_file(tmp_path):
    path = str(tmp_path / "data.json")
    first = open_store(path)
    with pytest.raises(StoreLocked):
        open_store(path)
    first.close()
    open_store(path).close()


def test_the_journal_is_folded_once_it_outgrows_the_store(tmp_path, monkeypatch):
    monkeypatch.setattr(repository, "MIN_JOURNAL_BEFORE_COMPACTION", 5)
    path = str(tmp_path / "data.json")
    store = open_store(path)
    for number in range(5):
        with store.transaction():
            store.put("withdrawals", withdrawal(number))
    assert os.path.getsize(path + ".journal") == 0
    with TinyDB(path, access_mode="r", encoding="utf-8") as db:
        assert len(db.table("withdrawals")) == 5
    with store.transaction():
        store.put("withdrawals", withdrawal(5))
    assert os.path.getsize(path + ".journal") > 0


def test_concurrent_transactions_are_serialised():
    store = Store()

    def bump():
        for _ in range(200):
            with store.transaction():
                current = store.get("meta", "counter") or {"name": "counter", "value": 0}
                store.put("meta", {**current, "value": current["value"] + 1})

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.get("meta", "counter")["value"] == 800
