"""Checkpoints: a long tournament keeps what it has finished in a file, so a run stopped by Ctrl-C,
a failure or a crash can be resumed, and finishes with the report an uninterrupted run writes.

A checkpoint is a TOML file holding its format (`checkpoint = CHECKPOINT_FORMAT`), the
configuration (seed included, and how the run went: workers, timeout, ...), the report the run
writes (if any), the dice scheme, shutbox's version, a digest of each user strategy's source and
of the modules it imports from its folder, the numbers of the finished work units and their
tallies summed per matchup (and, for a match's SPRT, the LLR at each look so far); it ends with
a seal (`seal`), which a resume checks before anything else the file says. It is written whole
or not at all (a temporary file renamed over it) at most every `CHECKPOINT_SECONDS` from the
runner's callback, and once more when the run stops early. A run that finishes removes it once its
report is written; one that ends within the first interval never writes it.

A run writes and removes only its own checkpoint: it does not start while something is at its
checkpoint's path (the checkpoint of a stopped run writing the same report, which `--resume`
finishes), and it stops keeping one if another process puts its own there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import math
import os
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from shutbox_cli.game import DICE_SCHEME
from strategies.loading import spec_file

from ..errors import ConfigError, setting
from ..field.config import (
    ISOLATE,
    REPORT_CONFIG,
    RESULT_SETTINGS,
    SETTINGS,
    Options,
    TournamentConfig,
    config_table,
    load_config,
)
from ..field.sources import module_digests
from ..files import read_bytes, through_links, write_atomically
from ..playing.plan import Plan, make_plan
from ..playing.tally import Tally, count_length
from ..playing.units import UnitResult
from ..records.schema import MAX_COUNT_DIGITS
from ..version import shutbox_version
from . import seal
from .audit import matchup_fault

if TYPE_CHECKING:  # a match's Elo module loads where a match is played
    from ..statistics.elo import Look

CHECKPOINT_FORMAT = 6
"""The layout of a checkpoint's keys: raised whenever what a checkpoint holds changes, so that one
written by another shutbox is refused as such, not as damaged (the version string may not change).
2: the report the run writes, the digests of the modules a strategy imports, the seal. 3: a tally at
a table of two ends with its pentanomial. 4: a match's SPRT keeps its looks (`looks`). 5: a work
unit played turn by turn holds about 2,000 games (it held 400). 6: a match's SPRT looks within
units, every `look_games` games (it looked after whole units)."""
CHECKPOINT_SECONDS = 5.0
"""A run writes its checkpoint at most this often, and not before it has run this long."""
MAX_CHECKPOINT_BYTES = 128 << 20
"""A checkpoint holds a few numbers per matchup: one larger than this is not one."""
SUFFIX = ".checkpoint.toml"

Identity = tuple[int, int, int, int]
"""Which file a path holds: its device, inode, time of last modification and size (an inode number is
used again once its file is gone)."""


def checkpoint_path(report: Path | None) -> Path:
    """Where a run keeps its checkpoint: beside its report (`REPORT.toml` -> `REPORT.checkpoint.toml`),
    else in the user's state folder, named by the time and the process."""
    if report is not None:
        return Path(report).with_name(Path(report).name.removesuffix(".toml") + SUFFIX)
    from platformdirs import user_state_path

    stamp = time.strftime("%Y%m%d-%H%M%S")
    return user_state_path("shutbox") / "checkpoints" / f"tournament-{stamp}-{os.getpid()}{SUFFIX}"


@dataclasses.dataclass
class Record:
    """What a run has finished: the numbers of its finished units, their games, and their tallies
    summed per matchup (`tallies[m][p]`, as a `Summary` holds them). `adding` is set while a
    unit's result is being added: an interruption then leaves the record half updated."""

    tallies: list[list[Tally]]
    units: set[int]
    games: int = 0
    adding: bool = False
    looks: list[Look] = dataclasses.field(default_factory=list)
    """A match's SPRT: the games and the LLR at each look so far (`sequential`)."""

    @classmethod
    def empty(cls, plan: Plan) -> Record:
        return cls([[Tally() for _ in matchup.players] for matchup in plan.matchups], set())

    def add(self, result: UnitResult) -> None:
        """Count one finished unit."""
        self.adding = True
        self.count(result)
        self.units.add(result.unit)
        self.adding = False

    def count(self, result: UnitResult) -> None:
        """Add a unit's (or a block's) tallies and games, the unit not marked finished (`add` does)."""
        for matchup, counted in result.tallies.items():
            for tally, more in zip(self.tallies[matchup], counted, strict=True):
                tally.add(more)
        self.games += result.games

    def table(self) -> dict[str, Any]:
        """The record as TOML: finished units as ranges `[first, last]`, each tally as its counts
        in one string (counts can outgrow TOML's 64-bit integers), only for matchups played."""
        return {
            "games": self.games,
            "units": _ranges(self.units),
            "tallies": {
                str(matchup): [" ".join(map(str, tally.counts(len(counted)))) for tally in counted]
                for matchup, counted in enumerate(self.tallies)
                if counted[0].games
            },
            **(
                {"looks": {"games": [games for games, _ in self.looks], "llr": [llr for _, llr in self.looks]}}
                if self.looks
                else {}
            ),
        }


def _ranges(numbers: set[int]) -> list[list[int]]:
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and ranges[-1][1] == number - 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return ranges


def _digest(config: TournamentConfig, folder: Path) -> str:
    """The sha256 of what decides the results: the configuration as a report in `folder` records it."""
    return hashlib.sha256(tomli_w.dumps(config_table(config, folder)).encode()).hexdigest()


def _sources(config: TournamentConfig) -> dict[str, str]:
    """The sha256 of each user strategy's source file, as its report records it (built-in ones come
    with the version)."""
    return {entry.name: entry.sha256 for entry in config.strategies if entry.sha256 is not None}


def _modules(config: TournamentConfig) -> dict[str, dict[str, str]]:
    """For each user strategy given by its file, the sha256 of that file and of each module it
    imports from its folder (see `sources`), by path in that folder."""
    found = {}
    for entry in config.strategies:
        file = spec_file(entry.spec)
        if not entry.builtin and file is not None:
            found[entry.name] = module_digests(Path(file).expanduser())
    return found


def _run_table(config: TournamentConfig) -> dict[str, Any]:
    """How the run went (not what it finds), so a resumed run goes the same way unless told otherwise."""
    table: dict[str, Any] = {"timeout": config.timeout}
    for key in ("workers", "scheduler", "memory_limit"):
        if getattr(config, key) is not None:
            table[key] = getattr(config, key)
    return table


def recorded_path(report: Path, folder: Path) -> str:
    """The report's path as a checkpoint in `folder` records it: its name if it is in that folder,
    else its absolute path (symbolic links kept: the report is written through them)."""
    absolute = Path(os.path.abspath(report))
    return absolute.name if absolute.parent == Path(os.path.abspath(folder)) else str(absolute)


def _identity(path: Path) -> Identity | None:
    """Which file is at `path` (symbolic links followed), None if none is."""
    try:
        return _identity_of(path.stat())
    except (OSError, ValueError):
        return None


def _identity_of(found: os.stat_result) -> Identity:
    return (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)


class Keeper:
    """Keeps a run's checkpoint at `path` as its units finish (`tick` after each, writing at most
    every `seconds`), writes it once more when the run stops early (`keep`) and removes it when the
    run finishes (`discard`). `report` is the report the run writes, which the checkpoint records.

    A run starts only where no file is (else a ConfigError), or from the checkpoint it resumes,
    the file `owned`. It then writes and removes only that file: if another process puts a file
    of its own there, this run keeps no checkpoint from then on. A checkpoint that cannot be
    written (or sealed: no key can be made) is not kept, and the run goes on; `written` says
    whether the file holds one."""

    def __init__(
        self,
        path: Path,
        plan: Plan,
        record: Record,
        *,
        seed_drawn: bool,
        report: Path | None = None,
        owned: Identity | None = None,
        seconds: float = CHECKPOINT_SECONDS,
        match: Mapping[str, Any] | None = None,
    ) -> None:
        if owned is None and os.path.lexists(path):
            raise ConfigError(
                f"checkpoint {str(path)!r} is already there: a run writing the same report was stopped or is "
                f"still running; finish it with {setting('resume', str(path))}, or remove "
                "it to start again."
            )
        self.path = path
        self.seconds = seconds
        self.record = record
        self.owned = owned
        self.given_up = False
        self.started = self.last = time.monotonic()
        self.header: dict[str, Any] = {
            "checkpoint": CHECKPOINT_FORMAT,
            "shutbox_version": shutbox_version(),
            "dice": DICE_SCHEME,
            "bulk": plan.bulk,
            "seed_drawn": seed_drawn,
            "config_sha256": _digest(plan.config, path.parent),
            "sources": _sources(plan.config),
            "modules": _modules(plan.config),
        }
        if report is not None:
            self.header["report"] = recorded_path(report, path.parent)
        if match is not None:  # a match (`play_match`): its SPRT and the size of its units
            self.header["match"] = dict(match)
        self.header[REPORT_CONFIG] = {**config_table(plan.config, path.parent), **_run_table(plan.config)}

    @property
    def written(self) -> bool:
        """Whether the file holds this run's checkpoint."""
        return self.owned is not None

    def tick(self) -> None:
        """Write the checkpoint if the last one (or the run's start) is `seconds` old."""
        if time.monotonic() - self.last >= self.seconds:
            self._write()

    def keep(self) -> Path | None:
        """The run stops early: write the checkpoint once more if it keeps one, or has run long enough
        to and finished some unit; not if a unit was cut off half counted (the last one written
        stands). Its path, or None."""
        due = bool(self.record.units) and time.monotonic() - self.started >= self.seconds
        if not self.record.adding and (self.written or due):
            with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C cuts it short: the last one stands
                self._write()
        return self.path if self.written else None

    def discard(self) -> None:
        """The run finished and its report is written: its checkpoint has served."""
        if self.written and _identity(self.path) == self.owned:
            with contextlib.suppress(OSError):
                through_links(self.path).unlink()
                if self.path.is_symlink():
                    self.path.unlink()
        self.owned = None

    def _write(self) -> None:
        self.last = time.monotonic()
        if self.given_up:
            return
        if _identity(self.path) != self.owned or (self.owned is None and os.path.lexists(self.path)):
            self.given_up, self.owned = True, None  # another process's file: leave it be
            return
        body = tomli_w.dumps({**self.header, **self.record.table()}).encode()
        try:
            key = seal.own_key()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            written = write_atomically(self.path, body + seal.seal_text(key, body))
        except (OSError, ValueError):
            return
        self.owned = _identity_of(written)


@dataclasses.dataclass(frozen=True)
class Saved:
    """A checkpoint read back: the plan to finish (its finished units `done`), the record so far,
    whether the run's seed was drawn, the report the run writes (None: none), and which file it is."""

    path: Path
    plan: Plan
    record: Record
    seed_drawn: bool
    report: Path | None = None
    owned: Identity | None = None
    match: Mapping[str, Any] | None = None
    """A match's settings (`play_match`): `unit_games`, `look_games`, and its `sprt` if it runs one."""


def read_checkpoint(path: Path, options: Options = Options()) -> Saved:
    """Read a checkpoint to resume; `options` may change how the run goes (workers, timeout, ...),
    never what it finds. Any mismatch (another version or dice scheme, a seal that does not hold, a
    configuration or a strategy's source or module changed) or damage, tallies that play cannot
    give included, is a ConfigError of one sentence."""
    _refuse_changes(path, options)
    header, owned = _open(path)
    name = repr(str(path))
    # A checkpoint of format 2 may say whether its run isolated users' strategies: every run does now.
    recorded = {key: value for key, value in header[REPORT_CONFIG].items() if key != ISOLATE}
    config = load_config(path, options, recorded)
    sources = _sources(config)
    for strategy, digest in header["sources"].items():
        if sources.get(strategy) != digest:
            raise ConfigError(
                f"checkpoint {name}: the source of strategy {strategy!r} has changed since the run began; "
                "resume with the source it began with, or start the run again."
            )
    _check_modules(name, header["modules"], _modules(config))
    if config.method != "simulate" or config.seed is None or _digest(config, path.parent) != header["config_sha256"]:
        raise ConfigError(
            f"checkpoint {name}: its configuration was changed after it was written; start the run again."
        )
    match = header.get("match")
    looking = () if match is None else (match["unit_games"], match.get("look_games", 0))
    plan = make_plan(config, header["bulk"], *looking)
    record = _record(path, plan, header)
    plan = dataclasses.replace(plan, done=frozenset(record.units))
    return Saved(path, plan, record, header["seed_drawn"], _report_of(path, header), owned, match)


def recorded_report(path: Path) -> Path | None:
    """The report a resume of the checkpoint at `path` writes when given none (see `resumed_report`),
    once the checkpoint is found to be one, sealed by this user; a ConfigError of one sentence if it
    is not (see `read_checkpoint`)."""
    return resumed_report(path, _report_of(path, _open(path)[0]))


def resumed_report(path: Path, recorded: Path | None) -> Path | None:
    """The report a resume given none writes: the one its checkpoint records (None: none), only if
    the checkpoint is the one a run writing that report keeps beside it (`checkpoint_path`:
    `REPORT.toml` keeps `REPORT.checkpoint.toml`), so the path comes from the one the user names.
    A path read from the file alone is never written: another one is a ConfigError saying how to
    confirm it."""
    if recorded is None or os.path.abspath(checkpoint_path(recorded)) == os.path.abspath(path):
        return recorded
    raise ConfigError(
        f"checkpoint {str(path)!r} says its run writes its report to {str(recorded)!r}, not beside the "
        f"checkpoint; to write it there, say so: resume with {setting('report', str(recorded))} (or another)."
    )


def _report_of(path: Path, header: Mapping[str, Any]) -> Path | None:
    recorded = header.get("report")
    return None if recorded is None else path.parent / recorded


def _check_modules(name: str, then: Mapping[str, Any], now: Mapping[str, Mapping[str, str]]) -> None:
    """A resumed run's strategies are made of the modules they began with."""
    for strategy, digests in then.items():
        found = now.get(strategy, {})
        if not isinstance(digests, dict):
            raise ConfigError(f"{name} is not a shutbox checkpoint, or a damaged one: its modules are not digests.")
        for module in sorted(digests.keys() | found.keys()):
            if digests.get(module) != found.get(module):
                raise ConfigError(
                    f"checkpoint {name}: module {module!r} of strategy {strategy!r} (in its folder) has changed "
                    "since the run began; resume with the modules it began with, or start the run again."
                )


def _refuse_changes(path: Path, options: Options) -> None:
    given = [key for key in RESULT_SETTINGS if getattr(options, key) not in (None, ())]
    given += [rule for rule, value in options.rules.items() if value is not None]
    if given:
        free = [*(setting(name) for name in SETTINGS if name not in RESULT_SETTINGS), setting("report")]
        raise ConfigError(
            f"{setting(given[0])} cannot change a resumed run: checkpoint {str(path)!r} holds its configuration "
            f"(only {', '.join(free[:-1])} and {free[-1]} may be given)."
        )


def _open(path: Path) -> tuple[Mapping[str, Any], Identity | None]:
    """A checkpoint's table, once it is found to be a checkpoint of this shutbox's, sealed by this
    user's key; and which file it is."""
    data = read_bytes(path, "checkpoint", MAX_CHECKPOINT_BYTES)
    owned = _identity(path)
    try:
        raw = tomllib.loads(data.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        raise ConfigError(f"{str(path)!r} is not a shutbox checkpoint: it is not valid TOML.") from None
    name = repr(str(path))
    if raw.get("checkpoint") != CHECKPOINT_FORMAT and "config_sha256" in raw:  # a checkpoint, of another layout
        raise ConfigError(
            f"checkpoint {name} was written by shutbox {raw.get('shutbox_version')} in another checkpoint format "
            f"({raw.get('checkpoint', 0)!r}, this shutbox reads {CHECKPOINT_FORMAT}); resume it with the shutbox "
            "that wrote it, or start the run again."
        )
    header = _fields(path, raw)
    if header["shutbox_version"] != shutbox_version():
        raise ConfigError(
            f"checkpoint {name} was written by shutbox {header['shutbox_version']}, not this shutbox "
            f"{shutbox_version()}; resume it with that version, or start the run again."
        )
    if header["dice"] != DICE_SCHEME:
        raise ConfigError(
            f"checkpoint {name} was dealt with the dice scheme {header['dice']!r}, not this shutbox's "
            f"{DICE_SCHEME!r}; start the run again."
        )
    seal.check_seal(name, data, header["seal"])
    return header, owned


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


def _fields(path: Path, raw: Mapping[str, Any]) -> Mapping[str, Any]:
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
        and all(key in ("elo0", "elo1", "alpha", "beta") and type(value) is float for key, value in sprt.items())
    ):
        raise _damaged(path, "its key 'match' is not a match's settings")
    return raw


def _damaged(path: Path, why: str) -> ConfigError:
    return ConfigError(f"{str(path)!r} is not a shutbox checkpoint, or a damaged one: {why}.")


def _record(path: Path, plan: Plan, raw: Mapping[str, Any]) -> Record:
    """The record of a checkpoint, checked against the plan: known units, per matchup the games
    those units hold, and tallies that playing those games can give (see `audit`)."""
    count = plan.unit_count
    units: set[int] = set()
    for pair in raw["units"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(end) is int for end in pair)):
            raise _damaged(path, f"its units hold {pair!r}, not a range [first, last]")
        if not 0 <= pair[0] <= pair[1] < count:
            raise _damaged(path, f"it names work units {pair} of the {count:,} its plan has")
        units.update(range(pair[0], pair[1] + 1))
    expected = [0] * len(plan.matchups)
    for unit in map(plan.unit, units):  # the finished ones only: a plan may have a billion
        for matchup in unit.matchups:
            expected[matchup] += unit.deals * plan.table
    record = Record.empty(plan)
    record.units = units
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
