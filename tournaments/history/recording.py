"""What a finished run leaves in the history, taken from its report (docs/report.md): what ran
(its kind, command, settings, seed and rules), each strategy (name, spec, and its version: the
digest of a user's file, an installed package's version, or its policy's fingerprint), the
results (the standings, a match's score, Elo and verdict, a knockout's winner, a tune's best),
when and how long."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .schema import ENTRANT_COLUMNS

STANDING_KEYS = ("rank", "name", "games", "win_rate", "mean_score", "rating", "rating_ci95")
"""What the history keeps of each strategy's standing in a tournament."""
TUNE_KEYS = ("done", "objective", "goal", "best", "start_objective", "confirmation")
"""What the history keeps of a tune's results."""
KNOCKOUT_KEYS = ("winner", "games")
"""What the history keeps of a knockout's results (its ties are in its report)."""


@dataclasses.dataclass(frozen=True)
class Entrant:
    """One strategy in a run, as the history keeps it."""

    place: int
    name: str
    spec: str
    version: str
    """Its version: `sha256:` its file's digest, `PACKAGE VERSION` (and its module's digest),
    `fingerprint:` its policy's, or the shutbox that ran a built-in without one."""
    fingerprint: str | None = None
    sha256: str | None = None
    package: str | None = None
    opponent: str | None = None
    rank: int | None = None
    elo: float | None = None
    """A match's Elo from this strategy's side, or its rating in a tournament's field."""
    elo_low: float | None = None
    elo_high: float | None = None

    def row(self) -> tuple[Any, ...]:
        """Its values in the order of its table's columns."""
        return tuple(getattr(self, column) for column in ENTRANT_COLUMNS)


@dataclasses.dataclass(frozen=True)
class Record:
    """A run as the history keeps it: the run's columns, its strategies and its whole report."""

    kind: str
    command: str
    started: str
    seconds: float
    shutbox_version: str
    seed: str | None
    rules: str
    settings: str
    results: str
    report: str
    entrants: tuple[Entrant, ...]


def record_of(document: Mapping[str, Any], command: str, started: str, seconds: float) -> Record:
    """What the history keeps of a finished run's report (a tournament's, a match's, a knockout's or
    a tune's)."""
    if document.get("kind") == "tune":
        kind, settings, results, rules = "tune", _tune_settings(document), _pick(document, TUNE_KEYS), document["rules"]
        entrants = _tune_entrants(document)
    else:
        config = document["config"]
        kind = "match" if "match" in document else "knockout" if document.get("kind") == "knockout" else "tournament"
        settings = {key: value for key, value in config.items() if key not in ("strategy", "rules")}
        rules = config["rules"]
        if kind == "knockout":
            settings |= _pick(document, ("seeding", "sprt"))
            results, entrants = _pick(document, KNOCKOUT_KEYS), _knockout_entrants(document)
        else:
            results = _match_results(document) if kind == "match" else _standings(document)
            entrants = _entrants(document)
    seed = document.get("seed")
    return Record(
        kind,
        command,
        started,
        seconds,
        str(document.get("shutbox_version", "unknown")),
        None if seed is None else str(seed),
        _text(rules),
        _text(settings),
        _text(results),
        _text(document),
        entrants,
    )


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _pick(table: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    return {key: table[key] for key in keys if key in table}


def _standings(document: Mapping[str, Any]) -> dict[str, Any]:
    return {"ranking": [_pick(entry, STANDING_KEYS) for entry in document["ranking"]]}


def _match_results(document: Mapping[str, Any]) -> dict[str, Any]:
    match = dict(document["match"])
    sprt = match.get("sprt")
    if isinstance(sprt, Mapping):  # its path is in the report: the verdict is what a list of runs shows
        match["sprt"] = {key: value for key, value in sprt.items() if key != "path"}
    return {"match": match, "games": document["totals"]["games"]}


def _entrants(document: Mapping[str, Any]) -> tuple[Entrant, ...]:
    """Each strategy of a tournament or a match, in the order entered, with its standing (a match's
    Elo from each side)."""
    standing = {entry["name"]: entry for entry in document["ranking"]}
    match = document.get("match")
    version = str(document.get("shutbox_version", "unknown"))
    found = []
    for place, strategy in enumerate(document["config"]["strategy"]):
        name, spec = strategy["name"], strategy["spec"]
        ranked = standing.get(name, {})
        elo, interval, opponent = ranked.get("rating"), ranked.get("rating_ci95"), None
        if isinstance(match, Mapping):
            elo, interval, opponent = _match_side(match, name)
        fingerprint, sha256 = ranked.get("fingerprint"), strategy.get("sha256")
        package = _package(spec)
        found.append(
            Entrant(
                place,
                name,
                spec,
                _version(sha256, package, fingerprint, version),
                fingerprint,
                sha256,
                package,
                opponent,
                ranked.get("rank"),
                elo,
                *(interval if interval is not None else (None, None)),
            )
        )
    return tuple(found)


def _match_side(match: Mapping[str, Any], name: str) -> tuple[float | None, list[float] | None, str]:
    """A match's Elo, its interval and the opponent, from `name`'s side."""
    elo, interval = match.get("elo"), match.get("elo_ci95")
    if name == match["strategy"]:
        return elo, interval, match["baseline"]
    flipped = None if interval is None else [-interval[1], -interval[0]]
    return None if elo is None else -elo, flipped, match["strategy"]


def _knockout_entrants(document: Mapping[str, Any]) -> tuple[Entrant, ...]:
    """Each strategy of a knockout in seed order, with its place (the winner 1, a tie's loser one
    more than its round's ties: 2 in the final, 3 in the semi-finals) and its last tie, the one it
    lost or the final it won: the opponent and the tie's Elo from its side."""
    version = str(document.get("shutbox_version", "unknown"))
    last: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for ties in (one["tie"] for one in document["round"]):
        for tie in (one for one in ties if "second" in one):  # a bye meets no one
            for name in (tie["first"], tie["second"]):
                last[name] = (1 if name == tie["winner"] else len(ties) + 1, tie)
    found = []
    for place, strategy in enumerate(document["config"]["strategy"]):
        name, spec = strategy["name"], strategy["spec"]
        rank, tie = last.get(name, (1, {}))
        elo, interval, opponent = None, None, None
        if tie:  # its Elo from the higher seed's side, as a match's from its strategy's
            side = {"strategy": tie["first"], "baseline": tie["second"], "elo": tie.get("elo", tie.get("exact_elo"))}
            elo, interval, opponent = _match_side({**side, "elo_ci95": tie.get("elo_ci95")}, name)
        sha256, package = strategy.get("sha256"), _package(spec)
        found.append(
            Entrant(
                place,
                name,
                spec,
                _version(sha256, package, None, version),
                None,
                sha256,
                package,
                opponent,
                rank,
                elo,
                *(interval if interval is not None else (None, None)),
            )
        )
    return tuple(found)


def _tune_settings(document: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("method", "spec", "field", "objective", "goal", "search", "games", "confirm_games", "trials")
    return {**_pick(document, keys), "parameters": document.get("parameters", []), "start": document.get("start", {})}


def _tune_entrants(document: Mapping[str, Any]) -> tuple[Entrant, ...]:
    """The strategy tuned, then its field, each named by its spec's target."""
    from strategies.loading import StrategyLoadError, spec_file, split_spec

    version = str(document.get("shutbox_version", "unknown"))
    found = []
    for place, spec in enumerate([document["spec"], *document.get("field", [])]):
        try:
            target, file = split_spec(spec)[0], spec_file(spec)
        except StrategyLoadError:
            target, file = spec, None
        sha256 = None if file is None else _digest(Path(file))
        package = _package(spec) if file is None else None
        found.append(
            Entrant(place, target, spec, _version(sha256, package, None, version), sha256=sha256, package=package)
        )
    return tuple(found)


def _version(sha256: str | None, package: str | None, fingerprint: str | None, shutbox: str) -> str:
    """The version a strategy is grouped by: its package's and its file's digest, either, its
    policy's fingerprint, or the shutbox that ran it."""
    if package is not None:
        return package if sha256 is None else f"{package}, sha256:{sha256[:12]}"
    if sha256 is not None:
        return f"sha256:{sha256[:12]}"
    if fingerprint is not None:
        return f"fingerprint:{fingerprint}"
    return f"shutbox {shutbox}"


def _digest(file: Path) -> str | None:
    try:
        return hashlib.sha256(file.read_bytes()).hexdigest()
    except OSError:
        return None


def _package(spec: str) -> str | None:
    """`NAME VERSION` of the installed package a `module:Class` spec comes from (None for a built-in,
    a file, or a module no installed package holds)."""
    from importlib.metadata import PackageNotFoundError, packages_distributions, version

    from strategies.loading import StrategyLoadError, builtin_spec, spec_file, split_spec

    try:
        if builtin_spec(spec) or spec_file(spec) is not None:
            return None
        module = split_spec(spec)[0].partition(":")[0]
    except StrategyLoadError:
        return None
    top = module.split(".")[0]
    for name in packages_distributions().get(top, []):
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            continue
    return None
