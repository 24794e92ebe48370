"""A knockout's result and its report (`kind = "knockout"`, docs/report.md): the seed, how the field
was seeded, the winner, the SPRT its ties ran (if any), each round's ties with their figures, and
the configuration with the field in seed order, which `shutbox tournament REPORT` reruns."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from ..briefly import brief, counted
from ..field.config import REPORT_CONFIG, TournamentConfig, config_table
from ..records.schema import header, interval, rounded
from ..statistics.elo import Match, Sprt, elo
from .bracket import round_name
from .ties import Tie

ELO_DIGITS = 2
"""Decimal places of an Elo difference, as a match's report writes them."""


@dataclasses.dataclass(frozen=True)
class Knockout:
    """A knockout played: its `config` (the field in seed order, the seed set), how it was seeded,
    the SPRT its ties ran, and its rounds of ties, the first round first."""

    config: TournamentConfig
    seeding: str
    sprt: Sprt | None
    rounds: tuple[tuple[Tie, ...], ...]
    seed_drawn: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """The field in seed order: the first is seed 1."""
        return self.config.names

    @property
    def winner(self) -> str:
        return self.names[self.rounds[-1][0].winner] if self.rounds else self.names[0]

    @property
    def games(self) -> int:
        """The games played over every tie."""
        return sum(tie.games for ties in self.rounds for tie in ties)

    def __repr__(self) -> str:
        field = f"of {counted(len(self.names), 'strategy', 'strategies')}, seed {self.config.seed}"
        return brief("Knockout", field, f"{self.winner} won", f"{counted(self.games, 'game')} played")

    def round_names(self) -> list[str]:
        """Each round's name, the first round's first."""
        return [round_name(2 * len(ties)) for ties in self.rounds]

    def to_report(self, folder: Path | None = None) -> dict[str, Any]:
        """The report, to be written in `folder` (None: the current one)."""
        table: dict[str, Any] = {
            **header("knockout"),
            "seed": self.config.seed,
            "seeding": self.seeding,
            "winner": self.winner,
            "games": self.games,
        }
        if self.sprt is not None:
            table["sprt"] = sprt_table(self.sprt)
        table["round"] = [
            {"name": name, "tie": [self._tie_table(tie) for tie in ties]}
            for name, ties in zip(self.round_names(), self.rounds, strict=True)
        ]
        table[REPORT_CONFIG] = config_table(self.config, folder)
        return table

    def _tie_table(self, tie: Tie) -> dict[str, Any]:
        row: dict[str, Any] = {"first": self.names[tie.first], "first_seed": tie.first + 1}
        if tie.second is not None:
            row |= {"second": self.names[tie.second], "second_seed": tie.second + 1}
        row |= {"winner": self.names[tie.winner], "decided": tie.decided}
        if tie.exact is not None:
            row |= {"method": "exact", "exact_score": tie.exact, **_finite("exact_elo", elo(tie.exact))}
        elif tie.match is not None:
            row |= {"method": "simulate", "games": tie.games, **_match_figures(tie.match)}
        return row


def sprt_table(sprt: Sprt) -> dict[str, Any]:
    """An SPRT's settings as a report writes them (its model only where it is not the logistic one)."""
    model = {"model": sprt.model} if sprt.normalized else {}
    return {**model, **{key: float(getattr(sprt, key)) for key in ("elo0", "elo1", "alpha", "beta")}}


def _match_figures(match: Match) -> dict[str, Any]:
    """A played tie's figures, from the higher seed's side: as a match's report has them."""
    pairs, estimate = match.pairs, match.estimate
    figures: dict[str, Any] = {
        "pairs": pairs.pairs,
        "pentanomial": list(pairs.counts),
        "score": rounded(pairs.score),
        "score_ci95": interval(pairs.score_interval()),
        **_finite("elo", estimate.elo),
        **_finite_interval("elo_ci95", estimate.interval),
        **_finite("nelo", match.nelo[0]),
        **_finite_interval("nelo_ci95", match.nelo[1]),
    }
    if match.sprt is not None:
        figures |= {"llr": rounded(match.llr), "verdict": match.verdict.value}
    return figures


def _finite(key: str, value: float) -> dict[str, float]:
    return {key: round(value, ELO_DIGITS) + 0.0} if math.isfinite(value) else {}


def _finite_interval(key: str, bounds: tuple[float, float]) -> dict[str, list[float]]:
    return {key: [round(bound, ELO_DIGITS) + 0.0 for bound in bounds]} if all(map(math.isfinite, bounds)) else {}
