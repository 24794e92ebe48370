"""Results and settings said briefly, for a notebook's `repr`: what was run and what came of it,
on one line, however many games, tallies or trials stand behind it (the fields hold the rest)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

SHOWN = 5
"""The most strategies (or trials) a brief `repr` names."""


class Ranked(Protocol):
    """A standing as a ranking holds it."""

    @property
    def name(self) -> str: ...
    @property
    def win_rate(self) -> float: ...
    @property
    def mean_score(self) -> float | None: ...


def brief(kind: str, *parts: str) -> str:
    """`<kind part; part>`: a `repr` that reads, not one that rebuilds."""
    return f"<{kind} {'; '.join(part for part in parts if part)}>"


def ranked(ranking: Sequence[Ranked], solo: bool) -> str:
    """The first few of a ranking with the figure it is ranked by: the win rate, alone the mean score."""
    said = [
        f"{one.name} {one.mean_score:.3f}" if solo and one.mean_score is not None else f"{one.name} {one.win_rate:.2%}"
        for one in ranking[:SHOWN]
    ]
    more = f", ... ({len(ranking)} in all)" if len(ranking) > SHOWN else ""
    return ("mean scores " if solo else "win rates ") + ", ".join(said) + more


def counted(count: int, one: str, many: str = "") -> str:
    """`1 game`, `20,000 games` (`many`: the plural, where not `one` with an s)."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"
