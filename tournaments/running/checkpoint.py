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

This module holds what a checkpoint is (its format, its path, the record of finished work); a
run keeps one with `checkpoint_keeper.Keeper`, and a resume reads it with
`checkpoint_reading.read_checkpoint`, which trusts its contents once `checkpoint_checks` has.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from strategies.loading import spec_file

from ..field.config import TournamentConfig, config_table
from ..field.sources import module_digests
from ..playing.plan import Plan
from ..playing.tally import Tally
from ..playing.units import Forfeit, UnitResult

if TYPE_CHECKING:  # a match's Elo module loads where a match is played
    from ..statistics.elo import Look


CHECKPOINT_FORMAT = 7
"""The layout of a checkpoint's keys: raised whenever what a checkpoint holds changes, so that one
written by another shutbox is refused as such, not as damaged (the version string may not change).
2: the report the run writes, the digests of the modules a strategy imports, the seal. 3: a tally at
a table of two ends with its pentanomial. 4: a match's SPRT keeps its looks (`looks`). 5: a work
unit played turn by turn holds about 2,000 games (it held 400). 6: a match's SPRT looks within
units, every `look_games` games (it looked after whole units). 7: the failures the run went on after
(`forfeit`, `running.forfeits`)."""
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
    forfeits: list[Forfeit] = dataclasses.field(default_factory=list)
    """The failures the run went on after, in order (`forfeits`)."""
    withheld: int = 0
    """The games its forfeits keep from being played (told with the games played as progress)."""

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
            **({"forfeit": [dataclasses.asdict(forfeit) for forfeit in self.forfeits]} if self.forfeits else {}),
        }


def _ranges(numbers: set[int]) -> list[list[int]]:
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and ranges[-1][1] == number - 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return ranges


def config_digest(config: TournamentConfig, folder: Path) -> str:
    """The sha256 of what decides the results: the configuration as a report in `folder` records it."""
    return hashlib.sha256(tomli_w.dumps(config_table(config, folder)).encode()).hexdigest()


def source_digests(config: TournamentConfig) -> dict[str, str]:
    """The sha256 of each user strategy's source file, as its report records it (built-in ones come
    with the version)."""
    return {entry.name: entry.sha256 for entry in config.strategies if entry.sha256 is not None}


def module_digests_of(config: TournamentConfig) -> dict[str, dict[str, str]]:
    """For each user strategy given by its file, the sha256 of that file and of each module it
    imports from its folder (see `sources`), by path in that folder."""
    found = {}
    for entry in config.strategies:
        file = spec_file(entry.spec)
        if not entry.builtin and file is not None:
            found[entry.name] = module_digests(Path(file).expanduser())
    return found


def run_table(config: TournamentConfig) -> dict[str, Any]:
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


def identity(path: Path) -> Identity | None:
    """Which file is at `path` (symbolic links followed), None if none is."""
    try:
        return identity_of(path.stat())
    except (OSError, ValueError):
        return None


def identity_of(found: os.stat_result) -> Identity:
    return (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)
