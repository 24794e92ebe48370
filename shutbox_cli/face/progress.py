"""The progress bar of long work (a tournament's games, an analysis's turns, a check's answers):
live on stderr when stderr is a terminal, nothing in a pipe or a log. The library tells it the
work done and the total through a callback; the library itself never prints."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

Progress = Callable[[int, int], None]
"""Told the work done and the total, as the library reports its progress."""
REDRAW_SECONDS = 0.1
"""The bar is redrawn as progress is reported, at most this often (and once more at the end)."""


@contextlib.contextmanager
def progress_bar(
    show_bar: bool = True, unit: str = "games", extra: Callable[[], str] | None = None
) -> Iterator[Progress | None]:
    """A live bar on stderr (the `unit`s done, their rate, the time left, and `extra`'s text, asked
    at each update) when asked and stderr is a terminal, from the first report of progress on; else
    None, for the library to report to nobody.

    Asks the stream itself, not rich: rich takes FORCE_COLOR to mean a terminal, and would
    animate the bar into a CI log. Redrawn as progress comes, by no thread of its own: a process
    running another thread cannot fork a pool's workers (`tournaments.backends.pool`)."""
    if not (show_bar and sys.stderr.isatty()):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    from .console import ShutboxConsole

    columns = (
        TextColumn(unit),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[progress.data.speed]{task.fields[rate]}"),
        TimeRemainingColumn(),
        *((TextColumn("{task.fields[extra]}"),) if extra is not None else ()),
    )
    bar = Bar(*columns, console=ShutboxConsole(stderr=True), transient=True, auto_refresh=False)
    task = bar.add_task(unit, total=None, rate="", extra="")
    drawn = [0.0]

    def update(done: int, total: int) -> None:
        if not bar.live.is_started:  # shown from the first report: work that reports none shows none
            bar.reset(task, completed=done, total=total)  # a resumed run starts at the work done before
            bar.start()
        bar.update(task, completed=done, total=total)
        speed = bar.tasks[task].speed
        bar.update(task, rate="" if speed is None else f"{speed:,.0f} {unit}/s")
        if extra is not None:
            bar.update(task, extra=extra())
        if time.monotonic() - drawn[0] >= REDRAW_SECONDS:
            drawn[0] = time.monotonic()
            bar.refresh()

    try:
        yield update
    finally:
        if bar.live.is_started:
            bar.stop()
