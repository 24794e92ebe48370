"""A tune's results for people: every trial in a table, the best values and the confirmation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Trial, Tuning


def _values(values: dict[str, int | float]) -> str:
    return ", ".join(f"{name}={value}" for name, value in values.items())


def _figure(value: float, bounds: tuple[float, float] | None = None) -> str:
    shown = f"{value:.6f}"
    return shown if bounds is None else f"{shown} [{bounds[0]:.6f}, {bounds[1]:.6f}]"


def trial_line(trial: Trial) -> str:
    """One trial in a line: its values, its figure (and interval), its games."""
    played = "" if trial.games is None else f" ({trial.games:,} games, round {trial.round + 1})"
    return f"{_values(trial.values)}: {_figure(trial.objective, trial.interval)}{played}"


def show(console: Console, tuning: Tuning) -> None:
    """The trials (the best marked), then what was found and how sure it is."""
    from rich.table import Table

    settings = tuning.settings
    names = [one.name for one in settings.parameters]
    table = Table(title=f"Tuning {settings.spec}: {settings.goal} ({tuning.method}, {tuning.search})")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column(settings.goal, justify="right")
    if not tuning.exact:
        table.add_column("95% interval", justify="right")
        table.add_column("games", justify="right")
    for trial in tuning.trials:
        best = trial.values == tuning.best and (trial is tuning.trials[-1] or tuning.exact or trial.round > 0)
        row = [str(trial.values[name]) for name in names] + [f"{trial.objective:.6f}"]
        if not tuning.exact:
            low, high = trial.interval or (trial.objective, trial.objective)
            row += [f"{low:.6f} to {high:.6f}", f"{trial.games or 0:,}"]
        table.add_row(*row, style="bold" if best else None)
    console.print(table)
    for line in summary_lines(tuning):
        console.print(line, markup=False, highlight=False)


def summary_lines(tuning: Tuning) -> list[str]:
    """What was found, in words."""
    if tuning.best is None or tuning.best_objective is None:
        return [f"Not done: {len(tuning.trials)} trials so far."]
    lines = [f"Best: {_values(tuning.best)}, {tuning.settings.goal} {tuning.best_objective:.6f}"]
    if tuning.exact:
        lines[0] += " (exact: the true optimum over the ranges)."
        if tuning.start_objective is not None:
            lines.append(f"Starting values ({_start(tuning)}): {tuning.start_objective:.6f}.")
        return lines
    lines[0] += f" (simulated, seed {tuning.seed})."
    confirmation = tuning.confirmation
    if confirmation is not None:
        lines.append(
            f"Confirmation on seed {confirmation.seed} ({confirmation.games:,} games): best "
            f"{_figure(confirmation.best, confirmation.best_ci95)}, starting values ({_start(tuning)}) "
            f"{_figure(confirmation.start, confirmation.start_ci95)}."
        )
        if confirmation.difference is not None and confirmation.difference_ci95 is not None:
            lines.append(f"Difference (paired): {_figure(confirmation.difference, confirmation.difference_ci95)}.")
    return lines


def _start(tuning: Tuning) -> str:
    return _values(tuning.start) if tuning.start else "the defaults"
