"""Shipping a run's code to Dask workers: what every task of a run is given (the plan, the source
of each strategy given as a file), written on a worker afresh for each run for its hosts to load,
and a message naming each file as its spec names it, not by its copy there."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from strategies.loading import spec_file
from strategies.shown import cause

from ..errors import Command, ConfigError, Setting, commands_rewritten
from ..playing.plan import Plan


@dataclasses.dataclass(frozen=True)
class Shipment:
    """What every task of a run is given: the plan, and the source of each strategy given as a
    file, by its index in the field, as (the file as the spec names it, its text)."""

    run: str
    version: str
    plan: Plan
    files: Mapping[int, tuple[str, str]]

    @property
    def topic(self) -> str:
        """Where the run's tasks say that they have started."""
        return f"shutbox-{self.run}"


def strategy_files(plan: Plan) -> dict[int, tuple[str, str]]:
    """The source of each user's strategy given as `path/file.py:Class`, read here (never
    imported) to send to the workers."""
    files = {}
    for index, entry in enumerate(plan.config.strategies):
        where = spec_file(entry.spec)
        if entry.builtin or where is None:
            continue
        try:
            files[index] = (where, Path(where).expanduser().read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            message = f"cannot read file {where!r} of strategy {entry.spec!r} to send it: {cause(error)}"
            raise ConfigError(message) from None
    return files


def version_mismatch(worker: str, theirs: str | None, ours: str) -> str:
    has = "has no shutbox installed" if theirs is None else f"runs shutbox {theirs}"
    return (
        f"Dask worker {worker} {has} but this run is shutbox {ours}; every worker needs the same version "
        f"(shutbox {ours} with its dask extra there, from the same checkout or wheel), or reports could differ."
    )


def as_typed(message: str, shipment: Shipment, folder: Path) -> str:
    """A message with each file strategy named as its spec names it, not by its copy on this
    worker (in the error and in the strategy's traceback lines)."""
    for where, source in shipment.files.values():
        message = message.replace(str(_local_file(folder, shipment.run, where, source)), where)
    return commands_rewritten(message, _named_once)


def _named_once(said: Command) -> Command:
    """A suggested command's strategies as the field names them: a file strategy named after its
    spec (`SPEC=COPY` on the worker, `SPEC=SPEC` once its copy is named as typed) is `SPEC`."""
    settings = tuple(
        Setting(one.name, tuple(_once(spec) for spec in one.value))
        if one.name == "strategies" and isinstance(one.value, tuple)
        else one
        for one in said.settings
    )
    return dataclasses.replace(said, settings=settings)


def _once(spec: str) -> str:
    half = len(spec) // 2
    return spec[:half] if len(spec) % 2 and spec[half] == "=" and spec[:half] == spec[half + 1 :] else spec


def run_copies(folder: Path, run: str) -> Path:
    """Where a run's strategy files are written on a worker: written afresh for each run, so
    that no file a host of an earlier run may have changed is loaded again."""
    return folder / "shutbox-strategies" / run


def _local_file(folder: Path, run: str, where: str, source: str) -> Path:
    """Where a file strategy's source is written on a worker: in a folder named by its content."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    return run_copies(folder, run) / digest / Path(where).name


def local_plan(shipment: Shipment, folder: Path) -> Plan:
    """The plan with each file strategy's spec pointing at its source written on this worker,
    and every user's strategy hosted in a process of its own (`isolate`)."""
    plan = shipment.plan
    entries = list(plan.config.strategies)
    for index, (where, source) in shipment.files.items():
        path = _local_file(folder, shipment.run, where, source)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
            partial.write_text(source, encoding="utf-8")
            partial.replace(path)
        entry = entries[index]
        entries[index] = dataclasses.replace(entry, spec=str(path) + entry.spec[len(where) :])
    config = dataclasses.replace(plan.config, strategies=tuple(entries))
    return dataclasses.replace(plan, config=config)
