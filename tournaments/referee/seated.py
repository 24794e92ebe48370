"""A strategy seated for a command under one rule set, with one face whatever runs its code: a
built-in strategy in this process, a user's in a host of its own (`isolation.Host`), asked over
its socket, every answer checked here. `analyze`, the duel, the exact tournament, `check`,
`play --computer` and `replay` seat their strategies here, so that none of them imports a
user's code.

Every request to a host has its own time limit (`timeout`): a strategy that loops at import or
in a decision is stopped there, and named.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from shutbox_cli.game import Rules, TurnContext
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.check import DEFAULT_SAMPLES, CheckReport, check_strategy
from strategies.fingerprint import fingerprint, none_reason
from strategies.keys import declared_key
from strategies.loading import (
    LoadedStrategy,
    builtin_spec,
    check_utf8,
    load_strategy,
    resolve,
    split_spec,
)
from strategies.names import registered
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import PolicyTable

from ..errors import TournamentFailure, marked
from .checking import remote_check
from .confine import host_memory_limit
from .isolation import Host, HostLost
from .remote import RemotePlayer
from .wire import Request, Setup

STRATEGY_TIMEOUT = 120.0
"""Seconds a user's strategy may take to load, or to answer one request (a turn, its table, a check's answer)."""

Player = StrategyPlayer | RemotePlayer
"""A strategy at the table: in this process, or asked in its host."""
Start = tuple[TurnContext, Seed, GameNumber]
"""Where a turn is played, and its dice stream: what `start_turn` is told."""
Given = tuple[str, Mapping[str, Any], str | None]
"""A strategy to seat: its spec, its parameters (besides the spec's own) and the name it plays under (None: its own)."""


class SeatedStrategy:
    """A strategy ready to play under `rules`: its `spec`, `params`, `name`, `description`, whether
    it is `exact` (tabulable: deterministic and context-free) and `context_free`, the features it is
    keyed on under the rules (`key`, None: none), and whether it is `builtin` (played in this
    process). Close it (or use it as a context manager) to end its host."""

    spec: str
    params: dict[str, Any]
    name: str
    description: str
    exact: bool
    context_free: bool
    key: tuple[str, ...] | None
    builtin: bool
    rules: Rules

    def player(self) -> Player:
        """A new player: a fresh instance of the strategy, its every answer checked."""
        raise NotImplementedError

    @property
    def table(self) -> PolicyTable:
        """An exact strategy's table under the rules (its answer for every box and throw), checked."""
        raise NotImplementedError

    def keyed_table(self, values: tuple[Any, ...]) -> PolicyTable:
        """A keyed strategy's table for the key with these values (its answers for every box and
        throw, shown only those features), checked."""
        raise NotImplementedError

    @functools.cached_property
    def fingerprint(self) -> str | None:
        """Its policy fingerprint under the rules (`strategies.fingerprint`): None for a stochastic
        strategy or one that reads the game beyond a key (`fingerprint_shown` says which)."""
        if self.exact:
            return fingerprint(self.rules, None, lambda _: self.table)
        if self.key is None:
            return None
        return fingerprint(self.rules, self.key, self._keyed_for_fingerprint)

    def _keyed_for_fingerprint(self, values: tuple[Any, ...] | None) -> PolicyTable:
        """Its table for a key, a failure there naming the key (`StrategyError.key`)."""
        try:
            return self.keyed_table(values or ())
        except StrategyError as error:
            error.key = tuple(zip(self.key or (), values or (), strict=True))
            raise

    @property
    def fingerprint_shown(self) -> str:
        """Its fingerprint, or in one phrase why it has none."""
        return self.fingerprint or none_reason(self.context_free)

    def prefetch(self, player: Player, starts: Sequence[Start]) -> None:
        """Tell a player of the turns it will play next, in order, so that a host plays them in one round trip."""

    def check(
        self, seed: Seed = 0, samples: int = DEFAULT_SAMPLES, progress: Callable[[int, int], None] | None = None
    ) -> CheckReport:
        """The strategy against the contract (`strategies.check`); `progress` is told the answers
        given and their total."""
        raise NotImplementedError

    def close(self) -> None:
        """End the strategy's host, if it has one."""

    def __enter__(self) -> SeatedStrategy:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


class _Local(SeatedStrategy):
    """A built-in strategy, in this process."""

    def __init__(self, loaded: LoadedStrategy, rules: Rules) -> None:
        self.loaded = loaded
        self.spec, self.params, self.name = loaded.spec, dict(loaded.params), loaded.name
        self.description = loaded.cls.description
        self.exact, self.context_free = loaded.cls.tabulable(), not (loaded.cls.reads_context or loaded.cls.key)
        self.key = declared_key(loaded.cls, rules, self.name)
        self.builtin = True
        self.rules = rules
        self._keyed: StrategyPlayer | None = None

    def player(self) -> StrategyPlayer:
        return StrategyPlayer(self.loaded.make(), self.rules, self.name, params=self.loaded.params)

    @property
    def table(self) -> PolicyTable:
        return self.player().policy

    def keyed_table(self, values: tuple[Any, ...]) -> PolicyTable:
        if self._keyed is None:
            self._keyed = self.player()
        return self._keyed.keyed_policy(values)

    def check(
        self, seed: Seed = 0, samples: int = DEFAULT_SAMPLES, progress: Callable[[int, int], None] | None = None
    ) -> CheckReport:
        loaded = self.loaded
        return check_strategy(loaded.cls, loaded.params, name=self.name, seed=seed, samples=samples, progress=progress)


class _AnswerHost(Host):
    """A host whose every request has `timeout` seconds of its own."""

    limit = "the limit per answer"

    def exchange(self, request: Request | Setup, when: str) -> bytes:
        self.deadline = time.monotonic() + self.timeout
        return super().exchange(request, when)


class _Hosted(SeatedStrategy):
    """A user's strategy, in a host of its own."""

    def __init__(self, host: Host, spec: str, params: dict[str, Any]) -> None:
        self.host = host
        self.spec, self.params, self.name = spec, params, host.name
        self.description = host.description
        self.exact, self.context_free, self.key = host.exact, host.context_free, host.key
        self.builtin = False
        self.rules = host.rules
        self._table: PolicyTable | None = None
        self._keyed: RemotePlayer | None = None

    def player(self) -> RemotePlayer:
        return self.host.player()

    @property
    def table(self) -> PolicyTable:
        if self._table is None:
            self._table = self.player().policy
        return self._table

    def keyed_table(self, values: tuple[Any, ...]) -> PolicyTable:
        if self._keyed is None:
            self._keyed = self.player()
        return self._keyed.keyed_policy(values)

    def prefetch(self, player: Player, starts: Sequence[Start]) -> None:
        if isinstance(player, RemotePlayer):
            player.prefetch(starts)

    def check(
        self, seed: Seed = 0, samples: int = DEFAULT_SAMPLES, progress: Callable[[int, int], None] | None = None
    ) -> CheckReport:
        return remote_check(self.host, seed, samples, progress)

    def close(self) -> None:
        self.host.stop()


def seat_strategies(
    given: Sequence[Given],
    rules: Rules,
    *,
    timeout: float = STRATEGY_TIMEOUT,
    memory_limit_mib: int | None = None,
    table: int | None = None,
) -> list[SeatedStrategy]:
    """Seat strategies under `rules`, the users' hosts loading side by side, each given `timeout`
    seconds to load and to answer each request, and `memory_limit_mib` MiB (None: a default share
    of the machine's). Raises StrategyLoadError for a spec that names no strategy it can build, or
    a built-in that refuses the rules at a table of `table` (`perfect` over several rounds at three),
    and TournamentFailure for a strategy whose host dies or hangs as it loads."""
    limit = host_memory_limit(memory_limit_mib, 1)
    for spec, _, name in given:  # what a spec or name says wrong is said here, where no user's code is run
        target = split_spec(spec)[0]
        if name is not None:
            check_utf8(name, "strategy name")
        if ":" not in target and registered(target) is None:
            resolve(target, spec)  # names no strategy: raises, importing nothing
    seated: list[SeatedStrategy] = []
    with contextlib.ExitStack() as stack:
        launched: list[tuple[Host, str, dict[str, Any]] | LoadedStrategy] = []
        for spec, params, name in given:
            if builtin_spec(spec):
                loaded = load_strategy(spec, params, name)
                if table is not None:
                    loaded.cls.key_at(rules, table)
                launched.append(loaded)
                continue
            host = _AnswerHost.launch(spec, params, name, rules, timeout=timeout, memory_limit_mib=limit)
            stack.callback(host.stop)
            launched.append((host, spec.strip(), {**split_spec(spec)[1], **params}))
        for one in launched:
            if isinstance(one, LoadedStrategy):
                seated.append(_Local(one, rules))
                continue
            host, spec, params = one
            try:
                seated.append(_Hosted(host.ready(), spec, params))
            except HostLost as error:
                raise TournamentFailure(marked(error)) from None
        stack.pop_all()
    return seated


def seat_strategy(
    spec: str,
    rules: Rules,
    params: Mapping[str, Any] | None = None,
    name: str | None = None,
    *,
    timeout: float = STRATEGY_TIMEOUT,
    memory_limit_mib: int | None = None,
) -> SeatedStrategy:
    """One strategy seated under `rules` (see `seat_strategies`)."""
    return seat_strategies([(spec, params or {}, name)], rules, timeout=timeout, memory_limit_mib=memory_limit_mib)[0]
