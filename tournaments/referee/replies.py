"""What a host says of a batch of turns and of a table, believed only once checked: a batch's
answers checked for shape (each is checked against its question when it is used), a table entry
by entry; what a host says wrong is garbage, its strategy's failure (`RemoteFailure`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, NoReturn, Protocol

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules
from strategies.errors import StrategyError
from strategies.table import PolicyTable

from .wire import ANSWERS, ANSWERS_HEADER, Request, Setup


class Link(Protocol):
    """What the remote player and these checks use of a host (`isolation.Host`, which imports them)."""

    rules: Rules
    context_free: bool
    connection: Connection

    def ask(self, request: Request, when: str = "") -> dict[str, Any]: ...

    def exchange(self, request: Request | Setup, when: str) -> bytes: ...

    def parsed(self, data: bytes) -> dict[str, Any]: ...

    def message(self, value: object) -> str: ...

    def refuse(self, what: str) -> NoReturn: ...


class RemoteFailure(StrategyError):
    """A host answered with a failure (the strategy's, said in the host), died, stayed silent or
    answered garbage: the message names the strategy; the referee says where it happened."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.name = ""
        self.answer = None
        self.raised = None


def played_turns(
    data: bytes, asked: int, rules: Rules, host: Link
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], str | None, tuple[int, ...]]:
    """A host's turns as `Batch` holds them, checked for shape: no more turns than asked, each a
    short list of whole numbers; and the failure that ended the batch before the turns asked, a
    message, with the answers given in that turn before it."""
    if data[:1] == ANSWERS:
        return (*_answers_sent(data, asked, rules, host), None, ())
    reply = host.parsed(data)
    if "error" in reply and "turns" not in reply:  # the host's own failure, not a turn's
        raise RemoteFailure(host.message(reply["error"]))
    turns = reply.get("turns")
    if not isinstance(turns, list) or len(turns) > asked:
        host.refuse("a list of turns that does not fit the turns asked")
    if _short_lists_of_ints(turns, rules):  # all at once: fresh lists of ints, parsed here
        answers: list[list[int]] = turns
    else:  # the first that is not says what is wrong
        answers = [_answers(answers, rules, host) for answers in turns]
    counts = np.fromiter(map(len, answers), dtype=np.intp, count=len(answers))
    given = np.fromiter(itertools.chain.from_iterable(answers), dtype=np.int64, count=int(counts.sum()))
    if "error" not in reply or len(turns) == asked:
        return counts, given, None, ()
    return counts, given, host.message(reply["error"]), tuple(_answers(reply.get("given", []), rules, host))


def _answers_sent(
    data: bytes, asked: int, rules: Rules, host: Link
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """The answers of a batch played in full, sent as `wire.answers_bytes` encodes them."""
    if len(data) < ANSWERS_HEADER.size:
        host.refuse("answers cut short")
    _, turns = ANSWERS_HEADER.unpack_from(data)
    if turns != asked:
        host.refuse("a list of turns that does not fit the turns asked")
    if len(data) < ANSWERS_HEADER.size + turns:
        host.refuse("answers cut short")
    counts = np.frombuffer(data, dtype=np.uint8, count=turns, offset=ANSWERS_HEADER.size).astype(np.intp)
    if counts.size and int(counts.max()) > 2 * (rules.tiles + 1):
        host.refuse("a turn's answers that are not a short list")
    total = int(counts.sum())
    start = ANSWERS_HEADER.size + turns
    if len(data) != start + 2 * total:
        host.refuse("answers of a length that does not fit their counts")
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


def _answers(value: object, rules: Rules, host: Link) -> list[int]:
    """One turn's answers from a host: whole numbers, no more than a turn can ask (each is checked
    against its question when it is used)."""
    if not isinstance(value, list) or len(value) > 2 * (rules.tiles + 1):
        host.refuse("a turn's answers that are not a short list")
    if not all(type(answer) is int for answer in value):
        host.refuse("a turn's answers that are not whole numbers")
    if not all(0 <= answer <= LARGEST_ANSWER for answer in value):
        host.refuse("a turn's answers that are not a move's tiles or a number of dice")
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
