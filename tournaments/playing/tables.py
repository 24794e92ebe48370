"""A user's exact strategy's table kept on disk, so it is tabulated once, not once per run.

A table is kept in the user's cache folder (`$SHUTBOX_TABLE_CACHE`; else `$XDG_CACHE_HOME/shutbox`
or `~/.cache/shutbox`, in `tables/`), one file per table, named by its key: the digest of the
strategy's file, its class, its parameters, the rules and the shutbox version. A file holds its key
and an HMAC of its key and table under the user's tables key (`keys`, a folder no strategy's host
may see): a file damaged, edited or written by anyone without the key is not trusted but built
again. A table read back is also checked entry by entry like one from its host, and one with an
illegal move is refused, naming the strategy. A built-in strategy's table is never read back: it is
built again in each run (a tenth to a quarter of a second each at 12 tiles: benchmarks/table_cache.py),
so no file anyone wrote decides how a built-in plays. `SHUTBOX_TABLE_CACHE=off` keeps no tables.
A cache folder that cannot be written, or a key that cannot be read or made, is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import sys
import tempfile
from array import array
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

from shutbox_cli.game import Rules
from strategies.loading import StrategyLoadError, split_spec
from strategies.table import THROW_COUNT, PolicyTable

from .. import keys
from ..field.entries import StrategyEntry
from ..version import shutbox_version

MAGIC = b"shutbox table 2\n"
KEY_FILE = "tables.key"
"""The name of the key that seals kept tables, in the user's key folder."""
Sent = dict[int, tuple[bytes, bytes]]
"""Tables as a pool's worker is sent them: two byte strings each, by strategy."""


def source_digest(entry: StrategyEntry) -> str | None:
    """The digest of a user's strategy's file, read as the field was made; None for a built-in one
    (never kept) or a user's module without a file."""
    return None if entry.builtin else entry.sha256


def table_key(entry: StrategyEntry, source: str | None, rules: Rules) -> str | None:
    """The key of a strategy's table under these rules (None: it cannot be kept)."""
    if source is None:
        return None
    target = split_spec(entry.spec)[0].rpartition(":")[2]
    params = sorted((name, repr(value)) for name, value in entry.params.items())
    parts = [source, target, params, repr(rules), shutbox_version()]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _digest(secret: bytes, key: str, body: bytes) -> bytes:
    """The HMAC that seals a kept table."""
    return hmac.new(secret, key.encode() + b"\n" + body, hashlib.sha256).hexdigest().encode()


def _secret(make: bool) -> bytes | None:
    """The user's tables key (made if `make`); None where there is none, or it cannot be had."""
    try:
        return keys.own_key(KEY_FILE) if make else keys.user_key(KEY_FILE)
    except (OSError, ValueError):
        return None


def _body(table: PolicyTable) -> bytes:
    after = array("h", table.next_mask)
    if sys.byteorder != "little":
        after.byteswap()
    return after.tobytes() + table.dice


def read_table(folder: Path, key: str, entry: StrategyEntry, rules: Rules) -> PolicyTable | None:
    """A user's table kept under `key`, if the file is whole and sealed by the user's tables key
    (else None: build it again). It is checked like one from its host: an illegal one raises
    `StrategyLoadError`."""
    path = folder / f"{key}.table"
    secret = _secret(make=False)
    try:
        data = path.read_bytes() if secret is not None else b""
    except OSError:
        return None
    boxes = rules.full_box + 1
    head = len(MAGIC) + 2 * 65
    body = data[head:]
    if (
        secret is None
        or not data.startswith(MAGIC)
        or len(body) != boxes * (2 * THROW_COUNT + 1)
        or data[len(MAGIC) : len(MAGIC) + 65] != key.encode() + b"\n"
        or not hmac.compare_digest(data[len(MAGIC) + 65 : head], _digest(secret, key, body) + b"\n")
    ):
        return None
    after = array("h")
    after.frombytes(body[: 2 * boxes * THROW_COUNT])
    if sys.byteorder != "little":
        after.byteswap()

    def refuse(what: str) -> NoReturn:
        raise StrategyLoadError(
            f"strategy {entry.name!r} has a table kept in {str(path)!r} that is not legal ({what}); "
            "delete the file and it is built again."
        )

    from ..referee.replies import checked_table  # the hosts' code, loaded only for a user's strategy

    return checked_table(after.tolist(), list(body[2 * boxes * THROW_COUNT :]), rules, refuse)


def keep_table(folder: Path, key: str, table: PolicyTable) -> None:
    """Keep a table under `key`, whole or not at all; a folder that cannot be written, or a key that
    cannot be made, is skipped."""
    secret = _secret(make=True)
    if secret is None:
        return
    body = _body(table)
    data = MAGIC + key.encode() + b"\n" + _digest(secret, key, body) + b"\n" + body
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, folder / f"{key}.table")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def wire_tables(tables: Mapping[int, PolicyTable]) -> Sent:
    """Tables as a worker is sent them."""
    return {index: (table.next_mask.tobytes(), table.dice) for index, table in tables.items()}


def unwired_tables(sent: Mapping[int, tuple[bytes, bytes]], rules: Rules) -> dict[int, PolicyTable]:
    """The tables a worker was sent (by this run's own main process: trusted as they are)."""
    found: dict[int, PolicyTable] = {}
    for index, (next_mask, dice) in sent.items():
        after = array("h")
        after.frombytes(next_mask)
        found[index] = PolicyTable(rules, after, dice)
    return found
