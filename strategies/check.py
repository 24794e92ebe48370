"""Checking a strategy against the contract, as `shutbox check` and `strategies.testing` do.

The questions come from games played under many random rule sets (`strategies.questions`).
The strategy answers them three times, each time a fresh instance: in order; shuffled; and in
order with the global random generators in other states. Its answers must be legal, the same
each time unless it declares `stochastic = True`, and the same in any order unless it declares
either; it may read `view.context` and `view.turn` only if it declares `reads_context = True`
(else they raise). A keyed strategy is shown its key's features alone, and is asked in a shuffled
order too: the questions whose key and decision are the same must get the same answers, in
whatever game and context they came from (its tables hold one answer per key and question).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from shutbox_cli.game import tiles_of
from shutbox_cli.game.terms import Seed

from .answers import ask_dice, ask_move, make_view
from .base import Strategy
from .errors import KEY_DECLARATION, StrategyError, missing_declaration, move_text
from .keys import RENAMED, FeaturesRead, declared_key, key_of, keyed_context
from .limits import TimeUp, time_limit
from .loading import build, check_class, tabulable
from .questions import Question, sample_questions
from .seeding import globals_kept, seed_globals

DEFAULT_SAMPLES = 50
"""Rule sets sampled, one game under each: some 400 questions, a second or two for most built-ins."""
TIME_LIMIT = 10.0
"""Seconds one answer may take before the check stops: a strategy must not hang a tournament."""
OTHER_STATE = 1 << 40
"""Added to a question's seed for the global generators in the run with them in other states."""

LEGAL = "legal answers"
RANDOM = "random only if stochastic"
STATE = "no state between questions"
CONTEXT = "context only if reads_context"
EXCEPTIONS = "no exceptions"
TIME = "decision time"
CHECKS = (LEGAL, RANDOM, STATE, CONTEXT, EXCEPTIONS, TIME)
"""Every check, in the order a report lists them."""


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """One check: whether it holds, and what was seen (a failure's detail may run to several lines)."""

    name: str
    ok: bool
    detail: str


@dataclasses.dataclass(frozen=True)
class CheckReport:
    """Every check of one strategy, with what it was asked: `ok` when all hold."""

    strategy: str
    seed: Seed
    rule_sets: int
    questions: int
    results: tuple[CheckResult, ...]

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.results)

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(result for result in self.results if not result.ok)

    def result(self, name: str) -> CheckResult:
        """The result of one check, by name (one of CHECKS)."""
        return next(result for result in self.results if result.name == name)

    def __str__(self) -> str:
        width = max(len(name) for name in CHECKS)
        lines = [
            f"strategy {self.strategy!r}: {self.questions} questions under {self.rule_sets} rule sets, seed {self.seed}"
        ]
        for result in self.results:
            first, *rest = result.detail.splitlines()
            lines.append(f"  {'pass' if result.ok else 'FAIL'}  {result.name:<{width}}  {first}")
            lines += [f"  {'':4}  {'':<{width}}  {line}" for line in rest]
        lines.append("every check holds." if self.ok else f"{len(self.failures)} of {len(self.results)} checks fail.")
        return "\n".join(lines)


class _Stuck(BaseException):
    """The question an answer ran past the time limit on."""

    def __init__(self, question: Question) -> None:
        self.question = question


Answer = int | StrategyError
"""A question's answer (a move as a mask, or a number of dice), or the error it ended in."""


class _Run:
    """One fresh instance answering the questions in a given order, each with the global random
    generators (and its own, if stochastic) seeded from the question."""

    def __init__(
        self,
        make: Callable[[], Strategy],
        name: str,
        time_limit: float,
        stochastic: bool,
        answered: Callable[[], None] = lambda: None,
    ) -> None:
        self.make, self.name, self.time_limit = make, name, time_limit
        self.stochastic = stochastic
        self.answered = answered
        self.seconds: list[float] = []

    def answers(self, questions: list[Question], order: list[int], offset: int = 0) -> dict[int, Answer]:
        seed_globals(offset)
        strategy = self.make()
        found: dict[int, Answer] = {}
        for number in order:
            question = questions[number]
            seed_globals(question.seed + offset)
            if self.stochastic:
                object.__setattr__(strategy, "_rng", random.Random(question.seed + offset))
            key = declared_key(type(strategy), question.rules, self.name)
            view = make_view(
                strategy,
                question.rules,
                question.open_mask,
                question.dice,
                question.moves,
                question.history,
                question.context if key is None else keyed_context(question.context, key),
            )
            try:
                with time_limit(self.time_limit):
                    start = time.perf_counter()
                    if question.dice is None:
                        found[number] = ask_dice(strategy, view, self.name)
                    else:
                        found[number] = ask_move(strategy, view, self.name)
            except StrategyError as error:
                found[number] = error
            except TimeUp:
                raise _Stuck(question) from None
            self.seconds.append(time.perf_counter() - start)
            self.answered()
        return found


def check_strategy(
    cls: type[Strategy],
    params: Mapping[str, Any] | None = None,
    *,
    name: str | None = None,
    seed: Seed = 0,
    samples: int = DEFAULT_SAMPLES,
    time_limit: float = TIME_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Check a strategy class (built with `params`) against the contract; see the module's docstring.
    `progress` is told the answers given and the total after each answer.

    Raises StrategyLoadError if it cannot be built; a stuck answer stops the check (the time check fails).
    """
    if samples < 1:
        raise ValueError(f"a check needs at least 1 sample, not {samples}.")
    params = dict(params or {})
    name = name or cls.name or cls.__name__

    check_class(cls, name)

    def make() -> Strategy:
        return build(cls, params, name)

    questions, rule_sets = sample_questions(seed, samples)
    order = list(range(len(questions)))
    shuffled = random.Random(seed).sample(order, len(order))
    keys = [declared_key(cls, question.rules, name) for question in questions]
    keyed = any(key is not None for key in keys)
    again, shuffle = not cls.stochastic, tabulable(cls, name) or keyed
    total, done = len(questions) * (1 + again + shuffle), 0

    def answered() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    first = _Run(make, name, time_limit, cls.stochastic, answered)
    other: dict[str, dict[int, Answer]] = {}
    try:
        with globals_kept():
            answers = first.answers(questions, order)
            if again:
                other[RANDOM] = _Run(make, name, time_limit, False, answered).answers(questions, order, OTHER_STATE)
            if shuffle:
                other[STATE] = _Run(make, name, time_limit, cls.stochastic, answered).answers(questions, shuffled)
    except _Stuck as stuck:
        where = stuck.question.where()
        timing = CheckResult(
            TIME, False, f"an answer took longer than {time_limit:g} s ({where}): the check stopped there."
        )
        results = tuple(CheckResult(check, False, "not checked: an answer took too long.") for check in CHECKS[:-1])
        return CheckReport(name, seed, rule_sets, len(questions), (*results, timing))
    results = (
        _legal(answers),
        _same(RANDOM, cls, questions, answers, other.get(RANDOM)),
        _same(STATE, cls, questions, answers, other.get(STATE)),
        _keyed(questions, keys, answers)
        if keyed
        else _context(cls, answers, lambda: _key_instead(make, questions, answers, time_limit)),
        _exceptions(answers),
        _timing(first.seconds),
    )
    return CheckReport(name, seed, rule_sets, len(questions), results)


def _errors(answers: dict[int, Answer], keep: Callable[[StrategyError], bool]) -> list[StrategyError]:
    return [answer for answer in answers.values() if isinstance(answer, StrategyError) and keep(answer)]


def _undeclared(error: StrategyError, declaration: str) -> bool:
    return missing_declaration(error.raised) == declaration


def _first(found: list[StrategyError], answers: dict[int, Answer]) -> str:
    """How many questions ended in these errors, and the first error in full."""
    return f"in {len(found)} of {len(answers)} questions, the first:\n{found[0]}"


def _legal(answers: dict[int, Answer]) -> CheckResult:
    illegal = _errors(answers, lambda error: error.raised is None)
    if illegal:
        return CheckResult(LEGAL, False, f"illegal answers {_first(illegal, answers)}")
    answered = sum(not isinstance(answer, StrategyError) for answer in answers.values())
    return CheckResult(LEGAL, True, f"{answered} answers, all legal")


_SAME = {
    RANDOM: "the same answers from fresh instances with the global random generators in other states",
    STATE: "the same answers asked in a shuffled order",
}
_DIFFERENT = {
    RANDOM: (
        "with the global random generators in other states",
        "declare `stochastic = True` and draw from self.rng",
    ),
    STATE: (
        "asked in a shuffled order",
        "keep no state between questions, or declare `reads_context = True` if it follows the turn or the game",
    ),
}


def _shown(answer: Answer, question: Question) -> str:
    if isinstance(answer, StrategyError):
        return "an error"
    return str(answer) if question.dice is None else move_text(tiles_of(answer))


def _same(
    check: str,
    cls: type[Strategy],
    questions: list[Question],
    answers: dict[int, Answer],
    again: dict[int, Answer] | None,
) -> CheckResult:
    """Whether a second run gave the same answers as the first (None: not asked, its declaration allows it)."""
    if check == RANDOM:
        rng = _errors(answers, lambda error: _undeclared(error, "stochastic = True"))
        if rng:
            return CheckResult(check, False, f"used self.rng undeclared {_first(rng, answers)}")
    if again is None:
        if check == RANDOM:
            return CheckResult(check, True, "declares stochastic = True: its answers may vary (so it is simulated)")
        declared = " and ".join(word for word in ("stochastic", "reads_context") if getattr(cls, word))
        return CheckResult(check, True, f"declares {declared}: it may keep state between questions")
    differ = [
        number
        for number, answer in answers.items()
        if not isinstance(answer, StrategyError) and again.get(number) != answer
    ]
    if not differ:
        return CheckResult(check, True, _SAME[check])
    how, fix = _DIFFERENT[check]
    question = questions[differ[0]]
    example = f"{_shown(answers[differ[0]], question)} then {_shown(again[differ[0]], question)}"
    detail = (
        f"different answers {how} to {len(differ)} of {len(answers)} questions ({question.where()}: {example}); {fix}."
    )
    return CheckResult(check, False, detail)


def _context(cls: type[Strategy], answers: dict[int, Answer], key_instead: Callable[[], str]) -> CheckResult:
    if cls.reads_context:
        return CheckResult(CONTEXT, True, "declares reads_context = True: shown the context and the turn")
    read = _errors(answers, lambda error: _undeclared(error, "reads_context = True"))
    if read:
        return CheckResult(CONTEXT, False, f"read the game undeclared {_first(read, answers)}{key_instead()}")
    return CheckResult(CONTEXT, True, "never read view.context or view.turn")


def _key_instead(
    make: Callable[[], Strategy], questions: list[Question], answers: dict[int, Answer], seconds: float
) -> str:
    """A line saying which key to declare instead of reads_context when what the strategy read of the
    game fits one (the questions it read the game in asked again, noting what it reads), else ''."""
    noted, strategy = FeaturesRead(), make()
    with globals_kept():
        for number, answer in answers.items():
            if not (isinstance(answer, StrategyError) and _undeclared(answer, "reads_context = True")):
                continue
            question = questions[number]
            view = make_view(
                strategy,
                question.rules,
                question.open_mask,
                question.dice,
                question.moves,
                (),
                noted.of(question.context),
            )
            try:
                with time_limit(seconds):
                    (ask_dice if question.dice is None else ask_move)(strategy, view, "")
            except (StrategyError, TimeUp):
                return ""
    key = noted.fitting_key()
    if key is None:
        return ""
    declared = "key = (" + ", ".join(f'"{feature}"' for feature in key) + ("," if len(key) == 1 else "") + ")"
    renamed = "".join(
        f", and read view.context.{RENAMED[name]} for view.context.{name}" for name in sorted(noted.renamed)
    )
    return (
        "\nwhat it read fits a key, played nearly as fast as a strategy that reads nothing: "
        f"add `{declared}` to its class instead{renamed}."
    )


def _keyed(questions: list[Question], keys: list[tuple[str, ...] | None], answers: dict[int, Answer]) -> CheckResult:
    """A keyed strategy's context check: it read no feature outside its key, and questions alike
    in their decision and key got the same answers, whatever context they came from."""
    read = _errors(answers, lambda error: (missing_declaration(error.raised) or "").startswith(KEY_DECLARATION))
    if read:
        return CheckResult(CONTEXT, False, f"read the game outside its key {_first(read, answers)}")
    first: dict[tuple[object, ...], int] = {}
    shared = 0
    for number, (question, key) in enumerate(zip(questions, keys, strict=True)):
        answer = answers[number]
        if key is None or isinstance(answer, StrategyError):
            continue
        alike = (question.rules, question.open_mask, question.dice, key, key_of(question.context, key))
        seen = first.setdefault(alike, number)
        if seen == number:
            continue
        shared += 1
        if answers[seen] != answer:
            detail = (
                f"different answers to one question with the same key {dict(zip(key, alike[-1], strict=True))} "
                f"in two contexts ({question.where()}: {_shown(answers[seen], question)} then "
                f"{_shown(answer, question)}); declare every feature its answers depend on in its key."
            )
            return CheckResult(CONTEXT, False, detail)
    return CheckResult(
        CONTEXT, True, f"read only its key's features; {shared} questions met again under the same key, answered alike"
    )


def _exceptions(answers: dict[int, Answer]) -> CheckResult:
    raised = _errors(answers, lambda error: error.raised is not None and missing_declaration(error.raised) is None)
    if raised:
        return CheckResult(EXCEPTIONS, False, f"raised {_first(raised, answers)}")
    return CheckResult(EXCEPTIONS, True, "none raised")


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _timing(seconds: list[float]) -> CheckResult:
    if not seconds:
        return CheckResult(TIME, True, "no questions asked")
    return CheckResult(TIME, True, f"median {_duration(statistics.median(seconds))}, worst {_duration(max(seconds))}")
