"""`shutbox check SPEC` through the real command: a built-in holds to the contract; each broken
declaration fails its own check, and the table names the declaration to add."""

from __future__ import annotations

import subprocess

import pytest

from shutbox_cli.face.commands import check as check_command
from strategies import Move, Strategy, View, check, questions
from strategies.builtin import Tips

from helpers.command import real_shutbox
from helpers.paths import ROOT, SNEAKY
from helpers.sneaky_strategies import SneakyContext


def shutbox_check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return real_shutbox("check", *arguments, columns=200)


def rows(output: str) -> dict[str, tuple[str, str]]:
    """The table's rows: check name -> (pass or FAIL, the detail's first line)."""
    found = {}
    for line in output.splitlines():
        for name in check.CHECKS:
            if line.startswith(name + " "):
                verdict, _, detail = line[len(name) :].strip().partition(" ")
                found[name] = (verdict, detail.strip())
    return found


@pytest.mark.slow
def test_a_builtin_holds_to_every_check_and_exits_0() -> None:
    done = shutbox_check("greedy-high")
    assert (done.returncode, done.stderr) == (0, "")
    assert rows(done.stdout) == {
        check.LEGAL: ("pass", rows(done.stdout)[check.LEGAL][1]),
        check.RANDOM: (
            "pass",
            "the same answers from fresh instances with the global random generators in other states",
        ),
        check.STATE: ("pass", "the same answers asked in a shuffled order"),
        check.CONTEXT: ("pass", "never read view.context or view.turn"),
        check.EXCEPTIONS: ("pass", "none raised"),
        check.TIME: ("pass", rows(done.stdout)[check.TIME][1]),
    }
    assert rows(done.stdout)[check.LEGAL][1].endswith("answers, all legal")
    assert "median" in rows(done.stdout)[check.TIME][1]
    assert done.stdout.endswith("Every check holds.\nFingerprint under the default rules: f979d89166a3.\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "failing", "says"),
    [
        ("SneakyRandom", check.RANDOM, "declare `stochastic = True` and draw from self.rng"),
        ("SneakyContext", check.CONTEXT, "read view.context without declaring reads_context = True"),
        ("SneakyTurn", check.CONTEXT, "read view.turn without declaring reads_context = True"),
        ("HiddenState", check.STATE, "keep no state between questions, or declare `reads_context = True`"),
    ],
)
def test_a_broken_declaration_fails_its_check_naming_the_declaration_and_exits_1(
    name: str, failing: str, says: str
) -> None:
    done = shutbox_check(f"{SNEAKY}:{name}", "--samples", "20")
    assert (done.returncode, done.stderr) == (1, "")
    found = rows(done.stdout)
    assert [check_name for check_name, (verdict, _) in found.items() if verdict == "FAIL"] == [failing]
    assert says in " ".join(done.stdout.split())
    assert done.stdout.endswith("1 of 6 checks fail.\n")


@pytest.mark.slow
def test_an_undeclared_read_shows_the_line_that_read() -> None:
    done = shutbox_check(f"{SNEAKY}:SneakyTurn", "--samples", "5")
    line = next(
        number for number, text in enumerate((ROOT / SNEAKY).read_text().splitlines(), 1) if "if view.turn else" in text
    )
    assert f'File "{ROOT / SNEAKY}", line {line}, in choose_move' in done.stdout


@pytest.mark.slow
def test_a_bad_spec_is_one_sentence_and_status_2() -> None:
    done = shutbox_check("no-such-strategy")
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr.startswith("shutbox: error: no strategy named 'no-such-strategy'") and done.stderr.count("\n") == 1
    )


@pytest.mark.slow
def test_the_seed_and_samples_choose_the_questions() -> None:
    first = questions.sample_questions(3, 10)
    assert first == questions.sample_questions(3, 10) != questions.sample_questions(4, 10)
    assert len(questions.sample_questions(3, 20)[0]) > len(first[0])
    again = check.check_strategy(Tips, seed=3, samples=10)
    assert again.questions == len(first[0]) and again.rule_sets == first[1] == 10


@pytest.mark.slow
def test_the_questions_range_over_every_rule_and_format() -> None:
    asked, _ = questions.sample_questions(0, check.DEFAULT_SAMPLES)
    rules = {question.rules for question in asked}
    for option in ("tiles", "shut_rule", "one_die", "one_die_mode", "scoring", "first_roll", "ties", "instant_win"):
        assert len({getattr(each, option) for each in rules}) > 1, option
    assert {each.rounds > 1 for each in rules} == {True, False} and any(each.drop_out for each in rules)
    assert any(question.dice is None for question in asked)  # how many dice, as well as which move
    assert any(question.history for question in asked) and any(question.context.round for question in asked)


def test_the_command_samples_as_many_rule_sets_as_the_library_by_default() -> None:
    assert check_command.DEFAULT_SAMPLES == check.DEFAULT_SAMPLES


class Stuck(Strategy):
    def choose_move(self, view: View) -> Move:
        while len(view.open_tiles) < 4:
            pass
        return view.legal_moves[0]


@pytest.mark.slow
def test_a_stuck_answer_stops_the_check_at_the_time_limit() -> None:
    report = check.check_strategy(Stuck, samples=10, time_limit=0.5)
    assert not report.ok
    assert report.result(check.TIME).detail.startswith("an answer took longer than 0.5 s (open tiles ")
    assert report.result(check.LEGAL).detail == "not checked: an answer took too long."


def test_the_check_tells_its_progress_answer_by_answer() -> None:
    told: list[tuple[int, int]] = []
    report = check.check_strategy(Tips, seed=1, samples=3, progress=lambda done, total: told.append((done, total)))
    runs = 3  # Tips is neither stochastic nor context-dependent: asked again, and in another order
    assert told == [(done, report.questions * runs) for done in range(1, report.questions * runs + 1)]


class ReadsTheRound(Strategy):
    """Plays for the lowest tiles after the first round, reading the round undeclared."""

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0] if view.context.round else view.legal_moves[-1]


class ReadsTheTotals(Strategy):
    """Plays for the lowest tiles while behind, reading the totals undeclared (no key holds them)."""

    def choose_move(self, view: View) -> Move:
        context = view.context
        behind = context.totals[context.player] > min(context.totals)
        return view.legal_moves[0] if behind else view.legal_moves[-1]


@pytest.mark.parametrize(
    ("strategy", "key"),
    [
        (SneakyContext, 'key = ("to_beat",)` to its class instead, and read view.context.to_beat'),
        (ReadsTheRound, 'key = ("round",)` to its class instead.'),
        (ReadsTheTotals, None),
    ],
)
def test_an_undeclared_read_that_fits_a_key_is_told_the_key_to_declare(
    strategy: type[Strategy], key: str | None
) -> None:
    detail = check.check_strategy(strategy, samples=3).result(check.CONTEXT).detail
    assert detail.startswith("read the game undeclared in ")
    assert "add `reads_context = True` to its class" in detail
    if key is None:
        assert "key =" not in detail
    else:
        assert key in detail.splitlines()[-1]


def test_the_verdicts_come_from_the_answers_as_plain_data() -> None:
    """`judge`, as the referee runs it for a strategy in its host: answers and failures as data
    (legality is the referee's to check as they come), the first question's a read of the context
    undeclared, the second's answer another with the global generators in other states."""
    sampled = questions.sample_questions(0, 2)
    asked, _ = sampled
    declared = check.Declarations(False, False, True, (None,) * len(asked))
    read = check.Failure("strategy 'x' read view.context ...", "reads_context = True", True)

    def ask(order: list[int], offset: int, stochastic: bool) -> list[tuple[int, check.Answer, float]]:
        other = 8 if offset else 7
        return [(number, read if number == 0 else other if number == 1 else 7, 0.001) for number in order]

    report = check.judge("x", 0, sampled, declared, ask, check.TIME_LIMIT)
    assert [result.name for result in report.failures] == [check.RANDOM, check.CONTEXT]
    first = f"in 1 of {len(asked)} questions, the first:\n{read.text}"
    assert report.result(check.CONTEXT).detail == f"read the game undeclared {first}"
    assert report.result(check.RANDOM).detail.startswith(
        f"different answers with the global random generators in other states to 1 of {len(asked)} questions"
    )
