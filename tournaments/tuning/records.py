"""A tune's records: its settings (`TuneSettings`), each trial, the confirmation and the whole tune
(`Tuning`) as its report writes it (docs/report.md, `kind = "tune"`); `reading` reads it back."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from shutbox_cli.game import DICE_SCHEME, Rules
from shutbox_cli.game.terms import Seed

from ..errors import ConfigError
from ..field.config import MAX_CONFIG_BYTES
from ..records.schema import Method, header, interval, rounded, rules_table
from .space import Parameter, Value

Objective = Literal["win-rate", "mean-score", "shut-rate"]
OBJECTIVES: tuple[Objective, ...] = ("win-rate", "mean-score", "shut-rate")
"""What a tune may maximise: the win rate against the field, the shut rate; or minimise: the mean score."""
DEFAULT_GAMES = 20_000
"""Games per candidate (per matchup) in a simulated tune's first round."""
CONFIRM_GAMES = 50_000
"""Games per matchup of a simulated tune's confirmation run."""
DEFAULT_TRIALS = 40
"""Trials of an Optuna search (`--trials`)."""
Search = Literal["exhaustive", "grid", "successive-halving", "optuna"]
"""How the candidates were chosen: all of the grid, exact or simulated; the better half each round;
or sampled by Optuna's TPE."""
SEARCHES: dict[str, Search] = {"grid": "grid", "halving": "successive-halving", "optuna": "optuna"}
"""The simulated searches `--method` names, and their names in a report."""
TUNE_METHODS = ("exact", "simulate", *SEARCHES)
"""What `--method` takes: exact, or simulated with the search chosen by the ranges, or a search named."""
MAX_REPORT_BYTES = 16 * MAX_CONFIG_BYTES
"""The largest tune report `read_tune` reads (a trial takes about 150 bytes)."""


@dataclasses.dataclass(frozen=True)
class Trial:
    """One candidate's figure: exact, or from `games` games on `seed` in halving round `round`
    (0: the first, or the whole grid), with its 95% interval."""

    values: dict[str, Value]
    objective: float
    interval: tuple[float, float] | None = None
    games: int | None = None
    seed: Seed | None = None
    round: int = 0

    def key(self) -> tuple[Any, ...]:
        return (tuple(self.values.items()), self.games, self.seed)

    def to_report(self) -> dict[str, Any]:
        table: dict[str, Any] = {"values": dict(self.values), "objective": rounded(self.objective)}
        if self.interval is not None:
            table |= {"objective_ci95": interval(self.interval), "games": self.games, "seed": self.seed}
            table["round"] = self.round
        return table


@dataclasses.dataclass(frozen=True)
class Confirmation:
    """The best candidate against the starting values on a fresh seed: the objective's difference
    (best minus start) with its 95% interval, paired over the field's deals (None solo, where each
    one's figure is given with its own interval)."""

    seed: Seed
    games: int
    best: float
    start: float
    difference: float | None
    difference_ci95: tuple[float, float] | None
    best_ci95: tuple[float, float] | None
    start_ci95: tuple[float, float] | None

    def to_report(self) -> dict[str, Any]:
        table: dict[str, Any] = {"seed": self.seed, "games": self.games, "best": rounded(self.best)}
        if self.best_ci95 is not None:
            table["best_ci95"] = interval(self.best_ci95)
        table["start"] = rounded(self.start)
        if self.start_ci95 is not None:
            table["start_ci95"] = interval(self.start_ci95)
        if self.difference is not None and self.difference_ci95 is not None:
            table |= {"difference": rounded(self.difference), "difference_ci95": interval(self.difference_ci95)}
        return table


@dataclasses.dataclass(frozen=True)
class TuneSettings:
    """What a tune searches: `spec` (its own parameters the starting values), the ranges, the field
    (empty: solo), the rules, the objective, and how: method (one of `TUNE_METHODS`; None: exact
    where it can be), games and seed of the first round (seed None: drawn), the confirmation's
    games, an Optuna search's trials (None: `DEFAULT_TRIALS`), workers and scheduler."""

    spec: str
    parameters: tuple[Parameter, ...]
    field: tuple[str, ...] = ()
    rules: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    objective: str | None = None
    method: str | None = None
    games: int = DEFAULT_GAMES
    seed: Seed | None = None
    confirm_games: int = CONFIRM_GAMES
    trials: int | None = None
    workers: int | None = None
    scheduler: str | None = None

    @property
    def solo(self) -> bool:
        return not self.field

    @property
    def goal(self) -> Objective:
        """The objective asked for (one of `OBJECTIVES`), else the win rate, or alone the mean score."""
        for objective in OBJECTIVES:
            if objective == self.objective:
                return objective
        return "mean-score" if self.solo else "win-rate"

    def check(self) -> None:
        """Refuse, in one sentence, an objective or method that does not exist, or too few games."""
        if self.objective is not None and self.objective not in OBJECTIVES:
            raise ConfigError(f"the objective must be one of {', '.join(OBJECTIVES)}, not {self.objective!r}.")
        if self.method is not None and self.method not in TUNE_METHODS:
            raise ConfigError(f"the method must be one of {', '.join(TUNE_METHODS)}, not {self.method!r}.")
        if self.trials is not None and self.trials < 1:
            raise ConfigError(f"a tune's trials must be 1 or more, not {self.trials}.")
        for what, games in (("games", self.games), ("confirm_games", self.confirm_games)):
            if games < 2:
                raise ConfigError(f"a tune's {what} must be 2 or more, not {games}.")


@dataclasses.dataclass(frozen=True)
class Tuning:
    """A tune's trials, best values and (simulated) confirmation; `done` is False for one stopped
    before its end, whose report keeps the trials so far."""

    settings: TuneSettings
    rules: Rules
    method: Method
    search: Search
    seed: Seed | None
    trials: tuple[Trial, ...]
    best: dict[str, Value] | None
    best_objective: float | None
    start: dict[str, Any]
    start_objective: float | None = None
    confirmation: Confirmation | None = None
    done: bool = True
    notes: tuple[str, ...] = ()
    """A sentence for each best value at an end of its range (`edges`)."""

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        field = ", ".join(self.settings.field) or "alone"
        tuned = f"of {self.settings.spec} against {field}" if self.settings.field else f"of {self.settings.spec} alone"
        how = f"{'exact' if self.exact else self.search}, {counted(len(self.trials), 'trial')}"
        best = "no best yet" if self.best is None else "best " + ", ".join(f"{k}={v!r}" for k, v in self.best.items())
        found = "" if self.best_objective is None else f" ({self.settings.goal} {self.best_objective:.4f})"
        return brief(
            "Tuning", f"{tuned}, for {self.settings.goal}", how, best + found + ("" if self.done else ", stopped")
        )

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def to_report(self) -> dict[str, Any]:
        """The tune as a report table (docs/report.md, [tune])."""
        from ..referee.confinement import report_field

        settings = self.settings
        report: dict[str, Any] = {**header("tune"), "method": self.method, "done": self.done}
        report |= report_field([settings.spec, *settings.field])
        if self.seed is not None:
            report |= {"seed": self.seed, "dice": DICE_SCHEME}
        report |= {
            "spec": settings.spec,
            "field": list(settings.field),
            "objective": settings.goal,
            "goal": "min" if settings.goal == "mean-score" else "max",
            "search": self.search,
            "parameters": [_parameter(one) for one in settings.parameters],
            "rules": rules_table(self.rules),
            "start": dict(self.start),
        }
        if not self.exact:
            report |= {"games": settings.games, "confirm_games": settings.confirm_games}
        if self.search == "optuna":
            report["trials"] = settings.trials or DEFAULT_TRIALS
        if self.start_objective is not None:
            report["start_objective"] = rounded(self.start_objective)
        if self.best is not None and self.best_objective is not None:
            report["best"] = {"values": dict(self.best), "objective": rounded(self.best_objective)}
        if self.confirmation is not None:
            report["confirmation"] = self.confirmation.to_report()
        if self.notes:
            report["notes"] = list(self.notes)
        report["trial"] = [trial.to_report() for trial in self.trials]
        return report


def _parameter(parameter: Parameter) -> dict[str, Any]:
    table: dict[str, Any] = {"name": parameter.name, "low": parameter.low, "high": parameter.high}
    return table if parameter.step is None else table | {"step": parameter.step}
