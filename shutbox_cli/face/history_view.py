"""`shutbox history` for people: the runs as a table, one strategy's runs by version, one run
whole, and the regression page (its Elo over versions) drawn with the `plot` extra."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .literal import literal

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from rich.console import Console
    from rich.table import Table

    from tournaments.parts import Appearance, RunList, RunShown, StrategyHistory


FIELDS = ("tournament", "knockout")
"""The kinds of run whose strategies are ranked."""


def when(started: str) -> str:
    """A run's start in the reader's local time, to the minute."""
    return datetime.fromisoformat(started).astimezone().strftime("%Y-%m-%d %H:%M")


def _table(*columns: str) -> Table:
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for column in columns:
        whole = column in ("ID", "STARTED", "VERSION", "ELO ± 95%")  # never wrapped: the names and results are
        table.add_column(column, justify="right" if column in ("ID", "ELO ± 95%") else "left", no_wrap=whole)
    return table


def outcome(kind: str, results: Mapping[str, Any]) -> str:
    """A run's result in a few words: a tournament's leader, a match's Elo and verdict, a knockout's
    winner, a tune's best."""
    if kind == "match":
        match = results.get("match", {})
        elo = match.get("elo")
        said = f"{match.get('score', 0) * 100:.1f}%" if elo is None else f"Elo {elo:+.1f}"
        verdict = match.get("sprt", {}).get("verdict")
        return said if verdict is None else f"{said}, {verdict}"
    if kind == "knockout":
        return f"{results['winner']} won" if "winner" in results else ""
    if kind == "tune":
        best = results.get("best", {})
        values = ", ".join(f"{key}={value}" for key, value in best.get("values", {}).items())
        return f"best {values}" if values else "no best"
    ranking = results.get("ranking", [])
    if not ranking:
        return ""
    leader = ranking[0]
    rate = leader.get("win_rate")
    return f"{leader['name']} first" + ("" if rate is None else f", {rate * 100:.1f}%")


def show_runs(console: Console, runs: RunList, strategy: str | None = None) -> None:
    """The runs, newest first, one a row (those of `strategy`, where given)."""
    if not runs.runs:
        console.print("No runs recorded." if strategy is None else literal(f"No runs of {strategy} recorded."))
        return
    table = _table("ID", "STARTED", "KIND", "STRATEGIES", "RESULT")
    for entry in runs.runs:
        table.add_row(
            str(entry.id),
            when(entry.started),
            entry.kind,
            literal(" v ".join(entry.strategies) if entry.kind == "match" else ", ".join(entry.strategies)),
            literal(outcome(entry.kind, entry.results)),
        )
    console.print(table)


def _elo(seen: Appearance) -> str:
    """Its Elo and the half-width of its 95% interval (the report gives the interval's ends)."""
    if seen.elo is None:
        return ""
    if seen.elo_low is None or seen.elo_high is None:
        return f"{seen.elo:+.1f}"
    return f"{seen.elo:+.1f} ± {(seen.elo_high - seen.elo_low) / 2:.1f}"


def show_strategy(console: Console, history: StrategyHistory) -> None:
    """A strategy's runs, oldest first, under each of its versions (in the order they first ran)."""
    if not history.appearances:
        console.print(literal(f"No runs of {history.name} recorded."))
        return
    versions = history.versions
    runs = len(history.appearances)
    console.print(
        literal(f"{history.name}: {runs} run{'s' * (runs != 1)}, {len(versions)} version{'s' * (len(versions) != 1)}")
    )
    table = _table("VERSION", "ID", "STARTED", "AGAINST", "ELO ± 95%", "VERDICT")
    for version in versions:
        for seen in (one for one in history.appearances if one.version == version):
            against = seen.opponent or ("the field" if seen.kind == "tournament" else f"({seen.kind})")
            verdict = seen.verdict or ("" if seen.rank is None or seen.kind not in FIELDS else f"rank {seen.rank}")
            table.add_row(literal(version), str(seen.run), when(seen.started), literal(against), _elo(seen), verdict)
    console.print(table)
    console.print("Elo: from its side in a match; against the field, its rating in a tournament.")
    if any(seen.kind == "knockout" for seen in history.appearances):
        console.print("In a knockout: its last tie's Elo from its side, and how far it went (its rank).")


def show_run(console: Console, shown: RunShown) -> None:
    """One run: what ran, its strategies and versions, and its result."""
    entry = shown.entry
    took = f"{entry.seconds:.1f} s, shutbox {entry.shutbox_version}"
    console.print(literal(f"Run {entry.id}: {entry.kind}, started {when(entry.started)}, {took}"))
    console.print(literal(f"Command: {entry.command}"))
    if entry.seed is not None:
        console.print(f"Seed: {entry.seed}")
    table = _table("STRATEGY", "SPEC", "VERSION")
    for one in shown.entrants:
        table.add_row(literal(one.name), literal(one.spec), literal(one.version))
    console.print(table)
    console.print(literal(f"Result: {outcome(entry.kind, entry.results)}"))
    console.print("The whole report: --format json or toml.")


def draw_versions(history: StrategyHistory) -> Figure:
    """The regression page: each run's Elo with its 95% interval at its version (in the order the
    versions first ran), a series for each opponent (a tournament's rating: against the field)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .plot_style import OKABE_ITO
    from .plotting import WIDTH

    versions = history.versions
    place = {version: index for index, version in enumerate(versions)}
    series: dict[str, list[Appearance]] = {}
    for seen in history.appearances:
        if seen.elo is not None:
            series.setdefault(seen.opponent or "the field (rating)", []).append(seen)
    figure = Figure(figsize=(WIDTH, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    for index, (against, runs) in enumerate(series.items()):
        xs = [place[one.version] + 0.08 * (index - (len(series) - 1) / 2) for one in runs]
        ys = [one.elo or 0.0 for one in runs]
        lows = [y - (one.elo_low if one.elo_low is not None else y) for y, one in zip(ys, runs, strict=True)]
        highs = [(one.elo_high if one.elo_high is not None else y) - y for y, one in zip(ys, runs, strict=True)]
        colour = OKABE_ITO[index % len(OKABE_ITO)]
        axes.errorbar(
            xs, ys, yerr=[lows, highs], fmt="o-", color=colour, ecolor=colour, capsize=3, label=f"against {against}"
        )
    axes.axhline(0, color="#888888", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(versions)), [_short(version) for version in versions], rotation=20, ha="right")
    axes.set_xlim(-0.5, len(versions) - 0.5)
    axes.set_xlabel("version, in the order first run")
    axes.set_ylabel("Elo (95% interval)")
    axes.grid(axis="y", color="#DDDDDD", linewidth=0.6)
    if series:
        axes.legend(loc="best", fontsize="small")
    figure.suptitle(f"Elo over versions: {history.name}", fontsize=11)
    return figure


def _short(version: str) -> str:
    return version if len(version) <= 24 else version[:23] + "…"


def plot_versions(history: StrategyHistory, path: Path) -> None:
    """`--plot FILE`: the regression page, written whole, and where said."""
    import matplotlib

    from .plotting import SETTINGS, write_figure

    with matplotlib.rc_context(SETTINGS):
        write_figure(draw_versions(history), path)
