"""`shutbox history [NAME | show ID]`: the runs recorded (every tournament, match and tune that
finished), one strategy's runs across its versions with its Elo in each, or one run whole."""

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from ..arguments import Report
from ..completion import complete_strategy
from ..errors import fail, say_warning
from ..output import Format, FormatOption, Output
from ..plotting import check_plot

if TYPE_CHECKING:
    from tournaments import History
    from tournaments.parts import RunList, RunShown, StrategyHistory

Read = TypeVar("Read", "RunList", "StrategyHistory")

LIMIT = 20
"""The runs listed when --limit does not say."""


def register(app: typer.Typer) -> None:
    app.command("history")(history_command)


def history_command(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NAME | show ID",
            show_default=False,
            autocompletion=complete_strategy,
            help="A strategy (its name or spec): its runs across its versions; or `show ID`: one run whole.",
        ),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option("--strategy", "-s", metavar="NAME", show_default=False, help="Only the runs of this strategy."),
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind", metavar="KIND", show_default=False, help="Only tournament, knockout, match or tune runs."
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="WHEN",
            show_default=False,
            help="Only runs started then or later: a date or time, such as 2026-12-01 or 2026-12-01T09:30 (your "
            "local time unless it gives its zone).",
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", metavar="N", min=0, show_default=False, help=f"The newest N runs [default: {LIMIT}; 0: all]."
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            show_default=False,
            help='With NAME: draw its Elo over its versions to FILE.png, .svg or .pdf (needs pip install ".[plot]" '
            "in shutbox's checkout).",
        ),
    ] = None,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            metavar="WHERE",
            show_default=False,
            help="The history to read: an SQLite file or a postgresql:// URL [default: $SHUTBOX_HISTORY, else "
            "history.sqlite3 in shutbox's data folder].",
        ),
    ] = None,
    report: Report = None,
    form: FormatOption = Format.TABLE,
) -> None:
    """List the runs recorded, newest first: every tournament, match and tune that finished, with
    its strategies and its result. Given a strategy's NAME, its runs across its versions (a user's
    file by its digest, an installed package by its version, a built-in by its policy's fingerprint)
    with its Elo in each: --plot draws them (the regression page). `show ID` prints one run whole.

    Runs are recorded in history.sqlite3 in shutbox's data folder, or where --history or
    $SHUTBOX_HISTORY says: another file, a postgresql:// URL a team shares, or off
    (`shutbox docs history`).

    Exit status: 0 done, 2 a usage error or a history that cannot be read.

    Examples:
      shutbox history --kind match --since 2026-12-01
      shutbox history mybot --plot mybot.png
      shutbox history show 12
    """
    output = Output(form, report)
    name, run = _words(words or [])
    showing = name == "show"
    if plot is not None and (name is None or showing):
        fail("--plot draws a strategy's Elo over its versions: give its NAME.")
    if plot is not None:
        check_plot(plot)
    if kind is not None and kind not in ("tournament", "knockout", "match", "tune"):
        fail(f"--kind is tournament, knockout, match or tune, not {kind!r}.")
    after = _since(since)
    found = _history(history)
    from ..history_view import show_run, show_runs, show_strategy

    if showing:
        number = _run_id(run)
        output.computed(lambda: _shown(found, number), show_run)
    elif name is not None:
        output.computed(lambda: _skipping(found.strategy(name)), show_strategy)
    else:
        most = LIMIT if limit is None else limit or None
        output.computed(
            lambda: _skipping(found.runs(strategy, kind, after, most)),
            lambda console, runs: show_runs(console, runs, strategy),
        )
    if plot is not None and name is not None:
        from ..history_view import plot_versions

        plot_versions(found.strategy(name), plot)


def _words(words: list[str]) -> tuple[str | None, str | None]:
    """NAME, or `show` and the ID, from the arguments."""
    if words[:1] == ["show"] and len(words) != 2:
        fail("`history show` takes the ID of a run (`shutbox history` lists them).")
    if len(words) > 1 and words[0] != "show":
        fail(f"`history {words[0]}` takes no more arguments; `history show ID` shows a run.")
    return (words[0] if words else None), (words[1] if len(words) == 2 else None)


def _skipping(found: "Read") -> "Read":
    """`found` (runs, or a strategy's), each run left out because its row does not read said once."""
    for number in found.skipped:
        say_warning(f"run {number} of the history does not read (changed since it was recorded): skipped.")
    return found


def _history(setting: str | None) -> "History":
    from tournaments import ConfigError, open_history

    try:
        found = open_history(setting)
    except ConfigError as error:
        fail(str(error))
    if found is None:
        fail("the history is off (--history or $SHUTBOX_HISTORY says off): no runs are recorded.")
    return found


def _since(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text.strip()).astimezone()
    except ValueError:
        fail(f"--since takes a date or time such as 2026-12-01 or 2026-12-01T09:30, not {text!r}.")


def _run_id(text: str | None) -> int:
    try:
        number = int(text or "")
    except ValueError:
        number = -1
    if number < 0:
        fail(f"a run's ID is a whole number (`shutbox history` lists them), not {text!r}.")
    return number


def _shown(found: "History", number: int) -> "RunShown":
    from tournaments import ConfigError

    shown = found.run(number)
    if shown is None:
        raise ConfigError(f"the history {found.where()} holds no run {number} (`shutbox history` lists them).")
    return shown
