"""The checks of a tournament's settings' values (`config.SETTINGS`): each returns the value, or
raises a `ConfigError` of one sentence naming where it came from (`where`) and what it must be."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..errors import ConfigError
from ..referee.confine import MAX_WORKERS_PER_CORE, MIN_MEMORY_LIMIT_MIB, cores, max_workers

LOCAL_SCHEDULER = "local"
"""The scheduler "address" that starts a Dask cluster of this machine's cores for the run."""
_ADDRESS = re.compile(r"(?:[a-z]+://)?(?:\[[0-9a-fA-F:.]+\]|[^\s/:\[\]]+):[0-9]{1,5}")
MAX_TIMEOUT = 86_400
"""The longest time limit per work unit, in seconds: a day."""


def whole(where: str, value: object, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where} must be a whole number, not {value!r}.")
    if value < least:
        raise ConfigError(f"{where} must be at least {least}, not {value}.")
    if most is not None and value > most:
        raise ConfigError(f"{where} must be at most {most:,}, not {value:,}.")
    return value


def flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, not {value!r}.")
    return value


def one_of(*choices: str) -> Callable[[str, object], str]:
    """The check of a setting that is one of `choices`."""

    def check(where: str, value: object) -> str:
        if value not in choices:
            named = f"{', '.join(map(repr, choices[:-1]))} or {choices[-1]!r}"
            raise ConfigError(f"{where} must be {named}, not {value!r}.")
        return str(value)

    return check


def seconds(where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{where} must be a number of seconds above 0, not {value!r}.")
    if value > MAX_TIMEOUT:
        raise ConfigError(f"{where} must be at most {MAX_TIMEOUT:,} seconds (a day), not {value:g}.")
    return float(value)


def workers(where: str, value: object) -> int:
    """Worker processes: at least one, at most MAX_WORKERS_PER_CORE per core."""
    count = whole(where, value, 1)
    if count > max_workers():
        raise ConfigError(
            f"{where} must be at most {max_workers()} ({MAX_WORKERS_PER_CORE} per core; this machine has "
            f"{cores()}), not {count:,}."
        )
    return count


def memory_limit(where: str, value: object) -> int:
    """MiB per worker: 0 (no limit) or at least MIN_MEMORY_LIMIT_MIB."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where} must be a whole number of MiB (0 for no limit), not {value!r}.")
    if 0 < value < MIN_MEMORY_LIMIT_MIB:
        raise ConfigError(f"{where} must be 0 (no limit) or at least {MIN_MEMORY_LIMIT_MIB} MiB, not {value}.")
    return value


def scheduler(where: str, value: object) -> str:
    if not isinstance(value, str) or not (value == LOCAL_SCHEDULER or _ADDRESS.fullmatch(value)):
        raise ConfigError(
            f"{where} must be a Dask scheduler's address such as tcp://HOST:8786, or {LOCAL_SCHEDULER!r} "
            f"for a cluster of this machine's cores, not {value!r}."
        )
    return value
