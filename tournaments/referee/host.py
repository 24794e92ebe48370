"""A strategy's host under --isolate: the process, of its own, where one user's strategy is
loaded and asked its questions (`isolation.HOST_CODE` runs `main` with the socket's file
descriptor as its last argument).

It reads requests from the referee (pickled: the referee trusts its own data) on the socket FD,
and answers each in JSON, a batch of turns played in full as plain numbers (`wire.ANSWERS`): the
referee trusts nothing the host says, it parses plain data and checks every answer. Its
supervisor (`supervisor.py`) confines it before its code runs (a process group of its own, death
with the supervisor, a memory limit, Ctrl-C ignored) and ends whatever it starts; the host then
confines itself by the operating system (`confinement.py`) before it loads the strategy. It ends
when the referee closes the socket.
"""

from __future__ import annotations

import collections
import gc
import itertools
import json
import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import Rules
from strategies.keys import declared_key
from strategies.loading import (
    LoadedStrategy,
    StrategyLoadError,
    build,
    load_strategy,
    source_file,
    source_sha256,
)
from strategies.names import told_declared
from strategies.player import StrategyError, StrategyPlayer
from strategies.seeding import defer_global_seeds
from strategies.shown import cause

from .confinement import confine_host
from .wire import (
    Answered,
    CheckAnswers,
    CheckDeclared,
    Declared,
    HostFailure,
    Loaded,
    Made,
    NewPlayer,
    Played,
    Reply,
    Request,
    Setup,
    StuckAt,
    Table,
    TableAsked,
    TurnsAsked,
)

if TYPE_CHECKING:
    from strategies.questions import Question

KEPT_PLAYERS = 4
"""Players (fresh instances of the strategy) kept at once: the referee uses one or two at a time."""


class _Host:
    """The strategy, loaded, and the players the referee has asked for."""

    def __init__(self, loaded: LoadedStrategy, rules: Rules, send: Callable[[Reply], None]) -> None:
        self.loaded = loaded
        self.rules = rules
        self.send = send
        self.players: collections.OrderedDict[int, StrategyPlayer] = collections.OrderedDict()
        self.sampled: tuple[tuple[int, int] | None, list[Question]] = (None, [])
        self.sampled_count = 0

    def answer(self, request: Request) -> Reply:
        if isinstance(request, CheckDeclared):
            return self.declared(request)
        if isinstance(request, CheckAnswers):
            return self.check_answers(request)
        if isinstance(request, NewPlayer):
            self.players[request.number] = StrategyPlayer(self.loaded.make(), self.rules, self.loaded.name)
            while len(self.players) > KEPT_PLAYERS:
                self.players.popitem(last=False)
            return Made()
        player = self.players[request.number]
        if isinstance(request, TableAsked):
            policy = player.policy if request.key is None else player.keyed_policy(request.key)
            return Table(policy.next_mask.tolist(), list(policy.dice))
        return self.turns(player, request)

    def questions(self, seed: int, samples: int) -> list[Question]:
        """A check's questions, sampled as the referee samples them, under the rules the strategy
        plays (those it refuses left out, as `Declared.refused` tells the referee); kept for its next request."""
        from strategies.check import played  # loaded only by a host asked to check: most play
        from strategies.questions import sample_questions

        if self.sampled[0] != (seed, samples):
            sampled, rule_sets = sample_questions(seed, samples)
            self.sampled = ((seed, samples), played(self.loaded.cls, self.loaded.name, sampled, rule_sets)[0])
            self.sampled_count = len(sampled)
        return self.sampled[1]

    def declared(self, request: CheckDeclared) -> Declared:
        """The strategy's declarations under each of a check's questions' rules."""
        from strategies.check import declarations

        questions = self.questions(request.seed, request.samples)
        found = declarations(self.loaded.cls, self.loaded.name, questions)
        keys = [None if key is None else list(key) for key in found.keys]
        kept = {question.seed for question in questions}  # a sampled question's seed is its number
        refused = [number for number in range(self.sampled_count) if number not in kept]
        return Declared(found.stochastic, found.reads_context, found.tabulable, keys, refused)

    def check_answers(self, request: CheckAnswers) -> Reply:
        """A check's questions answered in the order asked, each sent as it is given (the last one
        the reply); the referee gives the verdicts."""
        from strategies.check import TIME_LIMIT, Failure, Stuck, answers

        loaded, last = self.loaded, None
        questions = self.questions(request.seed, request.samples)
        asked = answers(
            lambda: build(loaded.cls, loaded.params, loaded.name),
            loaded.name,
            TIME_LIMIT,
            questions,
            request.order,
            request.offset,
            request.stochastic,
        )
        try:
            for number, answer, seconds in asked:
                if last is not None:
                    self.send(last)
                wired = (
                    (answer.text, answer.missing, answer.raised, answer.fits, answer.renamed)
                    if isinstance(answer, Failure)
                    else answer
                )
                last = Answered(number, wired, seconds)
        except Stuck as stuck:
            if last is not None:
                self.send(last)
            return StuckAt(stuck.number)
        return last if last is not None else HostFailure("a check asked no questions.")

    def turns(self, player: StrategyPlayer, asked: TurnsAsked) -> Played:
        """Play turns in order on the dice the referee dealt, the strategy's every answer recorded;
        the first failure ends the batch (the referee meets it at that turn, after the answers the
        strategy gave in it before it failed)."""
        width, dealt = self.rules.tiles + 1, asked.dealt
        rolls = [dealt[start : start + width] for start in range(0, len(dealt), width)]
        turns = zip(asked.contexts, itertools.repeat(asked.seed), asked.games, rolls, strict=False)
        given: list[int] = []
        counts: list[int] = []
        try:
            player.answer_turns(turns, given, counts)
        except StrategyError as error:
            return Played(counts, given, str(error))
        except BaseException as error:  # anything else the strategy raised, said as its failure
            return Played(counts, given, f"strategy {self.loaded.name!r} raised {cause(error)}")
        return Played(counts, given)


class Channel:
    """The host's end of its socket, framed as `multiprocessing.connection.Connection` frames it
    (a 4-byte big-endian length, or -1 and an 8-byte one, then the bytes), without loading
    `multiprocessing`: a host starts for every user's strategy of a run."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def recv(self) -> Any:
        """The next request (pickled by the referee, which this host trusts); EOFError once it hangs up."""
        (size,) = struct.unpack("!i", self._read(4))
        if size == -1:
            (size,) = struct.unpack("!Q", self._read(8))
        return pickle.loads(self._read(size))

    def send_bytes(self, data: bytes) -> None:
        header = struct.pack("!i", len(data)) if len(data) <= 0x7FFFFFFF else struct.pack("!iQ", -1, len(data))
        view = memoryview(header + data)
        while view:
            view = view[os.write(self.fd, view) :]

    def _read(self, size: int) -> bytes:
        parts, left = [], size
        while left:
            part = os.read(self.fd, left)
            if not part:
                raise EOFError
            parts.append(part)
            left -= len(part)
        return b"".join(parts)


def _send(connection: Channel, reply: Reply) -> None:
    sent = reply.wire()
    connection.send_bytes(sent if isinstance(sent, bytes) else json.dumps(sent).encode())


def _load(setup: Setup) -> tuple[LoadedStrategy | None, Loaded | HostFailure]:
    """Load the strategy as the referee would; the reply says what it is, or why it failed."""
    try:
        loaded = load_strategy(setup.spec, setup.params, setup.name)
        file = source_file(loaded)
        digest = None if file is None else source_sha256(file)
        key = declared_key(loaded.cls, setup.rules, loaded.name)
        return loaded, Loaded(
            loaded.name,
            loaded.cls.tabulable(),
            not (loaded.cls.reads_context or key),
            loaded.origin,
            loaded.cls.description,
            digest,
            key,
        )
    except StrategyLoadError as error:
        return None, HostFailure(str(error))
    except BaseException as error:  # a module may raise anything as it loads, sys.exit included
        return None, HostFailure(f"strategy {setup.spec!r} failed to load: {cause(error)}")


def serve(connection: Channel) -> None:
    """Load the strategy the first request names, then answer until the referee hangs up."""
    setup: Setup = connection.recv()
    told_declared(setup.declared)  # what the referee read of installed packages, used while it confines itself
    try:  # on this process's own import path (-P): nothing beside the strategy is imported before it holds
        confine_host(setup.spec, setup.path, setup.scratch)
    except OSError as error:  # said before any of the strategy's code runs: it never does
        _send(connection, HostFailure(f"the process of strategy {setup.spec!r} could not be confined: {error}."))
        return
    sys.path[:] = setup.path
    told_declared(setup.declared)
    defer_global_seeds()  # this process runs one strategy: `random` is seeded where it draws
    loaded, loaded_reply = _load(setup)
    _send(connection, loaded_reply)
    if loaded is None:
        return
    gc.freeze()  # what loading made stays: the collector no longer walks it as the turns' objects come and go
    host = _Host(loaded, setup.rules, lambda reply: _send(connection, reply))
    while True:
        try:
            request: Request = connection.recv()
        except (EOFError, OSError):
            return
        reply: Reply
        try:
            reply = host.answer(request)
        except StrategyError as error:
            reply = HostFailure(str(error))
        except StrategyLoadError as error:
            reply = HostFailure(str(error))
        except BaseException as error:  # anything else the strategy raised, said as its failure
            reply = HostFailure(f"strategy {loaded.name!r} raised {cause(error)}")
        try:
            _send(connection, reply)
        except OSError:  # the referee hung up (it stopped this host, say for a forged reply)
            return


def main() -> None:
    serve(Channel(int(sys.argv[-1])))
