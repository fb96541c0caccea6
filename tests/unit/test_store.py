"""The repository: indexes, transactions, the journal, snapshots and crash recovery."""

import json
import os
import threading

import pytest
from tinydb import TinyDB

from sandbox.store import Store, StoreCorrupted, StoreFailed, StoreLocked, open_store
from sandbox.store import journal, repository


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
    store._persistence.close()  # as if the process died: no compaction
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


# -- failures while writing (the OS calls fail on purpose: there is no other way to get EIO) --


def meta(name: str, value) -> dict:
    return {"name": name, "value": value}


def test_a_failed_fsync_leaves_no_trace_in_memory_or_on_disk(tmp_path, monkeypatch):
    path = str(tmp_path / "data.json")
    store = open_store(path)
    with store.transaction():
        store.put("meta", meta("kept", 1))
    monkeypatch.setattr(journal.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(5, "EIO")))
    with pytest.raises(OSError):
        with store.transaction():
            store.put("meta", meta("ghost", 2))
    monkeypatch.undo()
    assert store.get("meta", "ghost") is None
    store._persistence.close()  # as if the process died now
    reopened = open_store(path)
    assert reopened.get("meta", "ghost") is None and reopened.get("meta", "kept") == meta("kept", 1)


def test_a_partial_write_is_cut_back_and_later_writes_survive(tmp_path, monkeypatch):
    path = str(tmp_path / "data.json")
    store = open_store(path)
    real_write = os.write

    def short_then_full_disk(fd, data):
        real_write(fd, data[:7])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal.os, "write", short_then_full_disk)
    with pytest.raises(OSError):
        with store.transaction():
            store.put("meta", meta("failed", 1))
    monkeypatch.undo()
    with store.transaction():
        store.put("meta", meta("ok", 2))
    store._persistence.close()
    reopened = open_store(path)
    assert reopened.get("meta", "ok") == meta("ok", 2) and reopened.get("meta", "failed") is None


def test_when_the_cut_back_fails_too_the_store_refuses_writes(tmp_path, monkeypatch):
    store = open_store(str(tmp_path / "data.json"))
    failing = lambda *args: (_ for _ in ()).throw(OSError(5, "EIO"))  # noqa: E731
    monkeypatch.setattr(journal.os, "fsync", failing)
    monkeypatch.setattr(journal.os, "ftruncate", failing)
    with pytest.raises(OSError):
        with store.transaction():
            store.put("meta", meta("a", 1))
    monkeypatch.undo()
    with pytest.raises(StoreFailed):
        with store.transaction():
            store.put("meta", meta("b", 2))


def test_a_crash_between_snapshot_and_journal_truncation_replays_harmlessly(tmp_path, monkeypatch):
    path = str(tmp_path / "data.json")
    store = open_store(path)
    with store.transaction():
        store.put("withdrawals", withdrawal(1, status="OPEN"))
    with store.transaction():
        store.put("withdrawals", withdrawal(1, status="APPROVED"))
    monkeypatch.setattr(journal.os, "ftruncate", lambda *args: (_ for _ in ()).throw(SystemExit("killed")))
    with pytest.raises(SystemExit):
        store.compact()  # the snapshot is renamed in place, then the process "dies"
    monkeypatch.undo()
    store._persistence.close()
    assert os.path.getsize(path + ".journal") > 0
    assert open_store(path).get("withdrawals", "w1")["status"] == "APPROVED"


@pytest.mark.parametrize("snapshot", ['[]', '{"merchants": []}', '{"merchants": {"1": {"id": 1}}}', '"text"'])
def test_data_of_the_wrong_shape_is_reported_not_overwritten(tmp_path, snapshot):
    path = tmp_path / "data.json"
    path.write_text(snapshot)
    with pytest.raises(StoreCorrupted):
        open_store(str(path))
    assert path.read_text() == snapshot


def test_a_journal_line_of_the_wrong_shape_in_the_middle_is_reported(tmp_path):
    path = str(tmp_path / "data.json")
    with open(path + ".journal", "wb") as file:
        file.write(b"[1]\n" + json.dumps([["meta", "a", meta("a", 1)]]).encode() + b"\n")
    with pytest.raises(StoreCorrupted, match="line 1"):
        open_store(path)


def test_a_second_opener_can_wait_for_the_first_to_leave(tmp_path):
    path = str(tmp_path / "data.json")
    first = open_store(path)
    threading.Timer(0.3, first.close).start()
    open_store(path, lock_timeout=5).close()
