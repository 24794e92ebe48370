"""One call plays a knockout (the library's and `shutbox tournament --system knockout`'s): load the
field, draw the seed if there is none, seed the field, and play the bracket round by round, each
tie a match of game pairs on the knockout's seed (every tie dealt the same deals, as every matchup
of a round robin is), or computed exactly where both can be. Its report is written whole or not at
all. The same seed gives the same bracket at any number of workers: each tie is a match, whose
figures and SPRT verdict are those of its seed."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

from shutbox_cli.game import draw_seed

from ..backends.base import Backend
from ..errors import ConfigError, setting
from ..field.config import Options, TournamentConfig, load_config
from ..files import check_writable, format_of, write_table_atomically
from ..records.checked import read_checked
from ..statistics.elo import Sprt
from .bracket import first_round, pairs_of
from .result import Knockout
from .seeding import SEEDINGS, seeded
from .ties import Tie, bye, play_tie

Progress = Callable[[int, int], None]
"""Told the games played so far and about how many the knockout will play (fewer once a tie is
computed exactly or its SPRT decides)."""


def play_knockout(
    config: TournamentConfig | Options | str | os.PathLike[str] | None = None,
    options: Options = Options(),
    *,
    seeding: str | None = None,
    ratings: str | os.PathLike[str] | None = None,
    sprt: Sprt | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    report: str | os.PathLike[str] | None = None,
    loaded: Callable[[TournamentConfig], None] | None = None,
) -> Knockout:
    """Play a knockout of the field and return it, writing its `report` if given.

    `config` and `options` are as `run` takes them; the knockout plays at a table of two, each tie
    `config.games` games (in pairs, the seats swapped) or, with `sprt`, to the test's verdict with
    that many at most. The field is seeded by `seeding` ("order", the default: as given; "ratings":
    by the ratings of the tournament report `ratings`; "exact": by the field's exact tournament,
    every entrant exact). Given a knockout's report as `config`, it plays that knockout again: its
    field in its seed order, its seed, its seeding (unless `seeding` is given) and, unless `sprt` is
    given, its SPRT.

    Raises ConfigError (one sentence) for a field or setting a knockout cannot take, and what `run`
    raises when a strategy fails."""
    if isinstance(config, Options):
        options, config = config, None
    recorded = None
    if isinstance(config, (str, os.PathLike)):
        sprt = _recorded_sprt(Path(config)) if sprt is None else sprt
        recorded = _recorded_seeding(Path(config)) if seeding is None and ratings is None else None
    if not isinstance(config, TournamentConfig):
        config = load_config(None if config is None else Path(config), options)
    _check(config)
    if loaded is not None:
        loaded(config)
    written = None if report is None else Path(report)
    if written is not None:
        check_writable(written)
    seed_drawn = config.seed is None
    config = dataclasses.replace(config, seed=draw_seed() if config.seed is None else config.seed)
    if recorded is None:  # a replay's field is in its seed order already
        seeding = seeding or "order"
        config = seeded(config, seeding, ratings)
    rounds = _play_rounds(config, sprt, backend, progress)
    knockout = Knockout(config, recorded or seeding or "order", sprt, rounds, seed_drawn)
    if written is not None:
        write_table_atomically(written, knockout.to_report(written.parent), format_of(written))
    return knockout


def is_knockout_report(path: str | os.PathLike[str]) -> bool:
    """Whether a file is a knockout's report (which `shutbox tournament FILE` plays again as one); a
    file that cannot be read is none (the tournament's loading then says why)."""
    try:
        return read_checked(Path(path), "config file").get("kind") == "knockout"
    except ConfigError:
        return False


def _recorded_sprt(path: Path) -> Sprt | None:
    """The SPRT a knockout's report records, if it is one and its ties ran one (a file that cannot be
    read records none: loading it says why)."""
    try:
        report = read_checked(path, "config file")
    except ConfigError:
        return None
    settings = report.get("sprt") if report.get("kind") == "knockout" else None
    if not isinstance(settings, dict):
        return None
    try:
        return Sprt(**settings)
    except TypeError:
        raise ConfigError(f"{str(path)!r} is not a report shutbox wrote: its sprt is not an SPRT's settings.") from None


def _recorded_seeding(path: Path) -> str | None:
    """The seeding a knockout's report records, if it is one (its field is then in that seed order)."""
    try:
        report = read_checked(path, "config file")
    except ConfigError:
        return None
    seeding = report.get("seeding") if report.get("kind") == "knockout" else None
    return seeding if seeding in SEEDINGS else None


def _check(config: TournamentConfig) -> None:
    """Refuse, in one sentence, what a knockout cannot play."""
    if len(config.strategies) < 2:
        raise ConfigError(f"a knockout needs two strategies or more, not {len(config.strategies)}.")
    if config.table != 2:
        raise ConfigError(f"a knockout's ties are played at a table of two, not {setting('table', config.table)}.")
    if config.gauntlet:
        raise ConfigError(f"a knockout is not a gauntlet: leave out {setting('gauntlet')}.")
    if config.method == "exact":
        raise ConfigError(
            "a knockout computes each tie exactly where both strategies can be, and plays it otherwise: "
            f"leave out {setting('method', 'exact')}."
        )
    if not config.duplicate:
        raise ConfigError(f"a knockout's ties are game pairs on duplicate deals, not {setting('duplicate', False)}.")
    if config.on_failure != "stop":  # a tie left without pairs must never pass for a draw
        raise ConfigError(
            f"{setting('on_failure', config.on_failure)} does not go with a knockout: a tie a strategy fails in "
            f"has no pairs to decide it, so a knockout stops at the failure ({setting('on_failure', 'stop')})."
        )


def _play_rounds(
    config: TournamentConfig, sprt: Sprt | None, backend: Backend | None, progress: Progress | None
) -> tuple[tuple[Tie, ...], ...]:
    """Every round of the bracket, each tie played in order; the winners meet in the next round."""
    places = first_round(len(config.strategies))
    ties_left = len(config.strategies) - 1 - places.count(None)  # every tie but the byes
    played = [0, ties_left * config.games]  # games so far, and the most the knockout may play
    rounds: list[tuple[Tie, ...]] = []
    while len(places) > 1:
        ties = []
        for first, second in pairs_of(places):
            assert first is not None  # the higher seed of a tie is never a bye
            if second is None:
                ties.append(bye(first))
                continue
            tie = play_tie(config, min(first, second), max(first, second), sprt, backend, _told(played, progress))
            played[0] += tie.games
            played[1] -= config.games - tie.games
            ties.append(tie)
        rounds.append(tuple(ties))
        places = [tie.winner for tie in ties]
    if progress is not None:
        progress(played[0], played[0])
    return tuple(rounds)


def _told(played: list[int], progress: Progress | None) -> Progress | None:
    """A tie's progress as the knockout's: its games after those of the ties before it."""
    if progress is None:
        return None
    return lambda games, _total: progress(played[0] + games, played[1])
