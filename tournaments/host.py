"""A strategy's host under --isolate: the process, of its own, where one user's strategy is
loaded and asked its questions (`python -P -m tournaments.host FD PARENT`).

It reads requests from the referee (pickled: the referee trusts its own data) on the socket FD,
and answers each in JSON (the referee trusts nothing the host says: it parses plain data and
checks every answer). It confines itself first (a process group of its own, death with the
referee, a memory limit), and ends when the referee closes the socket.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from shutbox_cli.game import Roll, Rules
from strategies.loading import LoadedStrategy, StrategyLoadError, cause, load_strategy
from strategies.player import StrategyError, StrategyPlayer

from .confine import confine

KEPT_PLAYERS = 4
"""Players (fresh instances of the strategy) kept at once: the referee uses one or two at a time."""


class _Host:
    """The strategy, loaded, and the players the referee has asked for."""

    def __init__(self, loaded: LoadedStrategy, rules: Rules) -> None:
        self.loaded = loaded
        self.rules = rules
        self.players: collections.OrderedDict[int, StrategyPlayer] = collections.OrderedDict()

    def answer(self, request: tuple[Any, ...]) -> dict[str, Any]:
        kind, number, *rest = request
        if kind == "new":
            self.players[number] = StrategyPlayer(self.loaded.make(), self.rules, self.loaded.name)
            while len(self.players) > KEPT_PLAYERS:
                self.players.popitem(last=False)
            return {"answer": number}
        player = self.players[number]
        if kind == "table":
            policy = player.policy
            return {"next_mask": policy.next_mask.tolist(), "dice": list(policy.dice)}
        start, open_mask, *question, history = rest
        if start is not None:
            player.start_turn(*start)
        rolls = tuple(Roll(tuple(dice), shut) for dice, shut in history)
        if kind == "dice":
            return {"answer": player.choose_dice(open_mask, rolls)}
        dice, moves = question
        return {"answer": player.choose_move(open_mask, tuple(dice), tuple(moves), rolls)}


def _send(connection: Connection, reply: dict[str, Any]) -> None:
    connection.send_bytes(json.dumps(reply).encode())


def _load(request: dict[str, Any]) -> tuple[LoadedStrategy | None, dict[str, Any]]:
    """Load the strategy as the referee would; the reply says what it is, or why it failed."""
    try:
        loaded = load_strategy(request["spec"], request["params"], request["name"])
        return loaded, {
            "name": loaded.name,
            "exact": loaded.cls.tabulable(),
            "context_free": not loaded.cls.reads_context,
            "origin": loaded.origin,
        }
    except StrategyLoadError as error:
        return None, {"error": str(error)}
    except BaseException as error:  # a module may raise anything as it loads, sys.exit included
        return None, {"error": f"strategy {request['spec']!r} failed to load: {cause(error)}"}


def serve(connection: Connection, parent: int) -> None:
    """Load the strategy the first request names, then answer until the referee hangs up."""
    setup: dict[str, Any] = connection.recv()
    confine(setup["memory_limit"])
    if os.getppid() != parent:  # the referee ended before this process could follow it
        return
    sys.path[:] = setup["path"]
    loaded, reply = _load(setup)
    _send(connection, reply)
    if loaded is None:
        return
    host = _Host(loaded, setup["rules"])
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply = host.answer(request)
        except StrategyError as error:
            reply = {"error": str(error)}
        except StrategyLoadError as error:
            reply = {"error": str(error)}
        except BaseException as error:  # anything else the strategy raised, said as its failure
            reply = {"error": f"strategy {loaded.name!r} raised {cause(error)}"}
        _send(connection, reply)


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the referee decides what Ctrl-C stops
    fd, parent = int(sys.argv[1]), int(sys.argv[2])
    serve(Connection(fd), parent)


if __name__ == "__main__":
    main()
