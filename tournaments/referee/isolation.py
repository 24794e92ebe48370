"""--isolate, the referee's side: each user's strategy runs in a host process of its own
(`host.py`), and the referee (a worker, or this process) holds a `Host` for it and a
`RemotePlayer` per seat that asks the host each question by a round trip over a socket.

The referee never imports a user's code, and believes nothing a host says without checking:
replies are JSON, or a batch's answers as plain numbers (`wire.ANSWERS`; never pickles, which
could run code here), bounded in size, and every answer is checked against the question (a legal
move, an allowed number of dice, a table of the right shape whose every entry the rules allow).
A host that dies, stays silent past the unit's time limit or answers garbage is its strategy's
failure, named; it is then stopped. Each host runs under a supervisor (`supervisor.py`) that
limits its memory, and ends it and everything it started when it is stopped, when it ends, and
when the referee dies.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Roll, Rules, TurnContext, dice_options, turn_rolls
from shutbox_cli.game.bulk_dice import outcomes, stream_keys
from shutbox_cli.game.dice import MASK, PAIRS
from shutbox_cli.game.terms import GameNumber, Mask, Seed
from strategies.errors import StrategyError
from strategies.keys import checked_key
from strategies.loading import StrategyLoadError, declared, split_spec
from strategies.table import PolicyTable

from ..errors import setting
from . import confinement, seccomp, supervisor
from .wire import (
    ANSWERS,
    ANSWERS_HEADER,
    ContextFields,
    NewPlayer,
    Played,
    Request,
    Setup,
    TableAsked,
    TurnsAsked,
)

PACKAGES = str(Path(__file__).resolve().parents[2])  # tournaments/referee/ -> the folder of our packages
"""The folder holding our packages, first on a host's path whatever the current folder holds (`-P`)."""
HOST_CODE = (
    "import os, sys; os.environ.update(OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1'); "
    "sys.path.insert(0, sys.argv[1]); from tournaments.referee.host import main; main()"
)
"""A host's program, run by its supervisor (`supervisor.py`): its arguments are PACKAGES and its
socket's file descriptor. numpy starts no thread of its own: a host confines itself while it has
one thread (Landlock and capabilities hold the thread that sets them, and what it starts)."""
MAX_REPLY = 1 << 26
"""The longest reply a host may send, in bytes (a 12-tile table is under 1 MiB of JSON, a bulk
unit's turns of one seat and round a few MiB)."""
MAX_NAME = 200
"""The longest name a strategy may play under."""
MAX_DESCRIPTION = 2000
"""The longest description a strategy may give of itself."""
MAX_ORIGIN = 4096
"""The longest origin a host may say its strategy has ("file PATH")."""
SHA256 = re.compile(r"[0-9a-f]{64}")
STOPPED_SECONDS = 2.0
"""How long a host may take to end once killed, or to say why it ended."""


class RemoteFailure(StrategyError):
    """A host answered with a failure (the strategy's, said in the host), died, stayed silent or
    answered garbage: the message names the strategy; the referee says where it happened."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.name = ""
        self.answer = None
        self.raised = None


class HostLost(StrategyLoadError):
    """A host that died, stayed silent or answered garbage while its strategy loaded: the
    strategy's failure (where a `StrategyLoadError` of its own is a bad spec)."""


class Host:
    """A user's strategy loaded in a process of its own, ready for questions.

    `launch` starts the process and has it load the strategy; `ready` waits for it and says
    what the strategy is (its `name`, whether it is `exact` and `context_free`, its `origin` and
    the `sha256` of its class's file), or raises a `StrategyLoadError` of one sentence. Every
    reply must come by `deadline` (time.monotonic()), when set; `limit` says what the time limit
    is per, in its message.
    """

    limit = "the limit per work unit"
    description = ""

    def __init__(self, spec: str, rules: Rules, memory_limit_mib: int = 0, strict: bool = False) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec
        self.exact = False
        self.context_free = False
        self.key: tuple[str, ...] | None = None
        self.origin = ""
        self.sha256: str | None = None
        self.deadline: float | None = None
        self.timeout = 0.0
        self.memory_limit_mib = memory_limit_mib
        self._numbers = itertools.count()
        self.confinement = confinement.state()
        confinement.demanded(self.confinement, spec, strict)
        seccomp.undumpable()  # no process of the user's may attach to this referee
        self.scratch = confinement.scratch()
        mine, theirs = socket.socketpair()
        # Unbuffered (-u): what the strategy prints reaches stderr even though its host is killed.
        command = [sys.executable, "-P", "-u", "-c", HOST_CODE, PACKAGES, str(theirs.fileno())]
        try:
            self.process = supervisor.start(command, memory_limit_mib, (theirs.fileno(),))
        except OSError as error:
            mine.close()
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise StrategyLoadError(
                f"cannot start a process for strategy {spec!r}: {error.strerror or error}."
            ) from None
        finally:
            theirs.close()
        self.connection = Connection(mine.detach())
        self._finalizer = weakref.finalize(self, _stop, self.process, self.connection, self.scratch)

    @classmethod
    def launch(
        cls,
        spec: str,
        params: Mapping[str, Any],
        name: str | None,
        rules: Rules,
        *,
        timeout: float,
        memory_limit_mib: int,
        strict: bool = False,
    ) -> Host:
        """Start a host and have it load the strategy (see `ready`): hosts launched one after
        another load side by side. `strict`: refuse unless the host's confinement is full, as the
        run demanded where it began (`confinement.demanded`)."""
        host = cls(spec, rules, memory_limit_mib, strict)
        host.timeout = timeout
        host.deadline = time.monotonic() + timeout
        setup = Setup(spec, dict(params), name, rules, list(sys.path), declared(), host.scratch)
        try:
            host.connection.send(setup)
        except OSError:
            host.stop()
            raise StrategyLoadError(f"the process of strategy {spec!r} {host._ended()} as it started.") from None
        return host

    def ready(self) -> Host:
        """The host once its strategy has loaded: a `StrategyLoadError` if it cannot load."""
        try:
            reply = self._receive(f"while loading strategy {self.spec!r}")
            if "error" in reply:
                raise StrategyLoadError(_text(reply["error"], self))
            self.name = _name(reply.get("name"), self.spec)
            self.exact = _flag(reply.get("exact"), self)
            self.context_free = _flag(reply.get("context_free"), self)
            self.key = _features(reply.get("key"), self)
            self.description = _description(reply.get("description", ""), self)
            self.origin = _origin(reply.get("origin", ""), self)
            self.sha256 = _sha256(reply.get("sha256"), self)
            confinement.hosting(self.confinement)
        except RemoteFailure as failure:
            self.stop()
            raise HostLost(str(failure)) from None
        except StrategyLoadError:
            self.stop()
            raise
        self.deadline = None
        return self

    def stop(self) -> None:
        """End the host and every process its strategy started."""
        self._finalizer()

    def player(self) -> RemotePlayer:
        """A new player: a fresh instance of the strategy in the host."""
        number = next(self._numbers)
        self.ask(NewPlayer(number))
        return RemotePlayer(self, number)

    def ask(self, request: Request) -> dict[str, Any]:
        """One round trip; the host's own failure (the strategy's) is a `RemoteFailure`."""
        reply = self._exchange(request, "")
        if "error" in reply:
            raise RemoteFailure(_text(reply["error"], self))
        return reply

    def _exchange(self, request: Request | Setup, when: str) -> dict[str, Any]:
        return self._parsed(self._exchange_bytes(request, when))

    def _exchange_bytes(self, request: Request | Setup, when: str) -> bytes:
        """One round trip, the reply as it came (JSON, or `wire.ANSWERS` and its answers)."""
        try:
            self.connection.send(request)
        except OSError:
            raise RemoteFailure(f"the process of strategy {self.name!r} {self._ended()}.") from None
        return self._receive_bytes(when)

    def _receive(self, when: str) -> dict[str, Any]:
        return self._parsed(self._receive_bytes(when))

    def _receive_bytes(self, when: str) -> bytes:
        when = f" {when}" if when else ""
        try:
            remaining = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            if not self.connection.poll(remaining):
                self.stop()
                raise RemoteFailure(
                    f"strategy {self.name!r} did not answer{when} within {self.timeout:g} seconds "
                    f"({self.limit}); its process was stopped (raise the limit with {setting('timeout')})."
                )
            return self.connection.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            raise RemoteFailure(f"the process of strategy {self.name!r} {self._ended()}{when}.") from None

    def _parsed(self, data: bytes) -> dict[str, Any]:
        """A reply read as the JSON object it must be."""
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
            return f"was killed by signal {-code} ({_signal_name(-code)})"
        if code == supervisor.OVER_MEMORY and self.memory_limit_mib:
            return (
                f"and those it started were stopped: together they used more than its memory limit "
                f"of {self.memory_limit_mib} MiB (raise it with {setting('memory_limit')})"
            )
        return f"ended with status {code}"

    def _garbage(self, what: str) -> NoReturn:
        self.stop()
        raise RemoteFailure(f"the process of strategy {self.name!r} answered garbage ({what}); it was stopped.")


def _stop(process: subprocess.Popen[bytes], connection: Connection, scratch: str) -> None:
    """Close the host's socket and have its supervisor kill the host and whatever its strategy
    started, at once: it holds nothing worth waiting for (not even its `atexit` functions); then
    remove its scratch folder."""
    connection.close()
    supervisor.stop(process, STOPPED_SECONDS)
    shutil.rmtree(scratch, ignore_errors=True)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


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


def _description(value: object, host: Host) -> str:
    if not isinstance(value, str) or len(value) > MAX_DESCRIPTION or not value.isprintable():
        host._garbage("a description that is not a short line of printable text")
    return value


def _origin(value: object, host: Host) -> str:
    if not isinstance(value, str) or len(value) > MAX_ORIGIN:
        host._garbage(f"an origin that is not a string of at most {MAX_ORIGIN} characters")
    return value


def _sha256(value: object, host: Host) -> str | None:
    if value is not None and not (isinstance(value, str) and SHA256.fullmatch(value)):
        host._garbage("a sha256 that is not 64 lowercase hex digits")
    return value


def _flag(value: object, host: Host) -> bool:
    if not isinstance(value, bool):
        host._garbage("a declaration that is not true or false")
    return bool(value)


TurnKey = tuple[int, int, int, int]
"""A turn's dice stream: (seed, game, round, seat)."""


class RemotePlayer:
    """A strategy seated at a table, asked through its host: `StrategyPlayer`'s interface, each
    answer checked here.

    A turn costs one round trip, not one per question: at the turn's first question the host is
    sent the turn's dice (the referee's own, as many as a turn can use) and plays the whole turn
    with its own copy of the engine, sending back each answer; the referee's engine then asks its
    questions and is answered from that list, every answer checked as it is used. `prefetch` does
    the same for many turns at once (a bulk unit's turns of one seat and round)."""

    def __init__(self, host: Host, number: int) -> None:
        self.host = host
        self.number = number
        self.rules = host.rules
        self._start: tuple[TurnContext, Seed, GameNumber] | None = None
        self._answers: list[int] | None = None
        self._prefetched: dict[TurnKey, list[int]] = {}
        self._dealt: dict[TurnKey, bytes] = {}
        self._failure: tuple[TurnKey, Played] | None = None
        self._batch: Batch | None = None
        self._error: str | None = None
        self._policy: PolicyTable | None = None

    def start_turn(self, context: TurnContext, seed: Seed, game: GameNumber) -> RemotePlayer:
        """Note the turn's start: the host hears of it with the turn's first question."""
        self._start = (context, seed, game)
        self._answers = None
        self._error = None
        return self

    def prefetch(self, starts: Sequence[tuple[TurnContext | ContextFields, Seed, GameNumber]]) -> None:
        """Have the host play these turns (in this order, as the referee will; of one dice seed) in
        one round trip, to be asked of it (`play`'s batch, every turn kept), each answer checked
        when used. A turn's context may come as its fields."""
        if not starts:
            return
        seed = starts[0][1]
        if any(start[1] != seed for start in starts):
            raise ValueError("a host is asked the turns of one dice seed at a time.")
        self.play(seed, [_fields(context) for context, _, _ in starts], [game for _, _, game in starts])
        self.keep(0)

    def play(
        self,
        seed: Seed,
        contexts: list[ContextFields],
        games: list[GameNumber],
        drawn: npt.NDArray[np.uint8] | None = None,
    ) -> Batch:
        """`prefetch` as arrays, for checking all at once: turn t played where `contexts[t]` says,
        on the dice stream of `seed` and `games[t]`; the turns' dice and the host's answers, none of
        them checked yet (`drawn`: the turns' `dealt_outcomes`, if already worked out). Before the
        engine asks the player any of these turns, `keep` the ones it will ask."""
        self._prefetched.clear()
        self._dealt.clear()
        self._failure = None
        if drawn is None:
            keys = [(seed, game, shown[2], shown[1]) for shown, game in zip(contexts, games, strict=True)]
            drawn = dealt_outcomes(keys, self.rules.tiles + 1)
        sent = [_unseen(shown) for shown in contexts] if self.host.context_free else contexts
        data = self.host._exchange_bytes(TurnsAsked(self.number, seed, sent, games, drawn.tobytes()), "")
        batch = Batch(seed, contexts, games, drawn, *_answered(data, len(games), self.rules, self.host))
        self._batch = batch
        return batch

    def keep(self, first: int) -> None:
        """Keep the turns of the last `play` from its `first` on for the engine to ask, one by one."""
        batch = self._batch
        if batch is None or first >= len(batch.games):
            return
        played = batch.counts.size
        offsets = np.concatenate(([0], np.cumsum(batch.counts))).tolist()
        given = batch.given.tolist()
        for index in range(first, len(batch.games)):
            key = batch.key(index)
            self._dealt[key] = batch.dealt[index].tobytes()
            if index < played:
                self._prefetched[key] = given[offsets[index] : offsets[index + 1]]
        if batch.error is not None and played < len(batch.games):
            self._failure = (batch.key(played), Played([], list(batch.failed), batch.error))

    @property
    def answering(self) -> bool:
        """Whether its host still answers: one stopped (for a bad answer, its silence or its end) does not."""
        return not self.host.connection.closed

    def rolls(self, context: TurnContext, seed: Seed, game: GameNumber) -> Iterator[tuple[int, int]]:
        """The turn's dice: those its host was dealt, where it was, else the stream's."""
        dealt = self._dealt.get(_key(context, seed, game))
        return turn_rolls(seed, game, context.round, context.seat) if dealt is None else map(PAIRS.__getitem__, dealt)

    def _next(self) -> int:
        """The strategy's next answer in this turn; where it failed in this turn, the failure
        once the answers it gave before it are used."""
        if self._answers is None:
            if self._start is None:
                raise RuntimeError("a question was asked before the turn started.")
            key = _key(*self._start)
            if key not in self._prefetched and (self._failure is None or self._failure[0] != key):
                self.prefetch([self._start])
            if key not in self._prefetched and self._failure is not None and self._failure[0] == key:
                self._answers, self._error = list(self._failure[1].given), self._failure[1].error
            else:
                self._answers = self._prefetched.pop(key)
            self._answers.reverse()
        if not self._answers:
            if self._error is not None:
                raise RemoteFailure(self._error)
            self.host._garbage("fewer answers than the turn asked for")
        return self._answers.pop()

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll] = ()) -> int:
        count = self._next()
        if count not in dice_options(self.rules, open_mask):
            self.host._garbage(f"{count} dice where the rules allow {dice_options(self.rules, open_mask)}")
        return count

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll] = ()
    ) -> Mask:
        move = self._next()
        if move not in moves:
            self.host._garbage(f"the move {move} where the legal moves are {moves}")
        return move

    def keyed_policy(self, values: tuple[Any, ...]) -> PolicyTable:
        """A keyed strategy's table for one key, built in its host and checked here entry by entry."""
        reply = self.host.ask(TableAsked(self.number, values))
        return checked_table(reply.get("next_mask"), reply.get("dice"), self.rules, self.host._garbage)

    @property
    def policy(self) -> PolicyTable:
        """The strategy's table, built in its host and checked here entry by entry."""
        if self._policy is None:
            reply = self.host.ask(TableAsked(self.number))
            self._policy = checked_table(reply.get("next_mask"), reply.get("dice"), self.rules, self.host._garbage)
        return self._policy


def _features(value: object, host: Host) -> tuple[str, ...] | None:
    """A key as a host says it: None, or known feature names (never on an exact or context-free strategy)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(type(feature) is str for feature in value):
        host._garbage("a key that is not a list of feature names")
    try:
        features = checked_key(tuple(value), host.name)
    except ValueError:
        host._garbage(f"a key of unknown features {value!r}")
    if host.exact or host.context_free:
        host._garbage("a key on a strategy it calls exact or context-free")
    return features


def _key(context: TurnContext, seed: Seed, game: GameNumber) -> TurnKey:
    return seed, game, context.round, context.seat


def _fields(context: TurnContext | ContextFields) -> ContextFields:
    if isinstance(context, tuple):
        return context
    return context.player, context.seat, context.round, context.playoff, context.scores, context.totals, context.active


def _unseen(fields: ContextFields) -> ContextFields:
    """What the host of a strategy that reads nothing of the game is sent of a turn's context: its
    seat and round (which seed the strategy's generators), the rest a solo game's first turn's."""
    return (0, fields[1], fields[2], False, (None,), (0,), (True,))


def dealt_outcomes(keys: Sequence[TurnKey], count: int) -> npt.NDArray[np.uint8]:
    """The first `count` rolls of each turn's dice stream as outcome codes ([turn, roll]; `PAIRS`
    gives the dice), worked out together with numpy (the same rolls as `turn_rolls`): a turn uses
    at most one roll per tile, plus the one that ends it."""
    if not keys:
        return np.empty((0, count), dtype=np.uint8)
    parts = (np.array([part & MASK for part in column], dtype=np.uint64) for column in zip(*keys, strict=True))
    return outcomes(stream_keys(*parts)[:, None], np.arange(count, dtype=np.uint64)[None, :])


class Batch(NamedTuple):
    """Turns a host was asked to play (`RemotePlayer.play`), none of its answers checked yet: each
    turn's context (its fields) and dice stream (`seed` and its game) and dice (`dealt[turn]`,
    outcome codes), the number of answers of each turn it played in full (`counts`, the turns
    before the one that failed, if any) and those answers one after another (`given`); the
    failure that ended the batch, and the answers given in that turn before it."""

    seed: Seed
    contexts: list[ContextFields]
    games: list[GameNumber]
    dealt: npt.NDArray[np.uint8]
    counts: npt.NDArray[np.intp]
    given: npt.NDArray[np.int64]
    error: str | None = None
    failed: tuple[int, ...] = ()

    def key(self, turn: int) -> TurnKey:
        """A turn's dice stream."""
        shown = self.contexts[turn]
        return self.seed, self.games[turn], shown[2], shown[1]


def _answered(
    data: bytes, asked: int, rules: Rules, host: Host
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], str | None, tuple[int, ...]]:
    """A host's turns as `Batch` holds them, checked for shape: no more turns than asked, each a
    short list of whole numbers; and the failure that ended the batch before the turns asked, a
    message, with the answers given in that turn before it."""
    if data[:1] == ANSWERS:
        return (*_answers_sent(data, asked, rules, host), None, ())
    reply = host._parsed(data)
    if "error" in reply and "turns" not in reply:  # the host's own failure, not a turn's
        raise RemoteFailure(_text(reply["error"], host))
    turns = reply.get("turns")
    if not isinstance(turns, list) or len(turns) > asked:
        host._garbage("a list of turns that does not fit the turns asked")
    if _short_lists_of_ints(turns, rules):  # all at once: fresh lists of ints, parsed here
        answers: list[list[int]] = turns
    else:  # the first that is not says what is wrong
        answers = [_answers(answers, rules, host) for answers in turns]
    counts = np.fromiter(map(len, answers), dtype=np.intp, count=len(answers))
    given = np.fromiter(itertools.chain.from_iterable(answers), dtype=np.int64, count=int(counts.sum()))
    if "error" not in reply or len(turns) == asked:
        return counts, given, None, ()
    return counts, given, _text(reply["error"], host), tuple(_answers(reply.get("given", []), rules, host))


def _answers_sent(
    data: bytes, asked: int, rules: Rules, host: Host
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """The answers of a batch played in full, sent as `wire.answers_bytes` encodes them."""
    if len(data) < ANSWERS_HEADER.size:
        host._garbage("answers cut short")
    _, turns = ANSWERS_HEADER.unpack_from(data)
    if turns != asked:
        host._garbage("a list of turns that does not fit the turns asked")
    if len(data) < ANSWERS_HEADER.size + turns:
        host._garbage("answers cut short")
    counts = np.frombuffer(data, dtype=np.uint8, count=turns, offset=ANSWERS_HEADER.size).astype(np.intp)
    if counts.size and int(counts.max()) > 2 * (rules.tiles + 1):
        host._garbage("a turn's answers that are not a short list")
    total = int(counts.sum())
    start = ANSWERS_HEADER.size + turns
    if len(data) != start + 2 * total:
        host._garbage("answers of a length that does not fit their counts")
    return counts, np.frombuffer(data, dtype="<u2", count=total, offset=start).astype(np.int64)


def _short_lists_of_ints(turns: list[Any], rules: Rules) -> bool:
    """Whether every turn's answers are a list of no more whole numbers than a turn can ask."""
    return (
        set(map(type, turns)) <= {list}
        and max(map(len, turns), default=0) <= 2 * (rules.tiles + 1)
        and set(map(type, itertools.chain.from_iterable(turns))) <= {int}
        and min(itertools.chain.from_iterable(turns), default=0) >= 0
        and max(itertools.chain.from_iterable(turns), default=0) <= LARGEST_ANSWER
    )


def _answers(value: object, rules: Rules, host: Host) -> list[int]:
    """One turn's answers from a host: whole numbers, no more than a turn can ask (each is checked
    against its question when it is used)."""
    if not isinstance(value, list) or len(value) > 2 * (rules.tiles + 1):
        host._garbage("a turn's answers that are not a short list")
    if not all(type(answer) is int for answer in value):
        host._garbage("a turn's answers that are not whole numbers")
    if not all(0 <= answer <= LARGEST_ANSWER for answer in value):
        host._garbage("a turn's answers that are not a move's tiles or a number of dice")
    return list(value)


LARGEST_ANSWER = 0xFFFF
"""The largest answer a host may send (a move's mask or a number of dice: as `wire.answers_bytes`
sends them, in two bytes); the referee checks each against its question."""


def checked_table(next_mask: object, dice: object, rules: Rules, refuse: Callable[[str], NoReturn]) -> PolicyTable:
    """A table from a host (or from the cache of a user's tables), if every entry is one the rules
    allow: the box after each throw is one a legal move leaves (or the same box when none fits, or
    NOT_ROLLED where the rules do not roll that many dice), and each number of dice is one the rules
    allow there. Else `refuse` raises, told what is wrong in a few words."""
    from .table_check import checked_table as check  # numpy, loaded only where a table is checked

    found = check(next_mask, dice, rules)
    if isinstance(found, str):
        refuse(found)
    return found


class Probed(NamedTuple):
    """What a probe finds: the strategy's spec, its parameters, its name, whether it is exact and
    whether it is context-free, where it comes from and the sha256 of its class's file (None: none)."""

    spec: str
    params: dict[str, Any]
    name: str
    exact: bool
    context_free: bool
    origin: str = ""
    sha256: str | None = None
    key: tuple[str, ...] | None = None


def probe(
    spec: str,
    params: Mapping[str, Any],
    name: str | None,
    rules: Rules,
    *,
    timeout: float,
    memory_limit_mib: int,
    kept: Callable[[Host, Probed], None] | None = None,
) -> Callable[[], Probed]:
    """Start finding what a user's strategy is by loading it in a host; the result is the call
    that waits for the answer (a `StrategyLoadError` of one sentence if it cannot load), so that
    several probes run side by side. The host is then stopped, or handed to `kept`."""
    spec_params = split_spec(spec)[1]
    host = Host.launch(spec, params, name, rules, timeout=timeout, memory_limit_mib=memory_limit_mib)
    return lambda: _probed(host.ready(), spec.strip(), {**spec_params, **params}, kept)


def _probed(host: Host, spec: str, params: dict[str, Any], kept: Callable[[Host, Probed], None] | None) -> Probed:
    found = Probed(spec, params, host.name, host.exact, host.context_free, host.origin, host.sha256, host.key)
    if kept is None:
        host.stop()
    else:
        kept(host, found)
    return found
