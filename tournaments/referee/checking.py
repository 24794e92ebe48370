"""`shutbox check` of a user's strategy, judged here: its host only answers questions (its
declarations, then its answers to the contract's questions, each as it gives it), as plain data
checked here, and every verdict is given here (`strategies.check.judge`), where no code of the
strategy runs: a strategy that rewrites the checker in its host changes nothing but its own
answers. A host that dies, exits (even with status 0), stays silent past the time limit or
answers garbage is a `RemoteFailure`, never a report in which every check holds."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Container, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from shutbox_cli.game.box import dice_table
from shutbox_cli.game.terms import Seed
from strategies.check import TIME_LIMIT, Answer, CheckReport, Declarations, Failure, Stuck, judge
from strategies.errors import known_declaration
from strategies.keys import FEATURES, RENAMED, checked_key
from strategies.questions import Question, sample_questions

from .wire import CheckAnswers, CheckDeclared

if TYPE_CHECKING:
    from .isolation import Host

MAX_DETAIL = 20_000
"""The longest message of a failed answer, in characters."""
_WHEN = "during its check"


def remote_check(
    host: Host, seed: Seed, samples: int, progress: Callable[[int, int], None] | None = None
) -> CheckReport:
    """Check the host's strategy against the contract under `samples` rule sets from `seed`; each
    message from the host (its declarations, each answer) must come within the host's time limit."""
    if samples < 1:
        raise ValueError(f"a check needs at least 1 sample, not {samples}.")
    sampled, rule_sets = sample_questions(seed, samples)
    reply = host.ask(CheckDeclared(seed, samples), _WHEN)
    questions, rule_sets = _played(reply, host, sampled, rule_sets)
    declared = _declarations(reply, host, questions)

    def ask(order: list[int], offset: int, stochastic: bool) -> Iterator[tuple[int, Answer, float]]:
        return _answers(host, questions, CheckAnswers(seed, samples, order, offset, stochastic))

    return judge(host.name, seed, (questions, rule_sets), declared, ask, TIME_LIMIT, progress)


def _played(
    reply: Mapping[str, Any], host: Host, sampled: list[Question], rule_sets: int
) -> tuple[list[Question], int]:
    """The questions under the rules the host's strategy plays, and their number of rule sets: it
    may refuse whole rule sets (a model trained for another box), which the report's count shows."""
    found = reply.get("declared")
    refused = found.get("refused", []) if isinstance(found, dict) else []
    if not (isinstance(refused, list) and all(type(number) is int for number in refused)):
        host.refuse("refused questions that are not numbers")
    if refused != sorted(set(refused)) or not all(0 <= number < len(sampled) for number in refused):
        host.refuse("refused questions that are not among those sampled")
    out = {sampled[number].rules for number in refused}
    if sum(question.rules in out for question in sampled) != len(refused):
        host.refuse("refused questions that are not whole rule sets")
    return [question for question in sampled if question.rules not in out], rule_sets - len(out)


def _declarations(reply: Mapping[str, Any], host: Host, questions: list[Question]) -> Declarations:
    """The host's declarations, if they are flags and a key for each question, and agree with
    what it said as it loaded."""
    found = reply.get("declared")
    if not isinstance(found, dict) or not all(type(found.get(flag)) is bool for flag in _FLAGS):
        host.refuse("declarations that are not three flags and the keys")
    keys = found.get("keys")
    if not isinstance(keys, list) or len(keys) != len(questions):
        host.refuse("declarations without a key for every question")
    stochastic, reads_context, tabulable = (found[flag] for flag in _FLAGS)
    declared = Declarations(stochastic, reads_context, tabulable, tuple(_key(key, host) for key in keys))
    if declared.tabulable != host.exact or (host.context_free and declared.reads_context):
        host.refuse("declarations other than those it loaded with")
    return declared


_FLAGS = ("stochastic", "reads_context", "tabulable")


def _key(value: object, host: Host) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(type(feature) is str for feature in value):
        host.refuse("a key that is not a list of feature names")
    try:
        return checked_key(tuple(value), host.name)
    except ValueError:
        host.refuse(f"a key of unknown features {value!r}")


def _answers(host: Host, questions: list[Question], asked: CheckAnswers) -> Iterator[tuple[int, Answer, float]]:
    """The host's answers to the questions in the order asked, each checked as it comes; `Stuck`
    where the host says one ran past the check's time limit."""
    if not asked.order:
        return
    reply = host.ask(asked, _WHEN)
    for position, number in enumerate(asked.order):
        if "stuck" in reply:
            if reply["stuck"] != number:
                host.refuse("a check's answer out of order")
            raise Stuck(number)
        yield number, *_answer(reply.get("answered"), number, questions[number], host)
        if position + 1 < len(asked.order):
            host.deadline = time.monotonic() + host.timeout
            reply = host.answered(host.receive(_WHEN))


def _answer(value: object, number: int, question: Question, host: Host) -> tuple[Answer, float]:
    """One answer as the host sent it, if it is the question's, legal or a failure, and timed."""
    if not (isinstance(value, list) and len(value) == 3 and type(value[0]) is int and value[0] == number):
        host.refuse("a check's answer out of order")
    answer, seconds = value[1], value[2]
    if type(seconds) not in (int, float) or not 0 <= seconds <= TIME_LIMIT or math.isnan(seconds):
        host.refuse("a check's answer without the time it took")
    if type(answer) is int:
        legal = dice_table(question.rules)[question.open_mask] if question.dice is None else question.moves
        if answer not in legal:
            host.refuse(f"an illegal answer given for a legal one ({question.where()})")
        return answer, float(seconds)
    return _failure(answer, host), float(seconds)


def _failure(value: object, host: Host) -> Failure:
    """A failed answer as the host sent it: its message, the declaration missing (None: none), whether
    it raised, and the features it read asked again (a hint: only names of features are taken)."""
    if not (isinstance(value, list) and len(value) == 5):
        host.refuse("a check's answer that is neither an answer nor a failure")
    text, missing, raised, fits, renamed = value
    if not isinstance(text, str) or not text or len(text) > MAX_DETAIL or type(raised) is not bool:
        host.refuse("a failed answer without its message")
    if missing is not None and not (isinstance(missing, str) and known_declaration(missing) and raised):
        host.refuse("a failed answer missing a declaration the engine never asks for")
    if not (fits is None or _names(fits, FEATURES)) or not _names(renamed, RENAMED):
        host.refuse("a failed answer reading features the game does not have")
    return Failure(text, missing, raised, None if fits is None else tuple(fits), tuple(renamed))


def _names(value: object, known: Container[str]) -> bool:
    """Whether `value` is a list of distinct names, each one of `known`."""
    return (
        isinstance(value, list)
        and len(set(map(str, value))) == len(value)
        and all(isinstance(name, str) and name in known for name in value)
    )
