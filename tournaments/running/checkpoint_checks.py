"""A checkpoint's contents checked before a resume trusts them: each key there with its type, and
a record that playing its plan can give (known units, their games, possible tallies, a match's looks)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..field.config import (
    REPORT_CONFIG,
)
from ..playing.plan import Plan
from ..playing.tally import Tally, count_length
from ..playing.units import Forfeit
from ..records.schema import MAX_COUNT_DIGITS
from .audit import matchup_fault
from .checkpoint import (
    Record,
)
from .forfeits import replanned

if TYPE_CHECKING:  # a match's Elo module loads where a match is played
    from ..statistics.elo import Look


_HEADER_TYPES: dict[str, type] = {
    "checkpoint": int,
    "shutbox_version": str,
    "dice": str,
    "bulk": bool,
    "seed_drawn": bool,
    "config_sha256": str,
    "sources": dict,
    "modules": dict,
    REPORT_CONFIG: dict,
    "games": int,
    "units": list,
    "tallies": dict,
    "seal": dict,
}


def checked_fields(path: Path, raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The checkpoint's keys, each checked to be there with its type."""
    for key, kind in _HEADER_TYPES.items():
        if not isinstance(raw.get(key), kind) or (kind is int and isinstance(raw[key], bool)):
            article = "an" if kind.__name__[0] in "aeiou" else "a"
            raise _damaged(path, f"its key {key!r} is missing or not {article} {kind.__name__}")
    if not all(isinstance(digest, str) for digest in raw["sources"].values()):
        raise _damaged(path, "its key 'sources' holds something other than digests")
    if not isinstance(raw.get("report", ""), str) or "\0" in raw.get("report", ""):
        raise _damaged(path, "its key 'report' is not a file's path")
    match = raw.get("match", {"unit_games": 1})
    sprt = match.get("sprt", {"elo0": 0.0}) if isinstance(match, dict) else None
    if not (
        isinstance(match, dict)
        and type(match.get("unit_games")) is int
        and match["unit_games"] > 0
        and type(match.get("look_games", 0)) is int
        and match.get("look_games", 0) >= 0
        and isinstance(sprt, dict)
        and all(
            (key in ("elo0", "elo1", "alpha", "beta") and type(value) is float)
            or (key == "model" and value == "normalized")
            for key, value in sprt.items()
        )
    ):
        raise _damaged(path, "its key 'match' is not a match's settings")
    return raw


def _damaged(path: Path, why: str) -> ConfigError:
    return ConfigError(f"{str(path)!r} is not a shutbox checkpoint, or a damaged one: {why}.")


def checked_record(path: Path, plan: Plan, raw: Mapping[str, Any]) -> Record:
    """The record of a checkpoint, checked against the plan: known units, per matchup the games
    those units hold, and tallies that playing those games can give (see `audit`)."""
    count = plan.all_unit_count
    units: set[int] = set()
    for pair in raw["units"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(end) is int for end in pair)):
            raise _damaged(path, f"its units hold {pair!r}, not a range [first, last]")
        if not 0 <= pair[0] <= pair[1] < count:
            raise _damaged(path, f"it names work units {pair} of the {count:,} its plan has")
        units.update(range(pair[0], pair[1] + 1))
    forfeits = _forfeits(path, plan, raw.get("forfeit", []))
    played = replanned(plan, forfeits, units)
    expected = [0] * len(plan.matchups)
    for unit in map(played.kept, map(plan.unit, units)):  # the finished ones only: a plan may have a billion
        for matchup in unit.matchups:
            expected[matchup] += unit.deals * plan.table
    record = Record.empty(plan)
    record.units = units
    record.forfeits = forfeits
    record.games = sum(expected)
    for key, counts in raw["tallies"].items():
        if not (key.isascii() and key.isdigit() and int(key) < len(plan.matchups)):
            raise _damaged(path, f"it has tallies for a matchup {key!r} its plan does not have")
        record.tallies[int(key)] = _tallies(path, plan, int(key), counts)
    if raw["games"] != record.games:
        raise _damaged(path, "its tallies do not add up to the games of its finished units")
    record.looks = _looks(path, raw.get("looks", {"games": [], "llr": []}), record.games)
    for matchup, (counted, games) in enumerate(zip(record.tallies, expected, strict=True)):
        why = matchup_fault(counted, games, plan.config.rules) if games or str(matchup) in raw["tallies"] else None
        if why is not None:
            raise _damaged(path, f"the tallies of matchup {matchup} cannot come from its games ({why})")
    return record


_FORFEIT_TYPES: dict[str, type] = {
    "strategy": str,
    "spec": str,
    "index": int,
    "unit": int,
    "matchups": list,
    "titles": list,
    "games": int,
    "marked": str,
    "disqualified": bool,
}


def _forfeits(path: Path, plan: Plan, raw: object) -> list[Forfeit]:
    """The failures a run went on after: each a user's strategy of the field, a unit of the plan and
    matchups of that unit that seat it, and as many games as those matchups hold there."""
    if not isinstance(raw, list):
        raise _damaged(path, "its forfeits are not a list")
    found: list[Forfeit] = []
    for item in raw:
        if not (isinstance(item, dict) and set(item) == set(_FORFEIT_TYPES)) or not all(
            type(item[key]) is kind for key, kind in _FORFEIT_TYPES.items()
        ):
            raise _damaged(path, f"it holds a forfeit that is not one: {item!r}")
        forfeit = Forfeit(**{**item, "matchups": tuple(item["matchups"]), "titles": tuple(item["titles"])})
        if _forfeit_fault(plan, forfeit):
            raise _damaged(path, f"its forfeit of strategy {forfeit.strategy!r} in unit {forfeit.unit} cannot be")
        found.append(forfeit)
    return found


def _forfeit_fault(plan: Plan, forfeit: Forfeit) -> bool:
    """Whether a forfeit read back is not one the plan can give."""
    entries = plan.config.strategies
    if not (0 <= forfeit.index < len(entries) and 0 <= forfeit.unit < plan.all_unit_count):
        return True
    unit = plan.unit(forfeit.unit)
    seating = {matchup for matchup in unit.matchups if forfeit.index in plan.matchups[matchup].players}
    return (
        entries[forfeit.index].builtin
        or entries[forfeit.index].name != forfeit.strategy
        or not forfeit.matchups
        or not set(forfeit.matchups) <= seating
        or forfeit.games != unit.deals * plan.table * len(forfeit.matchups)
    )


def _looks(path: Path, raw: object, games: int) -> list[Look]:
    """A match's looks: games rising to at most the record's, each with a finite LLR."""
    looked = raw.get("games") if isinstance(raw, dict) else None
    llrs = raw.get("llr") if isinstance(raw, dict) else None
    if not (
        isinstance(looked, list)
        and isinstance(llrs, list)
        and len(looked) == len(llrs)
        and all(type(count) is int for count in looked)
        and all(type(llr) is float and math.isfinite(llr) for llr in llrs)
        and all(low < high for low, high in itertools.pairwise([0, *looked]))
        and (not looked or looked[-1] <= games)
    ):
        raise _damaged(path, "its key 'looks' is not the path of a match's SPRT")
    return list(zip(looked, llrs, strict=True))


def _tallies(path: Path, plan: Plan, matchup: int, counts: object) -> list[Tally]:
    players = len(plan.matchups[matchup].players)
    if not (isinstance(counts, list) and len(counts) == players and all(isinstance(text, str) for text in counts)):
        raise _damaged(path, f"the tallies of matchup {matchup} are not {players} strings of counts")
    tallies = []
    for text in counts:
        numbers = text.split()
        if len(numbers) != count_length(players) or not all(
            number.isascii() and number.isdigit() and len(number) <= MAX_COUNT_DIGITS for number in numbers
        ):
            raise _damaged(path, f"a tally of matchup {matchup} is {text[:200]!r}, not {count_length(players)} counts")
        tallies.append(Tally.of_counts(list(map(int, numbers)), players))
    return tallies
