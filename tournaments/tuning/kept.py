"""A tune's checkpoint: as a tournament keeps one (`running.checkpoint`), a tune keeps its trials so
far in a file sealed with the user's checkpoint key (`running.seal`), so that a tune stopped,
killed, or whose report could not be written is resumed (`shutbox tune --resume CHECKPOINT`) and
ends with the report an uninterrupted one writes.

The checkpoint is the report of the tune stopped where it is (`done = false`), with its format
(`checkpoint`), the report the tune writes (`report`, if any: recorded as a tournament's checkpoint
records it, by its name when it lies beside it) and the seal at its end. It lies beside the report
(`REPORT.checkpoint.toml`), else in the user's state folder; it is written whole or not at all after
a trial, at most every `CHECKPOINT_SECONDS` and not before the tune has run that long, and once more
when the tune stops or its report cannot be written (a stopped tune whose report is written keeps
it, however short). It goes once a finished tune's report is written. A resume believes only a
sealed checkpoint: given a stopped tune's report, it reads the checkpoint beside it. A tune does not
start while something is at its checkpoint's path, and it stops keeping one if another process puts
a file there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli_w

from ..errors import ConfigError, FileWriteError, setting
from ..files import format_of, read_bytes, write_table_atomically
from ..running import seal
from ..running.checkpoint import CHECKPOINT_SECONDS, SUFFIX, checkpoint_path, identity, recorded_path
from ..running.checkpoint_keeper import KeptFile
from .reading import read_tune, tune_of
from .records import MAX_REPORT_BYTES, Trial, TuneSettings, Tuning

TUNE_CHECKPOINT_FORMAT = 1
"""The layout of a tune's checkpoint: raised whenever what it holds changes."""


def tune_checkpoint_path(report: Path | None) -> Path:
    """Where a tune keeps its checkpoint: beside its report, else in the user's state folder, named
    by the time and the process."""
    if report is not None:
        return checkpoint_path(report)
    from platformdirs import user_state_path

    stamp = time.strftime("%Y%m%d-%H%M%S")
    return user_state_path("shutbox") / "checkpoints" / f"tune-{stamp}-{os.getpid()}{SUFFIX}"


class TuneKeeper(KeptFile):
    """Keeps a tune's checkpoint at `path` (see the module's docstring): `tick` after each trial,
    `keep` when the tune stops, `discard` once its report is written. `owned`: the tune resumes
    from the checkpoint at `path`, which it goes on keeping."""

    def __init__(
        self, path: Path, report: Path | None, *, owned: bool = False, seconds: float = CHECKPOINT_SECONDS
    ) -> None:
        if not owned and os.path.lexists(path):
            raise ConfigError(
                f"checkpoint {str(path)!r} is already there: a tune writing the same report was stopped or is "
                f"still running; finish it with {setting('resume')} {str(path)!r}, or remove it to start again."
            )
        super().__init__(path, identity(path) if owned else None, seconds)
        self.report = report

    def tick(self, tuning: Tuning) -> None:
        """Write the checkpoint if the last one (or the tune's start) is `seconds` old."""
        if self.due():
            self._write(tuning)

    def keep(self, tuning: Tuning, *, due: bool = False) -> Path | None:
        """The tune stops, or its report cannot be written: write the checkpoint once more if it keeps
        one, or has trials and has run long enough to (or is `due` to: its stopped report is
        written). Its path, or None."""
        if self.written or (tuning.trials and (due or self.ran_long())):
            with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C cuts it short: the last one stands
                self._write(tuning)
        return self.path if self.written else None

    def _write(self, tuning: Tuning) -> None:
        def body() -> bytes:
            table: dict[str, Any] = {"checkpoint": TUNE_CHECKPOINT_FORMAT}
            if self.report is not None:
                table["report"] = recorded_path(self.report, self.path.parent)
            table |= dataclasses.replace(tuning, done=False, confirmation=None).to_report()
            return tomli_w.dumps(table).encode()

        self.write_sealed(body)


def write_tune(report: Path, tuning: Tuning, keeper: TuneKeeper | None) -> Path | None:
    """Write a tune's report whole (its format by its name), then let its checkpoint go, or a stopped
    tune's be kept (its path, or None); a report that cannot be written keeps the checkpoint (a
    FileWriteError naming it as `checkpoint`)."""
    try:
        write_table_atomically(report, tuning.to_report(), format_of(report))
    except FileWriteError as error:
        error.checkpoint = None if keeper is None else keeper.keep(tuning)
        raise
    if keeper is None:
        return None
    if not tuning.done:
        return keeper.keep(tuning, due=True)
    keeper.discard()
    return None


@dataclasses.dataclass(frozen=True)
class Resumable:
    """What `--resume` finishes: a tune's settings and trials so far, whether it was done, and, for
    a checkpoint (`checkpoint`, the file it was read from), the report it records (None: none),
    which a resume given no report writes only where a tune writing it keeps its checkpoint
    (`running.checkpoint.resumed_report`)."""

    settings: TuneSettings
    trials: tuple[Trial, ...]
    done: bool
    checkpoint: Path | None = None
    report: Path | None = None


def read_resumable(path: Path) -> Resumable:
    """A tune's checkpoint, once its seal holds; given a tune's report, the checkpoint beside it
    (a done report: only that it is done). A ConfigError of one sentence for anything else."""
    data = read_bytes(path, "tune report", MAX_REPORT_BYTES)
    if data.lstrip().startswith(b"checkpoint"):
        return _checkpoint(path, data)
    beside = checkpoint_path(path)
    if os.path.lexists(beside):
        return _checkpoint(beside, read_bytes(beside, "tune checkpoint", MAX_REPORT_BYTES))
    settings, trials, done = read_tune(path)
    if done:
        return Resumable(settings, trials, done)
    raise ConfigError(
        f"{str(path)!r} is a stopped tune's report, which a resume does not take on its word, and no checkpoint "
        f"of it lies beside it ({str(beside)!r}); give {setting('resume')} the checkpoint its tune kept, or "
        "start the tune again."
    )


def _checkpoint(path: Path, data: bytes) -> Resumable:
    """The tune's checkpoint at `path`, whose text is `data`, once its seal holds."""
    try:
        table = tomllib.loads(data.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        raise ConfigError(f"{str(path)!r} is not a tune's checkpoint: it is not valid TOML.") from None
    if table.get("checkpoint") != TUNE_CHECKPOINT_FORMAT or table.get("kind") != "tune":
        raise ConfigError(
            f"{str(path)!r} is not the checkpoint of a tune of this shutbox (its format is "
            f"{table.get('checkpoint')!r}, its kind {table.get('kind')!r}); start the tune again."
        )
    sealed = table.get("seal")
    seal.check_seal(repr(str(path)), data, sealed if isinstance(sealed, Mapping) else {})
    report = table.get("report")
    if report is not None and not (isinstance(report, str) and report and "\0" not in report):
        raise ConfigError(f"{str(path)!r} is a damaged checkpoint: its key 'report' is not a file's path.")
    settings, trials, _ = tune_of(path, table)
    return Resumable(settings, trials, False, path, None if report is None else path.parent / report)
