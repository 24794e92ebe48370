"""Keyed strategies in bulk: each turn's key worked out with array logic from where the games
stand, and the turns played from one table per distinct key (`strategies.keys` names the features).

A key is a row of ints, one column per feature (-1 for None); `key_values` turns a row back into
the values a strategy is shown, which equal `strategies.keys.key_of` of the same turn's context.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from shutbox_cli.game.bulk import Standing

NONE = -1
"""A feature's None in a key row."""
_FAR = np.iinfo(np.int64).max


def key_rows(
    features: tuple[str, ...], standing: Standing, seat: int, round_: int, games: npt.NDArray[np.intp]
) -> npt.NDArray[np.int64]:
    """The key of the turn of `seat` in round `round_` of these games: [game, feature]."""
    scores = standing.scores[:, games]
    playing = standing.playing[:, games]
    others = playing.copy()
    others[seat] = False
    posted = others & (scores >= 0)
    to_beat = np.where(posted, scores, _FAR).min(axis=0)
    columns: dict[str, Any] = {
        "seat": seat,
        "round": round_,
        "playoff": int(standing.playoff),
        "total": lambda: standing.totals[seat, games].astype(np.int64),
        "to_beat": lambda: np.where(to_beat == _FAR, NONE, to_beat),
        "to_beat_count": lambda: (posted & (scores == to_beat)).sum(axis=0),
        "to_come": lambda: (others & (scores < 0)).sum(axis=0),
        "leader_total": lambda: _leader_total(standing.totals[:, games].astype(np.int64), others),
    }
    rows = np.empty((games.size, len(features)), dtype=np.int64)
    for column, feature in enumerate(features):
        value = columns[feature]
        rows[:, column] = value() if callable(value) else value
    return rows


def _leader_total(totals: npt.NDArray[np.int64], others: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    lowest = np.where(others, totals, _FAR).min(axis=0)
    return np.where(lowest == _FAR, NONE, lowest)


def distinct_keys(rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """The distinct key rows, in ascending order, and which of them each row is: `np.unique` by
    rows, through one int per row when the features' ranges allow (it is many times faster)."""
    low = rows.min(axis=0) if rows.size else np.zeros(rows.shape[1], dtype=np.int64)
    spans = (rows.max(axis=0) - low + 1).tolist() if rows.size else []
    if not rows.size or np.prod(spans, dtype=float) >= 2**62:
        distinct, which = np.unique(rows, axis=0, return_inverse=True)
        return distinct, which.reshape(-1).astype(np.intp)
    codes = np.zeros(rows.shape[0], dtype=np.int64)
    for column, span in enumerate(spans):
        codes = codes * span + (rows[:, column] - low[column])
    _, first, which = np.unique(codes, return_index=True, return_inverse=True)
    return rows[first], which.reshape(-1).astype(np.intp)


def key_values(features: tuple[str, ...], row: npt.NDArray[np.int64]) -> tuple[Any, ...]:
    """The values a key row stands for, as the strategy is shown them."""
    values: list[Any] = []
    for feature, value in zip(features, row.tolist(), strict=True):
        if feature == "playoff":
            values.append(bool(value))
        elif feature in ("to_beat", "leader_total") and value == NONE:
            values.append(None)
        else:
            values.append(value)
    return tuple(values)
