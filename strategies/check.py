"""Checking a strategy against the contract, as `shutbox check` and `strategies.testing` do.

The questions come from games played under many random rule sets (`strategies.questions`).
The strategy answers them three times, each time a fresh instance: in order; shuffled; and in
order with the global random generators in other states. Its answers must be legal, the same
each time unless it declares `stochastic = True`, and the same in any order unless it declares
either; it may read `view.context` and `view.turn` only if it declares `reads_context = True`
(else they raise). A keyed strategy is shown its key's features alone, and is asked in a shuffled
order too: the questions whose key and decision are the same must get the same answers, in
whatever game and context they came from (its tables hold one answer per key and question).

Asking and judging are apart: `answers` asks (in the process that runs the strategy's code),
`judge` gives the verdicts from the answers, as plain data (in the referee, for a user's
strategy in a host of its own: `tournaments.referee.checking`).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from shutbox_cli.game import Rules, tiles_of
from shutbox_cli.game.terms import Seed

from .answers import ask_dice, ask_move, make_view
from .base import Strategy
from .errors import KEY_DECLARATION, StrategyError, missing_declaration, move_text
from .keys import FEATURES, RENAMED, FeaturesRead, declared_key, key_of, keyed_context
from .limits import TimeUp
from .limits import time_limit as time_limit_of
from .loading import StrategyLoadError, build, check_class, tabulable
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


class Stuck(BaseException):
    """The question (by its number) an answer ran past the time limit on."""

    def __init__(self, number: int) -> None:
        self.number = number


@dataclasses.dataclass(frozen=True)
class Failure:
    """A question's answer that failed, as plain data: its message, the declaration the strategy
    used something without (None: none), whether it raised (else it answered wrong), and, for an
    undeclared read of the game, the features it read when asked again (`fits`, in FEATURES'
    order; None: more than a key holds, or nothing), with the old names it read them by."""

    text: str
    missing: str | None = None
    raised: bool = False
    fits: tuple[str, ...] | None = None
    renamed: tuple[str, ...] = ()

    @classmethod
    def of(cls, error: StrategyError) -> Failure:
        return cls(str(error), missing_declaration(error.raised), error.raised is not None)

    def __str__(self) -> str:
        return self.text


Answer = int | Failure
"""A question's answer (a move as a mask, or a number of dice), or how it failed."""


@dataclasses.dataclass(frozen=True)
class Declarations:
    """What a strategy declares, as a check reads it: whether it is stochastic, reads the context,
    is tabulable, and its key under each question's rules (None: none)."""

    stochastic: bool
    reads_context: bool
    tabulable: bool
    keys: tuple[tuple[str, ...] | None, ...]


def declarations(cls: type[Strategy], name: str, questions: list[Question]) -> Declarations:
    """The class's declarations, held to the contract (StrategyLoadError if not)."""
    check_class(cls, name)
    keys = tuple(declared_key(cls, question.rules, name) for question in questions)
    return Declarations(cls.stochastic, cls.reads_context, tabulable(cls, name), keys)


def answers(
    make: Callable[[], Strategy],
    name: str,
    time_limit: float,
    questions: list[Question],
    order: list[int],
    offset: int = 0,
    stochastic: bool = False,
) -> Iterator[tuple[int, Answer, float]]:
    """One fresh instance answering the questions in `order`, each with the global random
    generators (and its own, if `stochastic`) seeded from the question plus `offset`: each
    question's number, answer and seconds taken; `Stuck` at an answer past `time_limit`."""
    seed_globals(offset)
    strategy = make()
    for number in order:
        question = questions[number]
        seed_globals(question.seed + offset)
        if stochastic:
            object.__setattr__(strategy, "_rng", random.Random(question.seed + offset))
        key = declared_key(type(strategy), question.rules, name)
        view = make_view(
            strategy,
            question.rules,
            question.open_mask,
            question.dice,
            question.moves,
            question.history,
            question.context if key is None else keyed_context(question.context, key),
        )
        answer: Answer
        try:
            with time_limit_of(time_limit):
                start = time.perf_counter()
                answer = (ask_dice if question.dice is None else ask_move)(strategy, view, name)
        except StrategyError as error:
            answer = Failure.of(error)
        except TimeUp:
            raise Stuck(number) from None
        taken = time.perf_counter() - start
        if isinstance(answer, Failure) and answer.missing == "reads_context = True":
            answer = _noted(answer, make(), name, time_limit, question, offset)
        yield number, answer, taken


def _noted(
    failure: Failure, strategy: Strategy, name: str, time_limit: float, question: Question, offset: int
) -> Failure:
    """`failure`, an undeclared read of the game, with what a fresh instance reads of the game when
    asked `question` again with a context that notes it (`FeaturesRead`): a hint of the key to declare."""
    noted = FeaturesRead()
    seed_globals(question.seed + offset)
    view = make_view(
        strategy, question.rules, question.open_mask, question.dice, question.moves, (), noted.of(question.context)
    )
    try:
        with time_limit_of(time_limit):
            (ask_dice if question.dice is None else ask_move)(strategy, view, name)
    except (StrategyError, TimeUp):
        return failure
    return dataclasses.replace(failure, fits=noted.fitting_key(), renamed=tuple(sorted(noted.renamed)))


Ask = Callable[[list[int], int, bool], Iterable[tuple[int, Answer, float]]]
"""How a check asks its questions: `answers` with the strategy, order, offset and stochastic given."""


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
    questions, rule_sets = played(cls, name, *sample_questions(seed, samples))
    declared = declarations(cls, name, questions)

    def make() -> Strategy:
        return build(cls, params, name)

    def ask(order: list[int], offset: int, stochastic: bool) -> Iterator[tuple[int, Answer, float]]:
        return answers(make, name, time_limit, questions, order, offset, stochastic)

    with globals_kept():
        return judge(name, seed, (questions, rule_sets), declared, ask, time_limit, progress)


def played(cls: type[Strategy], name: str, questions: list[Question], rule_sets: int) -> tuple[list[Question], int]:
    """The questions under rule sets the strategy plays, and their number of rule sets: a strategy
    that refuses some rules (`perfect` beyond what it solves, a trained policy's model another box
    than its own), or would take long to prepare for them (its `checked_under`), is not asked under them."""
    refused: set[Rules] = set()
    checked = getattr(cls, "checked_under", None)
    for rules in {question.rules for question in questions}:
        if checked is not None and not checked(rules):
            refused.add(rules)
            continue
        try:
            declared_key(cls, rules, name)
        except StrategyLoadError:
            refused.add(rules)
    if not refused:
        return questions, rule_sets
    return [question for question in questions if question.rules not in refused], rule_sets - len(refused)


def judge(
    name: str,
    seed: Seed,
    sampled: tuple[list[Question], int],
    declared: Declarations,
    ask: Ask,
    time_limit: float,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """The checks' verdicts on a strategy's answers to the questions `sampled` from `seed` (and
    their rule sets), asked through `ask`: in order; again with the global generators in other
    states unless it is stochastic; shuffled if it is tabulable or keyed."""
    questions, rule_sets = sampled
    order = list(range(len(questions)))
    keyed = any(key is not None for key in declared.keys)
    runs = {LEGAL: (order, 0, declared.stochastic)}  # the first run, in order: every check reads it
    if not declared.stochastic:
        runs[RANDOM] = (order, OTHER_STATE, False)
    if declared.tabulable or keyed:
        runs[STATE] = (random.Random(seed).sample(order, len(order)), 0, declared.stochastic)
    total, done = len(questions) * len(runs), 0
    found: dict[str, dict[int, Answer]] = {}
    seconds: list[float] = []
    try:
        for check, asked in runs.items():
            found[check] = {}
            for number, answer, taken in ask(*asked):
                found[check][number] = answer
                if check == LEGAL:
                    seconds.append(taken)
                done += 1
                if progress is not None:
                    progress(done, total)
    except Stuck as stuck:
        where = questions[stuck.number].where()
        timing = CheckResult(
            TIME, False, f"an answer took longer than {time_limit:g} s ({where}): the check stopped there."
        )
        results = tuple(CheckResult(check, False, "not checked: an answer took too long.") for check in CHECKS[:-1])
        return CheckReport(name, seed, rule_sets, len(questions), (*results, timing))
    first = found[LEGAL]
    results = (
        _legal(first),
        _same(RANDOM, declared, questions, first, found.get(RANDOM)),
        _same(STATE, declared, questions, first, found.get(STATE)),
        _keyed(questions, declared.keys, first) if keyed else _context(declared, first),
        _exceptions(first),
        _timing(seconds),
    )
    return CheckReport(name, seed, rule_sets, len(questions), results)


def _errors(answers: dict[int, Answer], keep: Callable[[Failure], bool]) -> list[Failure]:
    return [answer for answer in answers.values() if isinstance(answer, Failure) and keep(answer)]


def _undeclared(error: Failure, declaration: str) -> bool:
    return error.missing == declaration


def _first(found: list[Failure], answers: dict[int, Answer]) -> str:
    """How many questions ended in these errors, and the first error in full."""
    return f"in {len(found)} of {len(answers)} questions, the first:\n{found[0]}"


def _legal(answers: dict[int, Answer]) -> CheckResult:
    illegal = _errors(answers, lambda error: not error.raised)
    if illegal:
        return CheckResult(LEGAL, False, f"illegal answers {_first(illegal, answers)}")
    answered = sum(not isinstance(answer, Failure) for answer in answers.values())
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
    if isinstance(answer, Failure):
        return "an error"
    return str(answer) if question.dice is None else move_text(tiles_of(answer))


def _same(
    check: str,
    declared: Declarations,
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
        words = " and ".join(word for word in ("stochastic", "reads_context") if getattr(declared, word))
        return CheckResult(check, True, f"declares {words}: it may keep state between questions")
    differ = [
        number for number, answer in answers.items() if not isinstance(answer, Failure) and again.get(number) != answer
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


def _context(declared: Declarations, answers: dict[int, Answer]) -> CheckResult:
    if declared.reads_context:
        return CheckResult(CONTEXT, True, "declares reads_context = True: shown the context and the turn")
    read = _errors(answers, lambda error: _undeclared(error, "reads_context = True"))
    if read:
        return CheckResult(CONTEXT, False, f"read the game undeclared {_first(read, answers)}{_key_instead(read)}")
    return CheckResult(CONTEXT, True, "never read view.context or view.turn")


def _key_instead(read: list[Failure]) -> str:
    """A line saying which key to declare instead of reads_context when what the strategy read of
    the game, asked again, fits one in every question it read it in; else ''."""
    if any(failure.fits is None for failure in read):
        return ""
    features = {feature for failure in read for feature in failure.fits or ()}
    key = tuple(feature for feature in FEATURES if feature in features)
    declared = "key = (" + ", ".join(f'"{feature}"' for feature in key) + ("," if len(key) == 1 else "") + ")"
    names = sorted({name for failure in read for name in failure.renamed})
    renamed = "".join(f", and read view.context.{RENAMED[name]} for view.context.{name}" for name in names)
    return (
        "\nwhat it read fits a key, played nearly as fast as a strategy that reads nothing: "
        f"add `{declared}` to its class instead{renamed}."
    )


def _keyed(
    questions: list[Question], keys: tuple[tuple[str, ...] | None, ...], answers: dict[int, Answer]
) -> CheckResult:
    """A keyed strategy's context check: it read no feature outside its key, and questions alike
    in their decision and key got the same answers, whatever context they came from."""
    read = _errors(answers, lambda error: (error.missing or "").startswith(KEY_DECLARATION))
    if read:
        return CheckResult(CONTEXT, False, f"read the game outside its key {_first(read, answers)}")
    first: dict[tuple[object, ...], int] = {}
    shared = 0
    for number, (question, key) in enumerate(zip(questions, keys, strict=True)):
        answer = answers[number]
        if key is None or isinstance(answer, Failure):
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
    raised = _errors(answers, lambda error: error.raised and error.missing is None)
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
