"""A small tournament configuration, built as the command line builds one (public `load_config`)."""

from __future__ import annotations

from typing import Any

from tournaments import Options, TournamentConfig, load_config


def small_config(*specs: str, games: int = 60, seed: int | None = 7, **options: Any) -> TournamentConfig:
    """A tournament of `specs` (two built-ins when none) for `games` games from `seed`; `options` as
    `Options` takes them."""
    given = Options(strategies=specs or ("greedy-high", "random"), games=games, seed=seed, **options)
    return load_config(None, given)
