"""Hosts kept from a field's probe for the run that follows it in the same process: a run that
plays here takes the host its strategy was probed in instead of starting another (one process
start fewer per user's strategy at one worker); a run that plays elsewhere stops them first, and
any never taken are stopped at the latest as this process ends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import Rules

if TYPE_CHECKING:  # only a field with a user's strategy loads the hosts' code
    from .isolation import Host

MAX_IDLE = 16
"""Hosts kept at most: a caller that loads fields without running them keeps no more than these."""

Key = tuple[str, str, str, Rules, float, int]
"""What a host was started with: spec, parameters (as JSON), name, rules, time limit, memory limit."""

_idle: dict[Key, Host] = {}


def key(spec: str, params: Mapping[str, Any], name: str, rules: Rules, timeout: float, memory_limit_mib: int) -> Key:
    """The key of a host started with these, for `keep` and `take`."""
    given = json.dumps(dict(params), sort_keys=True, default=repr)
    return (spec.strip(), given, name, rules, timeout, memory_limit_mib)


def keep(found: Key, host: Host) -> None:
    """Keep a loaded host, idle, for a run to take (the oldest stopped beyond MAX_IDLE)."""
    older = _idle.pop(found, None)
    if older is not None:
        older.stop()
    _idle[found] = host
    while len(_idle) > MAX_IDLE:
        _idle.pop(next(iter(_idle))).stop()


def take(found: Key) -> Host | None:
    """The idle host kept under this key, if any, no longer kept."""
    return _idle.pop(found, None)


def stop_all() -> None:
    """Stop every idle host."""
    while _idle:
        _idle.popitem()[1].stop()
