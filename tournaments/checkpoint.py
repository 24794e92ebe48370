"""Checkpoints: a long tournament keeps what it has finished in a file, so a run stopped by Ctrl-C,
a failure or a crash can be resumed, and finishes with the report an uninterrupted run writes.

A checkpoint is a TOML file holding its format (`checkpoint = CHECKPOINT_FORMAT`), the
configuration (seed included, and how the run went: workers, timeout, ...), the dice scheme,
shutbox's version, a digest of each user strategy's source, the numbers of the finished work units
and their tallies summed per matchup. It is written whole or not at all (a temporary file renamed
over it) at most every `CHECKPOINT_SECONDS` from the runner's callback, and once more when the run
stops early. A run that finishes removes it; one that ends within the first interval never writes
it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli_w

from shutbox_cli.game import DICE_SCHEME

from .config import REPORT_CONFIG, Options, TournamentConfig, config_table, load_config
from .errors import ConfigError
from .files import read_bytes, write_atomically
from .plan import Plan, make_plan
from .tally import Tally, count_length
from .units import UnitResult
from .version import shutbox_version

CHECKPOINT_FORMAT = 1
"""The layout of a checkpoint's keys: raised whenever what a checkpoint holds changes, so that one
written by another shutbox is refused as such, not as damaged (the version string may not change)."""
CHECKPOINT_SECONDS = 5.0
"""A run writes its checkpoint at most this often, and not before it has run this long."""
MAX_CHECKPOINT_BYTES = 128 << 20
"""A checkpoint holds a few numbers per matchup: one larger than this is not one."""
SUFFIX = ".checkpoint.toml"
_RESULT_OPTIONS = {"strategies": "--strategy", "games": "--games", "table": "--table", "seed": "--seed"}
_RESULT_OPTIONS |= {"duplicate": "--duplicate/--no-duplicate", "method": "--exact/--simulate"}


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

    @classmethod
    def empty(cls, plan: Plan) -> Record:
        return cls([[Tally() for _ in matchup.players] for matchup in plan.matchups], set())

    def add(self, result: UnitResult) -> None:
        """Count one finished unit."""
        self.adding = True
        for matchup, counted in result.tallies.items():
            for tally, more in zip(self.tallies[matchup], counted, strict=True):
                tally.add(more)
        self.games += result.games
        self.units.add(result.unit)
        self.adding = False

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


def _run_table(config: TournamentConfig) -> dict[str, Any]:
    """How the run went (not what it finds), so a resumed run goes the same way unless told otherwise."""
    table: dict[str, Any] = {"timeout": config.timeout, "isolate": config.isolate}
    for key in ("workers", "scheduler", "memory_limit"):
        if getattr(config, key) is not None:
            table[key] = getattr(config, key)
    return table


class Keeper:
    """Keeps a run's checkpoint at `path` as its units finish (`tick` after each, writing at most
    every `seconds`), writes it once more when the run stops early (`keep`) and removes it when the
    run finishes (`discard`).
    A checkpoint that cannot be written is not kept, and the run goes on; `written` says whether
    the file holds one (a resumed run's does from the start)."""

    def __init__(
        self,
        path: Path,
        plan: Plan,
        record: Record,
        *,
        seed_drawn: bool,
        written: bool = False,
        seconds: float = CHECKPOINT_SECONDS,
    ) -> None:
        self.path = path
        self.seconds = seconds
        self.record = record
        self.written = written
        self.started = self.last = time.monotonic()
        self.header: dict[str, Any] = {
            "checkpoint": CHECKPOINT_FORMAT,
            "shutbox_version": shutbox_version(),
            "dice": DICE_SCHEME,
            "bulk": plan.bulk,
            "seed_drawn": seed_drawn,
            "config_sha256": _digest(plan.config, path.parent),
            "sources": _sources(plan.config),
            REPORT_CONFIG: {**config_table(plan.config, path.parent), **_run_table(plan.config)},
        }

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
        """The run finished: its checkpoint has served."""
        if self.written:
            self.path.unlink(missing_ok=True)
            self.written = False

    def _write(self) -> None:
        self.last = time.monotonic()
        if self.path.exists() and not self.path.is_file():
            return
        data = tomli_w.dumps({**self.header, **self.record.table()}).encode()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, data)
        except OSError:
            return
        self.written = True


@dataclasses.dataclass(frozen=True)
class Saved:
    """A checkpoint read back: the plan to finish (its finished units `done`), the record so far,
    and whether the run's seed was drawn."""

    path: Path
    plan: Plan
    record: Record
    seed_drawn: bool


def read_checkpoint(path: Path, options: Options = Options()) -> Saved:
    """Read a checkpoint to resume; `options` may change how the run goes (workers, timeout, ...),
    never what it finds. Any mismatch (another version or dice scheme, a configuration or a
    strategy's source changed) or damage is a ConfigError of one sentence."""
    _refuse_changes(path, options)
    raw = _read(path)
    name = repr(str(path))
    if raw.get("checkpoint") != CHECKPOINT_FORMAT and "config_sha256" in raw:  # a checkpoint, of another layout
        raise ConfigError(
            f"checkpoint {name} was written by shutbox {raw['shutbox_version']} in another checkpoint format "
            f"({raw.get('checkpoint', 0)!r}, this shutbox reads {CHECKPOINT_FORMAT}); resume it with that shutbox, "
            "or start the run again."
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
    config = load_config(path, options, header[REPORT_CONFIG])
    sources = _sources(config)
    for strategy, digest in header["sources"].items():
        if sources.get(strategy) != digest:
            raise ConfigError(
                f"checkpoint {name}: the source of strategy {strategy!r} has changed since the run began; "
                "resume with the source it began with, or start the run again."
            )
    if config.method != "simulate" or config.seed is None or _digest(config, path.parent) != header["config_sha256"]:
        raise ConfigError(
            f"checkpoint {name}: its configuration was changed after it was written; start the run again."
        )
    plan = make_plan(config, header["bulk"])
    record = _record(path, plan, raw)
    return Saved(path, dataclasses.replace(plan, done=frozenset(record.units)), record, header["seed_drawn"])


def _refuse_changes(path: Path, options: Options) -> None:
    given = [flag for key, flag in _RESULT_OPTIONS.items() if getattr(options, key) not in (None, ())]
    given += ["--" + rule.replace("_", "-") for rule, value in options.rules.items() if value is not None]
    if given:
        raise ConfigError(
            f"{given[0]} cannot change a resumed run: checkpoint {str(path)!r} holds its configuration "
            "(only --workers, --scheduler, --timeout, --memory-limit, --isolate and --report may be given)."
        )


def _read(path: Path) -> dict[str, Any]:
    """The checkpoint's TOML table: a regular file of at most MAX_CHECKPOINT_BYTES."""
    data = read_bytes(path, "checkpoint", MAX_CHECKPOINT_BYTES)
    try:
        return tomllib.loads(data.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        raise ConfigError(f"{str(path)!r} is not a shutbox checkpoint: it is not valid TOML.") from None


_HEADER_TYPES: dict[str, type] = {
    "checkpoint": int,
    "shutbox_version": str,
    "dice": str,
    "bulk": bool,
    "seed_drawn": bool,
    "config_sha256": str,
    "sources": dict,
    REPORT_CONFIG: dict,
    "games": int,
    "units": list,
    "tallies": dict,
}


def _fields(path: Path, raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The checkpoint's keys, each checked to be there with its type."""
    for key, kind in _HEADER_TYPES.items():
        if not isinstance(raw.get(key), kind) or (kind is int and isinstance(raw[key], bool)):
            article = "an" if kind.__name__[0] in "aeiou" else "a"
            raise _damaged(path, f"its key {key!r} is missing or not {article} {kind.__name__}")
    if not all(isinstance(digest, str) for digest in raw["sources"].values()):
        raise _damaged(path, "its key 'sources' holds something other than digests")
    return raw


def _damaged(path: Path, why: str) -> ConfigError:
    return ConfigError(f"{str(path)!r} is not a shutbox checkpoint, or a damaged one: {why}.")


def _record(path: Path, plan: Plan, raw: Mapping[str, Any]) -> Record:
    """The record of a checkpoint, checked against the plan: known units, and per matchup the
    games those units hold."""
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
    if raw["games"] != record.games or any(
        tally.games != games for counted, games in zip(record.tallies, expected, strict=True) for tally in counted
    ):
        raise _damaged(path, "its tallies do not add up to the games of its finished units")
    return record


def _tallies(path: Path, plan: Plan, matchup: int, counts: object) -> list[Tally]:
    players = len(plan.matchups[matchup].players)
    if not (isinstance(counts, list) and len(counts) == players and all(isinstance(text, str) for text in counts)):
        raise _damaged(path, f"the tallies of matchup {matchup} are not {players} strings of counts")
    tallies = []
    for text in counts:
        numbers = text.split()
        if len(numbers) != count_length(players) or not all(
            number.isascii() and number.isdigit() for number in numbers
        ):
            raise _damaged(path, f"a tally of matchup {matchup} is {text!r}, not {count_length(players)} counts")
        tallies.append(Tally.of_counts(list(map(int, numbers)), players))
    return tallies
