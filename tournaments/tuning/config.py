"""A tune's file: a `[tune]` table (and `[rules]`), TOML or JSON, that `shutbox tune --config` reads,
its options over the file's:

    [tune]
    spec = "below"
    params = ["threshold=1..16"]
    field = ["optimal", "target", "tips"]
    objective = "win-rate"   # method, games, confirm_games, seed and trials too

    [rules]
    tiles = 10
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..field.config import MAX_CONFIG_BYTES
from ..files import read_document
from ..records.schema import check_schema

KEYS: dict[str, type] = {
    "spec": str,
    "params": list,
    "field": list,
    "objective": str,
    "method": str,
    "games": int,
    "confirm_games": int,
    "seed": int,
    "trials": int,
}
"""The keys of a `[tune]` table, with the type each takes."""


def read_tune_file(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The `[tune]` table of a tune file (each key checked) and its `[rules]` (checked as a run
    checks rules); a ConfigError of one sentence naming the file and key for anything else."""
    table = read_document(path, f"tune file {str(path)!r}", MAX_CONFIG_BYTES)
    check_schema(str(path), table)
    for key in table:
        if key not in ("tune", "rules"):
            raise ConfigError(f"{path}: unknown key {key!r}; a tune file holds [tune] and [rules].")
    tune, rules = table.get("tune", {}), table.get("rules", {})
    for name, value in (("tune", tune), ("rules", rules)):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{path}: [{name}] must be a table.")
    for key, value in tune.items():
        kind = KEYS.get(key)
        if kind is None:
            raise ConfigError(f"{path}: unknown key tune.{key}; the keys are {', '.join(KEYS)}.")
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ConfigError(f"{path}: tune.{key} must be {_kind(kind)}, not {value!r}.")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{path}: tune.{key} must be a list of strings.")
    return dict(tune), dict(rules)


def _kind(kind: type) -> str:
    names: dict[type, str] = {str: "a string", list: "a list of strings", int: "a whole number"}
    return names.get(kind, "a value")
