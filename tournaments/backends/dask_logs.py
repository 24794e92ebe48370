"""What distributed logs during a run on a Dask cluster (and asyncio and tornado, its event loop),
kept off the terminal, and written to a file that a failure's sentence names."""

from __future__ import annotations

import collections
import contextlib
import logging
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import TournamentError

_LOGGERS = ("distributed", "asyncio", "tornado")
"""Where distributed and the event loop it runs on log (tornado's accept loop, out of open
files, logs the same error thousands of times a second)."""
_KEPT_RECORDS = 1000


def _loggers() -> list[logging.Logger]:
    """The loggers of `_LOGGERS`, and those below them with handlers of their own (distributed's
    configuration gives some, `distributed.client` among them, a handler of their own)."""
    below = tuple(f"{name}." for name in _LOGGERS)
    return [logging.getLogger(name) for name in _LOGGERS] + [
        logger
        for name, logger in list(logging.Logger.manager.loggerDict.items())
        if isinstance(logger, logging.Logger) and name.startswith(below) and logger.handlers
    ]


class _Log(logging.Handler):
    """The last `_KEPT_RECORDS` warnings and errors of distributed and the event loop it runs on."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
        self.lines: collections.deque[str] = collections.deque(maxlen=_KEPT_RECORDS)
        self.errors = False

    def emit(self, record: logging.LogRecord) -> None:
        self.errors = self.errors or record.levelno >= logging.ERROR
        try:
            self.lines.append(self.format(record))
        except Exception:  # a record that cannot be formatted is not worth failing over
            self.handleError(record)


@contextlib.contextmanager
def logs_kept(run: str) -> Iterator[None]:
    """Keep what distributed logs (and asyncio and tornado, its event loop) off the terminal while
    a run handles what it tells: the run's one sentence is all a user sees. If the run fails
    after an error was logged, the log is written to a file that the failure's sentence names."""
    log = _Log()
    saved = []
    for logger in _loggers():
        saved.append((logger, logger.handlers[:], logger.propagate))
        logger.handlers, logger.propagate = [log], False
    try:
        yield
    except TournamentError as error:
        if log.errors:
            path = Path(tempfile.gettempdir()) / f"shutbox-dask-{run}.log"
            with contextlib.suppress(OSError):
                path.write_text("".join(f"{line}\n" for line in log.lines), encoding="utf-8")
                error.args = (f"{error.marked.rstrip('.')}; Dask's log of the run: {path}.",)
        raise
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers, logger.propagate = handlers, propagate
