"""Writing a run's checkpoint: kept as its units finish, at most every few seconds, once more
when it stops early, and removed once its report is written; only ever its own file."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from shutbox_cli.game import DICE_SCHEME

from ..errors import ConfigError, setting
from ..field.config import (
    REPORT_CONFIG,
    config_table,
)
from ..files import through_links, write_atomically
from ..playing.plan import Plan
from ..version import shutbox_version
from . import seal
from .checkpoint import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_SECONDS,
    Identity,
    Record,
    config_digest,
    identity,
    identity_of,
    module_digests_of,
    recorded_path,
    run_table,
    source_digests,
)


class KeptFile:
    """A checkpoint this process alone keeps at `path`: written whole and sealed (`write_sealed`),
    only over the file it wrote last (`owned`: if another process puts a file of its own there, it
    gives up and keeps none from then on), and removed once it has served (`discard`)."""

    def __init__(self, path: Path, owned: Identity | None, seconds: float) -> None:
        self.path = path
        self.owned = owned
        self.seconds = seconds
        self.given_up = False
        self.started = self.last = time.monotonic()

    @property
    def written(self) -> bool:
        """Whether the file holds this process's checkpoint."""
        return self.owned is not None

    def due(self) -> bool:
        """Whether the last one written (or the start) is `seconds` old."""
        return time.monotonic() - self.last >= self.seconds

    def ran_long(self) -> bool:
        """Whether it has kept going `seconds` since it started."""
        return time.monotonic() - self.started >= self.seconds

    def discard(self) -> None:
        """Its work is written elsewhere: the checkpoint has served."""
        if self.written and identity(self.path) == self.owned:
            with contextlib.suppress(OSError):
                through_links(self.path).unlink()
                if self.path.is_symlink():
                    self.path.unlink()
        self.owned = None

    def write_sealed(self, body: Callable[[], bytes]) -> None:
        """Write `body()` and its seal whole, if the file is still its own; a checkpoint that cannot
        be written (or sealed: no key can be made) is not kept, and the work goes on."""
        self.last = time.monotonic()
        if self.given_up:
            return
        if identity(self.path) != self.owned or (self.owned is None and os.path.lexists(self.path)):
            self.given_up, self.owned = True, None  # another process's file: leave it be
            return
        text = body()
        try:
            key = seal.own_key()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            written = write_atomically(self.path, text + seal.seal_text(key, text))
        except (OSError, ValueError):
            return
        self.owned = identity_of(written)


class Keeper(KeptFile):
    """Keeps a run's checkpoint at `path` as its units finish (`tick` after each, writing at most
    every `seconds`), writes it once more when the run stops early (`keep`) and removes it when the
    run finishes (`discard`). `report` is the report the run writes, which the checkpoint records.

    A run starts only where no file is (else a ConfigError), or from the checkpoint it resumes,
    the file `owned`. It then writes and removes only that file: if another process puts a file
    of its own there, this run keeps no checkpoint from then on. A checkpoint that cannot be
    written (or sealed: no key can be made) is not kept, and the run goes on; `written` says
    whether the file holds one."""

    def __init__(
        self,
        path: Path,
        plan: Plan,
        record: Record,
        *,
        seed_drawn: bool,
        report: Path | None = None,
        owned: Identity | None = None,
        seconds: float = CHECKPOINT_SECONDS,
        match: Mapping[str, Any] | None = None,
    ) -> None:
        if owned is None and os.path.lexists(path):
            raise ConfigError(
                f"checkpoint {str(path)!r} is already there: a run writing the same report was stopped or is "
                f"still running; finish it with {setting('resume', str(path))}, or remove "
                "it to start again."
            )
        super().__init__(path, owned, seconds)
        self.record = record
        self.header: dict[str, Any] = {
            "checkpoint": CHECKPOINT_FORMAT,
            "shutbox_version": shutbox_version(),
            "dice": DICE_SCHEME,
            "bulk": plan.bulk,
            "seed_drawn": seed_drawn,
            "config_sha256": config_digest(plan.config, path.parent),
            "sources": source_digests(plan.config),
            "modules": module_digests_of(plan.config),
        }
        if report is not None:
            self.header["report"] = recorded_path(report, path.parent)
        if match is not None:  # a match (`play_match`): its SPRT and the size of its units
            self.header["match"] = dict(match)
        self.header[REPORT_CONFIG] = {**config_table(plan.config, path.parent), **run_table(plan.config)}

    def tick(self) -> None:
        """Write the checkpoint if the last one (or the run's start) is `seconds` old."""
        if self.due():
            self._write()

    def keep(self) -> Path | None:
        """The run stops early: write the checkpoint once more if it keeps one, or has run long enough
        to and finished some unit; not if a unit was cut off half counted (the last one written
        stands). Its path, or None."""
        due = bool(self.record.units) and self.ran_long()
        if not self.record.adding and (self.written or due):
            with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C cuts it short: the last one stands
                self._write()
        return self.path if self.written else None

    def _write(self) -> None:
        self.write_sealed(lambda: tomli_w.dumps({**self.header, **self.record.table()}).encode())
