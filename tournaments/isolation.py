"""--isolate, the referee's side: each user's strategy runs in a host process of its own
(`host.py`), and the referee (a worker, or this process) holds a `Host` for it and a
`RemotePlayer` per seat that asks the host each question by a round trip over a socket.

The referee never imports a user's code, and believes nothing a host says without checking:
replies are JSON (never pickles, which could run code here), bounded in size, and every answer
is checked against the question (a legal move, an allowed number of dice, a table of the right
shape whose every entry the rules allow). A host that dies, stays silent past the unit's time
limit or answers garbage is its strategy's failure, named; it is then stopped, and it dies with
the referee in any case (its own process group, PR_SET_PDEATHSIG, its socket's end).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import time
import weakref
from array import array
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

from shutbox_cli.game import THROWS, Roll, Rules, TurnContext, dice_options, move_table
from strategies.errors import StrategyError
from strategies.loading import StrategyLoadError, split_spec
from strategies.table import NOT_ROLLED, THROW_COUNT, PolicyTable

from .confine import cores, default_memory_limit_mib, kill_group

MAX_REPLY = 1 << 23
"""The longest reply a host may send, in bytes (a 12-tile table is under 1 MiB of JSON)."""
MAX_NAME = 200
"""The longest name a strategy may play under."""
STOPPED_SECONDS = 2.0
"""How long a host may take to end once its socket is closed, before it is killed."""


class RemoteFailure(StrategyError):
    """A host answered with a failure (the strategy's, said in the host), died, stayed silent or
    answered garbage: the message names the strategy; the referee says where it happened."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.name = ""
        self.answer = None
        self.raised = None


def memory_limit(configured: int | None, workers: int | None) -> int:
    """MiB a host may use: the run's limit per worker, else a default share of the machine."""
    if configured is not None:
        return configured
    return default_memory_limit_mib(2 * (workers or cores()))


class Host:
    """A user's strategy loaded in a process of its own, ready for questions.

    `start` loads it there and returns the host with what the strategy is (its `name`, whether
    it is `exact` and `context_free`); a failure to load is a `StrategyLoadError` of one
    sentence. Every question must be answered by `deadline` (time.monotonic()), when set.
    """

    def __init__(self, spec: str, rules: Rules, memory_limit_mib: int) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec
        self.exact = False
        self.context_free = False
        self.deadline: float | None = None
        self.timeout = 0.0
        self._numbers = itertools.count()
        mine, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-P", "-m", "tournaments.host", str(theirs.fileno()), str(os.getpid())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        except OSError as error:
            mine.close()
            raise StrategyLoadError(
                f"cannot start a process for strategy {spec!r}: {error.strerror or error}."
            ) from None
        finally:
            theirs.close()
        self.connection = Connection(mine.detach())
        self._memory_limit = memory_limit_mib
        self._finalizer = weakref.finalize(self, _stop, self.process, self.connection)

    @classmethod
    def start(
        cls,
        spec: str,
        params: Mapping[str, Any],
        name: str | None,
        rules: Rules,
        *,
        timeout: float,
        memory_limit_mib: int,
    ) -> Host:
        """Start a host and load the strategy in it: a `StrategyLoadError` if it cannot load."""
        host = cls(spec, rules, memory_limit_mib)
        host.timeout = timeout
        host.deadline = time.monotonic() + timeout
        setup = {
            "spec": spec,
            "params": dict(params),
            "name": name,
            "rules": rules,
            "path": list(sys.path),
            "memory_limit": memory_limit_mib,
        }
        try:
            reply = host._exchange(setup, f"while loading strategy {spec!r}")
            if "error" in reply:
                raise StrategyLoadError(_text(reply["error"], host))
            host.name = _name(reply.get("name"), spec)
            host.exact = _flag(reply.get("exact"), host)
            host.context_free = _flag(reply.get("context_free"), host)
        except RemoteFailure as failure:
            host.stop()
            raise StrategyLoadError(str(failure)) from None
        except StrategyLoadError:
            host.stop()
            raise
        host.deadline = None
        return host

    def stop(self) -> None:
        """End the host and every process its strategy started."""
        self._finalizer()

    def player(self, context_free: bool) -> RemotePlayer:
        """A new player: a fresh instance of the strategy in the host."""
        number = next(self._numbers)
        self.ask(("new", number))
        return RemotePlayer(self, number, context_free)

    def ask(self, request: tuple[Any, ...]) -> dict[str, Any]:
        """One round trip; the host's own failure (the strategy's) is a `RemoteFailure`."""
        reply = self._exchange(request, "")
        if "error" in reply:
            raise RemoteFailure(_text(reply["error"], self))
        return reply

    def _exchange(self, request: object, when: str) -> dict[str, Any]:
        when = f" {when}" if when else ""
        try:
            self.connection.send(request)
            remaining = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            if not self.connection.poll(remaining):
                self.stop()
                raise RemoteFailure(
                    f"strategy {self.name!r} did not answer{when} within the limit of {self.timeout:g} seconds per "
                    "work unit; its process was stopped (raise the limit with --timeout)."
                )
            data = self.connection.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            raise RemoteFailure(f"the process of strategy {self.name!r} {self._ended()}{when}.") from None
        try:
            reply = json.loads(data)
        except (ValueError, RecursionError):
            reply = None
        if not isinstance(reply, dict):
            self._garbage("a reply that is not a JSON object")
        return reply

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=STOPPED_SECONDS)
        except subprocess.TimeoutExpired:
            self.stop()
            return "stopped answering (its reply was cut short or too long)"
        finally:
            self.stop()
        if code < 0:
            return f"was killed by signal {-code}"
        return f"ended with status {code}"

    def _garbage(self, what: str) -> None:
        self.stop()
        raise RemoteFailure(f"the process of strategy {self.name!r} answered garbage ({what}); it was stopped.")


def _stop(process: subprocess.Popen[bytes], connection: Connection) -> None:
    connection.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOPPED_SECONDS)
    kill_group(process.pid)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOPPED_SECONDS)


def _text(value: object, host: Host) -> str:
    if not isinstance(value, str) or not value:
        host._garbage("an error that is not a message")
    return str(value)


def _name(value: object, spec: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise StrategyLoadError(
            f"strategy {spec!r} has a name that is not a non-empty string of at most {MAX_NAME} characters."
        )
    return value


def _flag(value: object, host: Host) -> bool:
    if not isinstance(value, bool):
        host._garbage("a declaration that is not true or false")
    return bool(value)


def _whole(value: object, host: Host) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        host._garbage(f"{value!r:.80} where a whole number belongs")
    return int(value)  # type: ignore[call-overload]


class RemotePlayer:
    """A strategy seated at a table, asked through its host: `StrategyPlayer`'s interface, each
    answer checked here."""

    def __init__(self, host: Host, number: int, context_free: bool) -> None:
        self.host = host
        self.number = number
        self.context_free = context_free
        self.rules = host.rules
        self._start: tuple[TurnContext, int, int] | None = None
        self._policy: PolicyTable | None = None

    def start_turn(self, context: TurnContext, seed: int, game: int) -> RemotePlayer:
        """Note the turn's start: the host hears of it with the turn's first question."""
        self._start = (context, seed, game)
        return self

    def _history(self, history: Sequence[Roll]) -> tuple[tuple[tuple[int, ...], int], ...]:
        return () if self.context_free else tuple((roll.dice, roll.shut) for roll in history)

    def choose_dice(self, open_mask: int, history: Sequence[Roll] = ()) -> int:
        start, self._start = self._start, None
        reply = self.host.ask(("dice", self.number, start, open_mask, self._history(history)))
        count = _whole(reply.get("answer"), self.host)
        if count not in dice_options(self.rules, open_mask):
            self.host._garbage(f"{count} dice where the rules allow {dice_options(self.rules, open_mask)}")
        return count

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll] = ()
    ) -> int:
        start, self._start = self._start, None
        reply = self.host.ask(("move", self.number, start, open_mask, dice, moves, self._history(history)))
        move = _whole(reply.get("answer"), self.host)
        if move not in moves:
            self.host._garbage(f"the move {move} where the legal moves are {moves}")
        return move

    @property
    def policy(self) -> PolicyTable:
        """The strategy's table, built in its host and checked here entry by entry."""
        if self._policy is None:
            reply = self.host.ask(("table", self.number))
            self._policy = _checked_table(reply.get("next_mask"), reply.get("dice"), self.rules, self.host)
        return self._policy

    def move_policy(self, open_mask: int, dice: tuple[int, ...]) -> int:
        return self.policy.move(open_mask, dice)

    def dice_policy(self, open_mask: int) -> int:
        return self.policy.dice[open_mask]


def _checked_table(next_mask: object, dice: object, rules: Rules, host: Host) -> PolicyTable:
    """A table from a host, if every entry is one the rules allow: the box after each throw is
    one a legal move leaves (or the same box when none fits, or NOT_ROLLED where the rules do
    not roll that many dice), and each number of dice is one the rules allow there."""
    boxes = rules.full_box + 1
    if not (isinstance(next_mask, list) and isinstance(dice, list)):
        host._garbage("a table that is not two lists")
    after_throw: list[int] = next_mask  # type: ignore[assignment]
    counts: list[int] = dice  # type: ignore[assignment]
    if len(after_throw) != boxes * THROW_COUNT or len(counts) != boxes:
        host._garbage("a table of the wrong size")
    if not all(type(value) is int for value in itertools.chain(after_throw, counts)):
        host._garbage("a table with entries that are not whole numbers")
    table = move_table(rules)
    throw_dice = [len(throw) for throw in THROWS]
    for mask in range(boxes):
        options = dice_options(rules, mask)
        if counts[mask] not in (options[:1] if mask == 0 else options):
            host._garbage(f"a table rolling {counts[mask]} dice where the rules allow {options}")
        row = table.row(mask)
        for index in range(THROW_COUNT):
            after = after_throw[mask * THROW_COUNT + index]
            if mask == 0:  # the shut box stays shut
                allowed = after == 0
            elif throw_dice[index] not in options:
                allowed = after == NOT_ROLLED
            elif not row[index]:
                allowed = after == mask
            else:
                allowed = 0 <= after <= mask and after & mask == after and (mask ^ after) in row[index]
            if not allowed:
                host._garbage(f"a table with an illegal move from box {mask:#b} on the throw {THROWS[index]}")
    return PolicyTable(rules, array("h", after_throw), bytes(counts))


def probe(
    spec: str, params: Mapping[str, Any], name: str | None, rules: Rules, *, timeout: float, memory_limit_mib: int
) -> tuple[str, dict[str, Any], str, bool, bool]:
    """What a user's strategy is, found by loading it in a short-lived host: its spec, its
    parameters, its name, whether it is exact and whether it is context-free. A
    `StrategyLoadError` of one sentence if it cannot load."""
    spec_params = split_spec(spec)[1]
    host = Host.start(spec, params, name, rules, timeout=timeout, memory_limit_mib=memory_limit_mib)
    host.stop()
    return spec.strip(), {**spec_params, **params}, host.name, host.exact, host.context_free
