"""A strategy's policy fingerprint: a short hash of its decisions under one rule set. Two strategies
with the same fingerprint under a rule set make the same choice in every state it covers: same
fingerprint, same play (then a match between them is unnecessary).

The fingerprint is the first 12 hex digits of the SHA-256 of these bytes, in this order:

1. `shutbox policy 1` and a newline;
2. the rules as the reports' `[rules]` table holds them (every option, `drop_out = 0` for no limit),
   as compact JSON (`json.dumps(table, separators=(",", ":"))`, keys in the table's order), then a
   newline; for a context-free strategy, the rules of a turn alone (`Rules.turn_rules`: the game's
   options at their one-round defaults), since the game's options do not change its play;
3. a context-free strategy: its table (`strategies.table.PolicyTable`): `next_mask`, one signed
   16-bit little-endian integer per (box, throw), box 0 first and the throws in `THROWS` order, then
   `dice`, one byte per box;
4. a keyed strategy, instead: for each key of its first round (`first_round_keys`), in sorted order
   (None before any number), `key `, the key's values as compact JSON, a newline, and its table for
   that key as in 3.

A keyed strategy's keys are those of every turn of a game's first round at a table of two, three
or four: each seat, the others' totals 0, and the scores posted before it any a turn can end with
(never 0 where shutting the box wins at once). In a one-round game that is every key it meets
outside a playoff. A stochastic strategy, or one that reads the game beyond a key, has none.
"""

from __future__ import annotations

import hashlib
import json
import sys
from array import array
from collections.abc import Callable, Iterator
from typing import Any

from shutbox_cli.game import Rules, TurnContext, score

from .keys import key_of
from .table import PolicyTable

DIGITS = 12
"""Hex digits of the SHA-256 a fingerprint keeps."""
MAGIC = b"shutbox policy 1\n"
TABLES = (2, 3, 4)
"""The table sizes whose first round's keys a keyed strategy's fingerprint covers."""
STOCHASTIC = "none: it draws at random"
BEYOND_KEY = "none: it reads the game beyond a key"

TableOf = Callable[[tuple[Any, ...] | None], PolicyTable]
"""A strategy's table: for no key (a context-free strategy), or for a key's values."""


def none_reason(stochastic: bool) -> str:
    """What a strategy with no fingerprint shows in its place, in one phrase."""
    return STOCHASTIC if stochastic else BEYOND_KEY


def table_bytes(table: PolicyTable) -> bytes:
    """A table's bytes as a fingerprint hashes them: `next_mask` (int16, little-endian), then `dice`."""
    after = array("h", table.next_mask)
    if sys.byteorder != "little":
        after.byteswap()
    return after.tobytes() + table.dice


def rules_bytes(rules: Rules) -> bytes:
    """The rules as a fingerprint hashes them: the reports' rules table as compact JSON."""
    table = {**rules.to_mapping(), "drop_out": rules.drop_out or 0}
    return json.dumps(table, separators=(",", ":")).encode()


def _sort_key(values: tuple[Any, ...]) -> tuple[tuple[bool, Any], ...]:
    return tuple((value is not None, value) for value in values)


def first_round_keys(rules: Rules, features: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The keys of every turn of a game's first round at a table of two, three or four, sorted."""
    found = {key_of(context, features) for context in _first_round(rules)}
    return sorted(found, key=_sort_key)


def _first_round(rules: Rules) -> Iterator[TurnContext]:
    """Every turn of a first round at each of `TABLES`: each seat, each lowest score posted before
    it and how many posted it (the rest one point higher, or the highest score)."""
    scores = sorted({score(rules, mask) for mask in range(rules.full_box + 1)})
    postable = [points for points in scores if points or not rules.instant_win]
    for players in TABLES:
        zeros, active = (0,) * players, (True,) * players
        for seat in range(players):
            for posted in _posted(postable, seat):
                shown = (*posted, *(None,) * (players - seat))
                yield TurnContext(seat, seat, 0, False, shown, zeros, active)


def _posted(scores: list[int], seat: int) -> Iterator[tuple[int, ...]]:
    """The scores the `seat` players before a seat may have posted, by lowest and its count."""
    if not seat:
        yield ()
        return
    for place, lowest in enumerate(scores):
        higher = scores[place + 1] if place + 1 < len(scores) else None
        for count in range(1, seat + 1):
            if count < seat and higher is None:
                continue
            yield (lowest,) * count + (higher,) * (seat - count)  # type: ignore[operator]


def fingerprint(rules: Rules, key: tuple[str, ...] | None, table: TableOf) -> str:
    """The fingerprint (module docstring) of a strategy under `rules`: `key` the features it is
    keyed on (None: context-free), `table` its table for no key or for a key's values."""
    digest = hashlib.sha256(MAGIC + rules_bytes(rules if key is not None else rules.turn_rules) + b"\n")
    if key is None:
        digest.update(table_bytes(table(None)))
    else:
        for values in first_round_keys(rules, key):
            digest.update(b"key " + json.dumps(list(values), separators=(",", ":")).encode() + b"\n")
            digest.update(table_bytes(table(values)))
    return digest.hexdigest()[:DIGITS]
