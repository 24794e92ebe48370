"""Every error a tournament or an analysis can raise, from one place.

`TournamentError` is the base of them all. A caller that only wants to know whether to blame
its input, a strategy or Ctrl-C catches the three kinds below it.
"""

from __future__ import annotations

from pathlib import Path

from shutbox_cli.game.terms import Seed


class TournamentError(Exception):
    """Base of the errors raised by the tournaments library."""


class ConfigError(TournamentError, ValueError):
    """A configuration mistake; the message is one sentence naming where and which key."""


class FileWriteError(TournamentError, OSError):
    """A report that cannot be written; the message is one sentence naming the file and why.
    `checkpoint` is the file a finished run left to write it from (set by `run`), if any."""

    checkpoint: Path | None = None


class TournamentFailure(TournamentError):
    """The run cannot go on: a strategy failed, a worker died or a unit ran past the time limit.
    `checkpoint` is the file the run left to resume from (set by `run`), if any."""

    checkpoint: Path | None = None


class Interrupted(TournamentError):
    """The run was stopped (Ctrl-C) after `games` of its `total` games; `seed` repeats it, and
    `checkpoint` (if the run left one) resumes it."""

    def __init__(self, games: int, total: int, seed: Seed, checkpoint: Path | None = None) -> None:
        super().__init__(f"interrupted after {games:,} of {total:,} games (seed {seed})")
        self.games = games
        self.total = total
        self.seed = seed
        self.checkpoint = checkpoint
