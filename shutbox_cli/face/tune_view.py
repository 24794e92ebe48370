"""A tune's results for people: its progress on stderr, every trial in a table (the best marked),
the best values and the confirmation."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import typer

from .progress import progress_bar

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Trial, Tuning

Told = Callable[["Trial", int, int], None]
"""Told each trial as it ends, the trials so far and the most planned (`tournaments.tune`'s `told`)."""


@contextlib.contextmanager
def telling(goal: str, quiet: bool) -> Iterator[Told | None]:
    """A tune's progress on stderr: a live bar of the trials and the best so far on a terminal, else
    a line per trial; nothing when `quiet`. Never on stdout, where a report may go."""
    if quiet:
        yield None
        return
    best: list[Trial] = []

    def so_far() -> str:
        return f"best {_values(best[0].values)}: {_shown(best[0].objective, goal)}" if best else ""

    with progress_bar(unit="trials", extra=so_far) as bar:

        def tell(trial: Trial, found: int, most: int) -> None:
            if not best or _better(trial.objective, best[0].objective, goal):
                best[:] = [trial]
            if bar is None:
                typer.echo(f"trial {found}/{most}: {trial_line(trial, goal)}", err=True)
            else:
                bar(found, most)

        yield tell


def _better(value: float, than: float, goal: str) -> bool:
    return value < than if goal == "mean-score" else value > than


def _values(values: dict[str, int | float]) -> str:
    return ", ".join(f"{name}={value}" for name, value in values.items())


def _shown(value: float, goal: str) -> str:
    """A rate in percent, a mean score as it is."""
    return f"{value:.4f}" if goal == "mean-score" else f"{value:.3%}"


def _figure(value: float, goal: str, bounds: tuple[float, float] | None = None) -> str:
    shown = _shown(value, goal)
    return shown if bounds is None else f"{shown} [{_shown(bounds[0], goal)}, {_shown(bounds[1], goal)}]"


def _difference(value: float, goal: str, bounds: tuple[float, float]) -> str:
    """A paired difference: in points for a rate, in score for a mean score."""
    scale, unit = (1.0, "") if goal == "mean-score" else (100.0, " points")
    low, high = (bound * scale for bound in bounds)
    return f"{value * scale:+.3f}{unit} (95% CI {low:+.3f} to {high:+.3f})"


def trial_line(trial: Trial, goal: str) -> str:
    """One trial in a line: its values, its figure (and interval), its games."""
    rounds = f", round {trial.round + 1}" if trial.round else ""  # halving's later rounds
    played = "" if trial.games is None else f" ({trial.games:,} games{rounds})"
    return f"{_values(trial.values)}: {_figure(trial.objective, goal, trial.interval)}{played}"


def show(console: Console, tuning: Tuning) -> None:
    """The trials (the best marked), then what was found and how sure it is."""
    from rich.table import Table

    settings = tuning.settings
    names = [one.name for one in settings.parameters]
    table = Table(title=f"Tuning {settings.spec}: {settings.goal} ({tuning.method}, {tuning.search})")
    table.add_column("", justify="left")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column(settings.goal, justify="right")
    if not tuning.exact:
        table.add_column("95% interval", justify="right")
        table.add_column("games", justify="right")
    best = _best_row(tuning)
    for index, trial in enumerate(tuning.trials):
        row = ["best" if index == best else ""]
        row += [str(trial.values[name]) for name in names] + [_shown(trial.objective, settings.goal)]
        if not tuning.exact:
            low, high = trial.interval or (trial.objective, trial.objective)
            row += [f"{_shown(low, settings.goal)} to {_shown(high, settings.goal)}", f"{trial.games or 0:,}"]
        table.add_row(*row, style="bold" if index == best else None)
    console.print(table)
    for line in summary_lines(tuning):
        console.print(line, markup=False, highlight=False)


def _best_row(tuning: Tuning) -> int | None:
    """The trial the best values and figure come from: the last with both (halving's last round)."""
    found = [
        index
        for index, trial in enumerate(tuning.trials)
        if trial.values == tuning.best and trial.objective == tuning.best_objective
    ]
    return found[-1] if found else None


def summary_lines(tuning: Tuning) -> list[str]:
    """What was found, in words."""
    if tuning.best is None or tuning.best_objective is None:
        return [f"Not done: {len(tuning.trials)} trials so far."]
    goal = tuning.settings.goal
    lines = [f"Best: {_values(tuning.best)}, {goal} {_shown(tuning.best_objective, goal)}"]
    if tuning.exact:
        lines[0] += " (exact: the true optimum over the ranges)."
        if tuning.start_objective is not None:
            lines.append(f"Starting values ({_start(tuning)}): {_shown(tuning.start_objective, goal)}.")
        return lines
    lines[0] += f" (simulated, seed {tuning.seed})."
    confirmation = tuning.confirmation
    if confirmation is not None:
        lines.append(
            f"Confirmation on seed {confirmation.seed} ({confirmation.games:,} games): best "
            f"{_figure(confirmation.best, goal, confirmation.best_ci95)}, starting values ({_start(tuning)}) "
            f"{_figure(confirmation.start, goal, confirmation.start_ci95)}."
        )
        if confirmation.difference is not None and confirmation.difference_ci95 is not None:
            difference = _difference(confirmation.difference, goal, confirmation.difference_ci95)
            lines.append(f"Difference (paired): {difference}.")
    return lines


def quiet_line(tuning: Tuning) -> str:
    """`--quiet`: the best values and figure, how sure, the trials and the seed, in one line."""
    goal = tuning.settings.goal
    if tuning.best is None or tuning.best_objective is None:
        return f"not done: {len(tuning.trials)} trials so far"
    line = f"best: {_values(tuning.best)}, {goal} {_shown(tuning.best_objective, goal)}"
    if tuning.exact:
        return f"{line} (exact); {len(tuning.trials)} trials computed exactly"
    confirmation = tuning.confirmation
    if confirmation is not None and confirmation.difference is not None and confirmation.difference_ci95 is not None:
        line += f"; {_difference(confirmation.difference, goal, confirmation.difference_ci95)} over the start"
    return f"{line}; {len(tuning.trials)} trials; seed {tuning.seed}"


def _start(tuning: Tuning) -> str:
    return _values(tuning.start) if tuning.start else "the defaults"
