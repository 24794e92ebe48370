"""Hostile strategies and hostile input never make a traceback.

The strategies in `tests/hostile/` attack the referee where it looks at them: answers whose
every method raises, hangs or lies, a view rewritten so that a wrong answer looks right,
exceptions of every kind (BaseException subclasses, GeneratorExit, KeyboardInterrupt and
sys.exit raised by the strategy itself), messages that cannot be shown or hold escape
sequences, modules and constructors that end the program, metadata that is not what the
contract says. Each attack is played in this process through the library (fast: the attacks of
the tests chosen are played side by side, as each needs a host process of its own), and a
representative set through the real command at -j 1 and -j 2: the documented status, one
sentence naming the strategy (then only the strategy's own indented frames), no traceback,
nothing unprintable, no report.
"""

from __future__ import annotations

import dataclasses
import subprocess
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

import tournaments
from shutbox_cli.game import Rules, play_turn, turn_rolls
from strategies.loading import StrategyLoadError, load_strategy
from strategies.player import StrategyError, StrategyPlayer

from helpers.command import real_shutbox, without_confinement
from helpers.paths import ROOT

HOSTILE = "tests/hostile"

PLAY_FAILURES = [
    ("answers.py:IndexRaises", "answered (<BadTile object>,)"),
    ("answers.py:IterRaises", "other than one of the legal moves"),
    ("answers.py:ReprRaises", "it answered <Answer object>"),
    ("answers.py:LenRaises", "other than one of the legal moves"),
    ("answers.py:BoolRaises", "other than one of the legal moves"),
    ("answers.py:LenHuge", "other than one of the legal moves"),
    ("answers.py:LenGarbage", "other than one of the legal moves"),
    ("answers.py:ReprHuge", "it answered xxxx"),
    ("answers.py:ReprEscapes", r"it answered \x1b[31mRED\x1b]0;owned\x07\n[bold]fake[/bold]"),
    ("answers.py:EndlessIter", "other than one of the legal moves"),
    ("answers.py:ClassRaises", "other than one of the legal moves"),
    ("answers.py:HugeAnswer", "it answered (0, 1, 2,"),
    ("answers.py:NoneAnswer", "it answered None"),
    ("answers.py:Illegal", "it answered (13,)"),
    ("answers.py:Mutates", "it answered (13,); the legal moves are "),
    ("answers.py:DiceGarbage", "chose a number of dice other than 1 or 2"),
    ("raises.py:RaisesFirst", "ZeroDivisionError: no luck today."),
    ("raises.py:RaisesBase", "Custom: a BaseException of its own."),
    ("raises.py:RaisesGeneratorExit", "raised an error with open tiles"),
    ("raises.py:RaisesKeyboardInterrupt", "KeyboardInterrupt."),
    ("raises.py:Exits", "called sys.exit(0)"),
    ("raises.py:ExitsWithGarbage", "called sys.exit(<Code object>)"),
    ("raises.py:UnprintableError", "Unprintable: (its message could not be shown)."),
    ("raises.py:NamelessError", "object: who am I."),
    ("raises.py:EscapingError", r"ValueError: \x1b[2J\x1b]0;owned\x07cleared [red]your[/red] screen and more."),
    ("raises.py:HugeError", "ValueError: xxx"),
    ("raises.py:Recurses", "RecursionError"),
    ("raises.py:RaisesInDice", "Custom: no dice."),
    ("raises.py:TabulableRaisesBase", "(asked while tabulating its answers): Custom: no table for you."),
    ("raises.py:TabulableExits", "called sys.exit(0)"),
    ("raises.py:TabulableMutates", "it answered (13,); the legal moves are"),
]
"""Strategies that fail while they play: exit status 1, and what the message must say."""

LOAD_FAILURES = [
    ("import_exit.py:Any", "ended the import with SystemExit(0)."),
    ("import_interrupt.py:Any", "ended the import with KeyboardInterrupt."),
    ("import_generator_exit.py:Any", "ended the import with GeneratorExit."),
    ("import_base.py:Any", "ended the import with Custom: not today."),
    ("raises.py:RaisesInInit", "could not be built: Custom: cannot even start."),
    ("raises.py:ExitsInInit", "could not be built: SystemExit(0)."),
    ("raises.py:InterruptsInInit", "could not be built: KeyboardInterrupt."),
    ("names.py:NameNotString", "has a name that is not a string: 42."),
    ("names.py:NameObject", "has a name that is not a string: <Name object>."),
    ("names.py:NameEscapes", r"has a name with control characters in it: '\x1b[31mred\x1b]0;owned\x07'."),
    ("names.py:NameNewline", r"has a name with control characters in it: 'two\nlines'."),
    ("names.py:DescriptionNotString", "has a description that is not a string: ('not', 'a', 'string')."),
    ("names.py:DescriptionEscapes", r"has a description with control characters in it: 'plays \x1b[2J well'."),
    ("names.py:DeclaresGarbage", "declares stochastic = 'yes'; it must be True or False."),
    ("names.py:TabulableRaises", "raised in tabulable(): RuntimeError: who knows."),
]
"""Strategies that cannot be loaded: a config error, exit status 2, and what the message must say."""

THROUGH_THE_COMMAND = [
    "answers.py:ReprRaises",
    "answers.py:EndlessIter",
    "answers.py:Mutates",
    "raises.py:RaisesBase",
    "raises.py:RaisesGeneratorExit",
    "raises.py:RaisesKeyboardInterrupt",
    "raises.py:ExitsWithGarbage",
    "raises.py:EscapingError",
    "raises.py:TabulableMutates",
    "import_exit.py:Any",
    "raises.py:ExitsInInit",
    "names.py:NameEscapes",
]
"""A representative of each kind of attack, played through the real command at -j 1 and -j 2."""

EXPECTED = {f"{HOSTILE}/{attack}": (1, words) for attack, words in PLAY_FAILURES} | {
    f"{HOSTILE}/{attack}": (2, words) for attack, words in LOAD_FAILURES
}


def assert_one_sentence(message: str, spec: str) -> None:
    """A message of one sentence naming the strategy, then only its own indented frames; nothing unprintable."""
    first, *frames = message.splitlines()
    assert spec in first and first.endswith("."), message
    assert all(line.startswith("  ") for line in frames), message
    assert "Traceback" not in message
    assert all(line.isprintable() for line in message.splitlines()), message


def play_in_process(spec: str, games: int = 20) -> str:
    """A tournament of the strategy against greedy-high played in this process: the error's message."""
    options = tournaments.Options(strategies=(spec, "greedy-high"), games=games, seed=1, workers=1)
    with pytest.raises((tournaments.ConfigError, tournaments.TournamentFailure)) as caught:
        config = tournaments.load_config(None, options)
        tournaments.run(config, backend=tournaments.InProcess())
    return str(caught.value)


PLAYED = (
    "test_a_strategy_failing_at_play_is_a_tournament_failure_in_one_sentence",
    "test_a_strategy_failing_to_load_is_a_config_error_in_one_sentence",
)
"""The tests that read `play_in_process` of their attack from `played`."""


@pytest.fixture(scope="module")
def played(request: pytest.FixtureRequest) -> dict[str, Future[str]]:
    """`play_in_process` of the attack of each test of `PLAYED` chosen for this run, by attack, played
    side by side (each starts a host: a process, about a tenth of a second of processor time, which
    one after another kept the other core idle), all done before the first test reads its own: the
    hosts' time is this module's shared setup, never one test's."""
    attacks = sorted(
        {
            item.callspec.params["attack"]
            for item in request.session.items
            if isinstance(item, pytest.Function) and item.module is request.module and item.originalname in PLAYED
        }
    )
    with ThreadPoolExecutor(max_workers=2) as pool:
        return {attack: pool.submit(play_in_process, f"{HOSTILE}/{attack}") for attack in attacks}


@pytest.mark.parametrize(
    ("attack", "words"),
    [
        # a host that tabulates before it fails takes about half a second to start, answer and stop
        pytest.param(attack, words, id=attack, marks=[pytest.mark.slow] if "Tabulable" in attack else [])
        for attack, words in PLAY_FAILURES
    ],
)
def test_a_strategy_failing_at_play_is_a_tournament_failure_in_one_sentence(
    attack: str, words: str, played: dict[str, Future[str]]
) -> None:
    spec = f"{HOSTILE}/{attack}"
    message = played[attack].result()
    assert words in message, message
    assert_one_sentence(message, spec)


@pytest.mark.parametrize(("attack", "words"), LOAD_FAILURES, ids=[attack for attack, _ in LOAD_FAILURES])
def test_a_strategy_failing_to_load_is_a_config_error_in_one_sentence(
    attack: str, words: str, played: dict[str, Future[str]]
) -> None:
    spec = f"{HOSTILE}/{attack}"
    with pytest.raises(StrategyLoadError) as caught:
        load_strategy(spec)
    assert words in str(caught.value)
    assert_one_sentence(str(caught.value), spec)
    message = played[attack].result()
    assert words in message
    assert_one_sentence(message, spec)


def test_the_thousandth_call_failing_is_named_too() -> None:
    message = play_in_process(f"{HOSTILE}/raises.py:RaisesThousandth", games=400)
    assert "ZeroDivisionError: no luck today." in message
    assert_one_sentence(message, f"{HOSTILE}/raises.py:RaisesThousandth")


def test_a_rewritten_view_is_judged_by_the_referees_copy_of_the_question() -> None:
    """The strategy rewrote the legal moves, the open tiles and the dice of its view: the message
    shows the question as it was asked."""
    player = StrategyPlayer(load_strategy(f"{HOSTILE}/answers.py:Mutates").make(), Rules(), "mutates")
    with pytest.raises(StrategyError) as caught:
        play_turn(Rules(), turn_rolls(1, 0, 0, 0), player)
    assert caught.value.view.legal_moves != ((13,),) and "open tiles 1 2 3 4 5 6 7 8 9" in str(caught.value)


@pytest.mark.slow  # three runs, each starting a host for its strategy
def test_a_right_answer_in_a_hostile_wrapper_plays_as_the_plain_move() -> None:
    """Tiles whose comparisons and hash raise, a tuple whose __eq__ raises: the referee reads
    them as plain whole numbers, so they play exactly as the plain answer does."""
    results = []
    for attack in ("EqRaises", "DiceIndexRaises", "Hostile"):
        options = tournaments.Options(strategies=(f"first={HOSTILE}/answers.py:{attack}", "tips"), games=40, seed=3)
        summary = tournaments.run(tournaments.load_config(None, options), backend=tournaments.InProcess())
        results.append([dataclasses.replace(standing, spec="") for standing in summary.ranking])
    assert results[0] == results[1] == results[2]


def shutbox(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return without_confinement(real_shutbox(*args, cwd=cwd, columns=100, env=env))


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("attack", THROUGH_THE_COMMAND)
@pytest.mark.usefixtures("pooled")
def test_the_command_names_a_hostile_strategy_in_one_sentence(attack: str, workers: str, tmp_path: Path) -> None:
    spec = f"{HOSTILE}/{attack}"
    status, words = EXPECTED[spec]
    report = tmp_path / "report.toml"
    done = shutbox(
        "tournament", "-s", spec, "-s", "greedy-high", "-n", "20", "--seed", "1", "-j", workers, "--report", str(report)
    )
    assert done.returncode == status, done.stderr
    assert done.stderr.startswith("shutbox: error: ") and words in done.stderr
    assert_one_sentence(done.stderr.removeprefix("shutbox: error: "), spec)
    assert done.stdout == "" and not report.exists()


@pytest.mark.slow
def test_names_with_escapes_and_markup_print_as_their_characters() -> None:
    """A display name given on the command line holds an escape sequence: refused, the message
    showing it written out. One holds markup, and so does a class's name: the tables, the quiet
    line and `shutbox strategies` show the characters."""
    refused = shutbox("tournament", "-s", "r\x1b[31med=greedy-high", "-s", "optimal", "-n", "20")
    assert refused.returncode == 2 and "\x1b" not in refused.stderr
    assert r"the name 'r\x1b[31med' holds control characters" in refused.stderr
    for quiet in ([], ["-q"]):
        field = ("-s", "r[bold]ed=greedy-high", "-s", f"{HOSTILE}/names.py:Markup")
        done = shutbox("tournament", *field, "-n", "20", *quiet)
        assert done.returncode == 0, done.stderr
        assert ("r[bold]ed" in done.stdout and "[bold]loud[/bold]" in done.stdout) or quiet
    shown = shutbox("strategies", f"{HOSTILE}/names.py:Markup")
    assert "[bold]loud[/bold]" in shown.stdout and "[link=https://example.com]a link[/link]" in shown.stdout
    shown = shutbox("strategies", f"{HOSTILE}/names.py:Docstring")
    assert r"Plays the first move.\x1b[31m In red.\x07" in shown.stdout and "\x1b" not in shown.stdout
    shown = shutbox("strategies", f"{HOSTILE}/names.py:ParameterDefaults")
    assert "odd: Any = <Odd object>" in shown.stdout


@pytest.mark.slow
@pytest.mark.parametrize("attack", ["names.py:NameObject", "import_exit.py:Any", "import_interrupt.py:Any"])
def test_shutbox_strategies_names_a_broken_strategy_in_one_sentence(attack: str) -> None:
    done = shutbox("strategies", f"{HOSTILE}/{attack}")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert EXPECTED[f"{HOSTILE}/{attack}"][1] in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "attack",
    ["raises.py:RaisesBase", "raises.py:RaisesKeyboardInterrupt", "answers.py:Mutates", "answers.py:ReprEscapes"],
)
def test_shutbox_check_reports_a_hostile_strategy_as_failing_checks(attack: str) -> None:
    done = shutbox("check", f"{HOSTILE}/{attack}", "--samples", "3")
    assert done.returncode == 1, done.stderr
    assert done.stderr == "" and "FAIL" in done.stdout and "\x1b" not in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "attack", ["raises.py:RaisesBase", "answers.py:ReprEscapes", "raises.py:RaisesKeyboardInterrupt"]
)
def test_a_hostile_computer_seat_at_play_is_named_in_one_sentence(attack: str, tmp_path: Path) -> None:
    spec = f"{HOSTILE}/{attack}"
    done = shutbox(
        "play",
        "--computer",
        spec,
        "--computer",
        "greedy-high",
        "--seed",
        "1",
        "--no-save",
        env={"SHUTBOX_DATA_DIR": str(tmp_path)},
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("shutbox: error: ") and EXPECTED[spec][1] in done.stderr
    assert_one_sentence(done.stderr.removeprefix("shutbox: error: "), spec)
