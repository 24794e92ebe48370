"""Shared test setup: a hypothesis profile for a busy machine, `st.from_type(Rules)` drawing any
valid rule set, so property tests range over every rule variant, and a report of the tests that
took `SLOW_SECONDS` or more without being marked slow."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from shutbox_cli.game import FirstRoll, OneDie, OneDieMode, Rules, Scoring, ShutRule, Ties

# No per-example deadline: the machine is shared, and tests assert behaviour, never timing.
# Derandomized: every run tries the same examples, so a failure is never a matter of luck.
settings.register_profile("shutbox", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shutbox")

# A shell starts a background job with Ctrl-C ignored, and a program started from an ignoring
# process inherits that: the tests that send Ctrl-C to a real shutbox would see nothing happen.
# Handling it here (as an interactive pytest would) lets every child start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A valid rule set: any box size, shut rule, dice rule, scoring and game format."""
    tiles = draw(st.integers(2, 12))
    first_rolls = list(FirstRoll) if tiles >= 3 else [FirstRoll.NONE, FirstRoll.TWO_TO_GO]
    game_format = draw(st.sampled_from(["one turn", "rounds", "drop-out"]))
    return Rules(
        tiles=tiles,
        shut_rule=draw(st.sampled_from(list(ShutRule))),
        one_die=draw(st.none() | st.sampled_from(list(OneDie))),
        one_die_mode=draw(st.sampled_from(list(OneDieMode))),
        scoring=draw(st.sampled_from(list(Scoring))),
        first_roll=draw(st.sampled_from(first_rolls)),
        instant_win=draw(st.none() | st.booleans()),
        ties=draw(st.sampled_from(list(Ties))),
        rounds=draw(st.integers(2, 4)) if game_format == "rounds" else 1,
        drop_out=draw(st.integers(1, 120)) if game_format == "drop-out" else None,
    )


st.register_type_strategy(Rules, any_rules())


SLOW_SECONDS = 0.5
"""A test that takes this long or more (setup and teardown included) is marked slow."""
_unmarked: dict[str, float] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--unmarked-slow",
        choices=("report", "fail"),
        default="report",
        help=f"what to do about tests not marked slow that took {SLOW_SECONDS} s or more: report them (the "
        "default: a loaded machine makes any test slower), or fail the run (for an idle machine)",
    )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "slow" not in report.keywords and not report.skipped:
        _unmarked[report.nodeid] = _unmarked.get(report.nodeid, 0.0) + report.duration


def _too_slow() -> dict[str, float]:
    return {nodeid: seconds for nodeid, seconds in _unmarked.items() if seconds >= SLOW_SECONDS}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    found = _too_slow()
    if not found:
        return
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    terminalreporter.section(f"tests not marked slow that took {SLOW_SECONDS} s or more (load average {load})")
    for nodeid, seconds in sorted(found.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{seconds:6.2f}s {nodeid}")
    terminalreporter.write_line("Mark each @pytest.mark.slow, or make it cheaper (or rerun on an idle machine).")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.getoption("--unmarked-slow") == "fail" and _too_slow() and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
