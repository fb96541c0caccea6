"""The whole store as one JSON document and back (`gateway-sandbox state export|import`):
a format of its own (data/state.schema.json), independent of how a data file keeps it."""

import json
from functools import cache
from importlib import resources
from typing import Callable

import jsonschema

from sandbox.clock import Clock, to_iso
from sandbox.store.repository import Repository, Store
from sandbox.store.schema import STORE_LOCAL_META, TABLES

FORMAT, VERSION = "gateway-sandbox-state", 1


class InvalidState(Exception):
    """A state document that cannot be imported, and why."""


@cache
def schema() -> dict:
    return json.loads(resources.files("sandbox").joinpath("data/state.schema.json").read_text())


def export_state(store: Repository) -> dict:
    return {"format": FORMAT, "version": VERSION, "exportedAt": to_iso(Clock().now()),
            "tables": {table: [record for record in store.all(table) if not _local(table, record)]
                       for table in TABLES}}


def _local(table: str, record: dict) -> bool:
    return table == "meta" and record.get("name") in STORE_LOCAL_META


def import_state(store: Repository, document, *, replace: bool = False,
                 check: Callable[[Store], None] = lambda scratch: None) -> int:
    """Load `document` into `store`, all of it or nothing; how many records it holds.
    A store that already holds data is only overwritten when `replace`. `check` sees
    the records in a scratch store first and raises InvalidState to refuse them."""
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema()).iter_errors(document))
    if error is not None:
        raise InvalidState(f"{'/'.join(map(str, error.path)) or '(top)'}: {error.message}")
    check(_check_records(document["tables"]))
    if not replace and any(store.count_all(table) for table in TABLES):
        raise InvalidState("the store already holds data (use --replace to overwrite it)")
    with store.transaction():
        for table in TABLES:  # the store's own meta records stay; a document's are ignored
            for record in store.all(table):
                if not _local(table, record):
                    store.delete(table, TABLES[table].key(record))
        for table, records in document["tables"].items():
            for record in records:
                if not _local(table, record):
                    store.put(table, record)
    return sum(len(records) for records in document["tables"].values())


def _check_records(tables: dict) -> Store:
    """Every record indexed in a scratch store first, so that a record missing a field
    the tables need is refused by name before the real store is touched."""
    scratch, where = Store(), ""
    try:
        with scratch.transaction():
            for table, records in tables.items():
                for number, record in enumerate(records):
                    where = f"tables/{table}/{number}"
                    if scratch.get(table, TABLES[table].key(record)) is not None:
                        raise InvalidState(f"{where}: a second record with the key {TABLES[table].key(record)!r}")
                    scratch.put(table, record)
    except KeyError as error:
        raise InvalidState(f"{where}: a record without the field {error} that this table needs") from None
    except RecursionError:
        raise InvalidState(f"{where}: nested too deeply") from None
    except (TypeError, ValueError, AttributeError) as error:
        raise InvalidState(f"{where}: not a record this version keeps ({error})") from None
    return scratch
