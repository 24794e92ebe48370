"""Reading a checkpoint to resume: the file found to be one of this shutbox's, sealed by this user,
for the same configuration and strategies; the plan left to play, and the report it writes."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import DICE_SCHEME, Rules

from ..errors import ConfigError, setting
from ..field.config import (
    ISOLATE,
    REPORT_CONFIG,
    RESULT_SETTINGS,
    SETTINGS,
    Options,
    load_config,
)
from ..files import read_bytes
from ..playing.plan import Plan, make_plan
from ..records.schema import rules_table
from ..version import shutbox_version
from . import seal
from .checkpoint import (
    CHECKPOINT_FORMAT,
    MAX_CHECKPOINT_BYTES,
    Identity,
    Record,
    checkpoint_path,
    config_digest,
    identity,
    module_digests_of,
    source_digests,
)
from .checkpoint_checks import checked_fields, checked_record

if TYPE_CHECKING:  # a match's Elo module loads where a match is played
    pass


@dataclasses.dataclass(frozen=True)
class Saved:
    """A checkpoint read back: the plan to finish (its finished units `done`), the record so far,
    whether the run's seed was drawn, the report the run writes (None: none), and which file it is."""

    path: Path
    plan: Plan
    record: Record
    seed_drawn: bool
    report: Path | None = None
    owned: Identity | None = None
    match: Mapping[str, Any] | None = None
    """A match's settings (`play_match`): `unit_games`, `look_games`, and its `sprt` if it runs one."""


def read_checkpoint(path: Path, options: Options = Options()) -> Saved:
    """Read a checkpoint to resume; `options` may change how the run goes (workers, timeout, ...),
    never what it finds. Any mismatch (another version or dice scheme, a seal that does not hold, a
    configuration or a strategy's source or module changed) or damage, tallies that play cannot
    give included, is a ConfigError of one sentence."""
    _refuse_changes(path, options)
    header, owned = _open(path)
    name = repr(str(path))
    # A checkpoint of format 2 may say whether its run isolated users' strategies: every run does now.
    recorded = {key: value for key, value in header[REPORT_CONFIG].items() if key != ISOLATE}
    config = load_config(path, options, recorded)
    sources = source_digests(config)
    for strategy, digest in header["sources"].items():
        if sources.get(strategy) != digest:
            raise ConfigError(
                f"checkpoint {name}: the source of strategy {strategy!r} has changed since the run began; "
                "resume with the source it began with, or start the run again."
            )
    _check_modules(name, header["modules"], module_digests_of(config))
    if (
        config.method != "simulate"
        or config.seed is None
        or config_digest(config, path.parent) != header["config_sha256"]
    ):
        raise ConfigError(
            f"checkpoint {name}: its configuration was changed after it was written; start the run again."
        )
    match = header.get("match")
    looking = () if match is None else (match["unit_games"], match.get("look_games", 0))
    plan = make_plan(config, header["bulk"], *looking)
    record = checked_record(path, plan, header)
    plan = dataclasses.replace(plan, done=frozenset(record.units))
    return Saved(path, plan, record, header["seed_drawn"], _report_of(path, header), owned, match)


def recorded_report(path: Path) -> Path | None:
    """The report a resume of the checkpoint at `path` writes when given none (see `resumed_report`),
    once the checkpoint is found to be one, sealed by this user; a ConfigError of one sentence if it
    is not (see `read_checkpoint`)."""
    return resumed_report(path, _report_of(path, _open(path)[0]))


def resumed_report(path: Path, recorded: Path | None) -> Path | None:
    """The report a resume given none writes: the one its checkpoint records (None: none), only if
    the checkpoint is the one a run writing that report keeps beside it (`checkpoint_path`:
    `REPORT.toml` keeps `REPORT.checkpoint.toml`), so the path comes from the one the user names.
    A path read from the file alone is never written: another one is a ConfigError saying how to
    confirm it."""
    if recorded is None or os.path.abspath(checkpoint_path(recorded)) == os.path.abspath(path):
        return recorded
    raise ConfigError(
        f"checkpoint {str(path)!r} says its run writes its report to {str(recorded)!r}, not beside the "
        f"checkpoint; to write it there, say so: resume with {setting('report', str(recorded))} (or another)."
    )


def _report_of(path: Path, header: Mapping[str, Any]) -> Path | None:
    recorded = header.get("report")
    return None if recorded is None else path.parent / recorded


def _check_modules(name: str, then: Mapping[str, Any], now: Mapping[str, Mapping[str, str]]) -> None:
    """A resumed run's strategies are made of the modules they began with."""
    for strategy, digests in then.items():
        found = now.get(strategy, {})
        if not isinstance(digests, dict):
            raise ConfigError(f"{name} is not a shutbox checkpoint, or a damaged one: its modules are not digests.")
        for module in sorted(digests.keys() | found.keys()):
            if digests.get(module) != found.get(module):
                raise ConfigError(
                    f"checkpoint {name}: module {module!r} of strategy {strategy!r} (in its folder) has changed "
                    "since the run began; resume with the modules it began with, or start the run again."
                )


def _refuse_changes(path: Path, options: Options) -> None:
    given = [key for key in RESULT_SETTINGS if getattr(options, key) not in (None, ())]
    rules = rules_table(options.rules) if isinstance(options.rules, Rules) else options.rules
    given += [rule for rule, value in rules.items() if value is not None]
    if given:
        free = [*(setting(name) for name in SETTINGS if name not in RESULT_SETTINGS), setting("report")]
        raise ConfigError(
            f"{setting(given[0])} cannot change a resumed run: checkpoint {str(path)!r} holds its configuration "
            f"(only {', '.join(free[:-1])} and {free[-1]} may be given)."
        )


def _open(path: Path) -> tuple[Mapping[str, Any], Identity | None]:
    """A checkpoint's table, once it is found to be a checkpoint of this shutbox's, sealed by this
    user's key; and which file it is."""
    data = read_bytes(path, "checkpoint", MAX_CHECKPOINT_BYTES)
    owned = identity(path)
    try:
        raw = tomllib.loads(data.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        raise ConfigError(f"{str(path)!r} is not a shutbox checkpoint: it is not valid TOML.") from None
    name = repr(str(path))
    if raw.get("checkpoint") != CHECKPOINT_FORMAT and "config_sha256" in raw:  # a checkpoint, of another layout
        raise ConfigError(
            f"checkpoint {name} was written by shutbox {raw.get('shutbox_version')} in another checkpoint format "
            f"({raw.get('checkpoint', 0)!r}, this shutbox reads {CHECKPOINT_FORMAT}); resume it with the shutbox "
            "that wrote it, or start the run again."
        )
    header = checked_fields(path, raw)
    if header["shutbox_version"] != shutbox_version():
        raise ConfigError(
            f"checkpoint {name} was written by shutbox {header['shutbox_version']}, not this shutbox "
            f"{shutbox_version()}; resume it with that version, or start the run again."
        )
    if header["dice"] != DICE_SCHEME:
        raise ConfigError(
            f"checkpoint {name} was dealt with the dice scheme {header['dice']!r}, not this shutbox's "
            f"{DICE_SCHEME!r}; start the run again."
        )
    seal.check_seal(name, data, header["seal"])
    return header, owned
