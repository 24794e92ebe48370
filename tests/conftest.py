"""Shared test setup: a hypothesis profile for a busy machine, `st.from_type(Rules)` drawing any
valid rule set, so property tests range over every rule variant, and a report of the tests that
took `SLOW_SECONDS` or more without being marked slow (`--unmarked-slow=report`, as CI asks)."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
from typing import Any

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

# Exact strategies' tables are kept in a folder of this test run's own, never the user's cache
# (every shutbox a test starts inherits it); a test of the cache itself points elsewhere. Parallel
# workers (pytest-xdist: `-n`) inherit the folder the run made before starting them, so a table is
# made once for the run (a table is written whole, then renamed into place: workers may share it).
# The keys that seal them (and checkpoints) are kept in a state folder of the run's own likewise.
if "PYTEST_XDIST_WORKER" not in os.environ:
    _kept_tables = tempfile.TemporaryDirectory(prefix="shutbox-tables-")
    os.environ["SHUTBOX_TABLE_CACHE"] = _kept_tables.name
    _state = tempfile.TemporaryDirectory(prefix="shutbox-state-")
    os.environ["XDG_STATE_HOME"] = _state.name
    # Every run a test finishes is recorded in a history of this test run's own (docs/history.md),
    # never the user's: one SQLite file the workers share, as concurrent runs do.
    _history = tempfile.TemporaryDirectory(prefix="shutbox-history-")
    os.environ["SHUTBOX_HISTORY"] = os.path.join(_history.name, "history.sqlite3")

# Whether a run at -j 2 plays in a pool never depends on the machine's load here: the estimate
# alone decides (`SHUTBOX_POOL=idle`), and a test of the pool asks for it whatever the run's size
# (the `pooled` fixture: `SHUTBOX_POOL=always`). Every shutbox a test starts inherits it.
os.environ["SHUTBOX_POOL"] = "idle"

# Bytecode is cached (beside the sources, as Python does by default) even where the environment
# turns that off (PYTHONDONTWRITEBYTECODE): else pytest rewrites the asserts of every test file
# again in each run, and every process a test starts (a shutbox, a strategy's host, a worker)
# compiles again each module it imports: a fifth of the fast subset's time. Workers and commands
# started from here inherit the environment without it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False


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


@pytest.fixture(scope="session", autouse=True)
def host_writable(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A strategy's host may write in this run's temporary folders (SHUTBOX_HOST_WRITABLE), besides
    its own scratch folder, as the hostile strategies of the tests leave there what they did; the
    tests of confinement itself name their own (tests/tournaments/referee/test_confinement.py)."""
    os.environ["SHUTBOX_HOST_WRITABLE"] = str(tmp_path_factory.getbasetemp())


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run at -j 2 or more plays in a pool, however small (`SHUTBOX_POOL=always`): for the tests of
    the pool (its workers, their failures, Ctrl-C), which a small run would otherwise skip."""
    monkeypatch.setenv("SHUTBOX_POOL", "always")


SLOW_SECONDS = 0.5
"""A test that takes this long or more on an idle machine (its own setup and teardown included) is
marked slow. A fixture of a wider scope than the test is shared setup, not charged to the test that
happens to come first."""
_unmarked: dict[str, tuple[float, float]] = {}
"""Each test not marked slow: its seconds on the clock, and of processor time."""
_shared = [0.0, 0.0]
"""The clock and processor seconds of the shared fixtures set up during the current test."""


UNMARKED_SLOW = ("off", "report", "fail")
"""What --unmarked-slow may ask; its default is $SHUTBOX_UNMARKED_SLOW (CI's), an environment variable
rather than PYTEST_ADDOPTS, which would reach every pytest a test starts (a new strategy's own)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--unmarked-slow",
        choices=UNMARKED_SLOW,
        default=next((way for way in UNMARKED_SLOW if way == os.environ.get("SHUTBOX_UNMARKED_SLOW")), "off"),
        help=f"tests not marked slow that took {SLOW_SECONDS} s or more: say nothing (the default), list them at "
        "the end (CI's log does: a loaded machine makes every test slower), or also fail the run if one took "
        f"{SLOW_SECONDS} s of processor time",
    )


def _processor_seconds() -> float:
    """Processor time so far of this process and of its children waited for (a test's commands)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    if item.get_closest_marker("slow") is not None:
        return (yield)
    _shared[:] = [0.0, 0.0]
    clock, processor = time.perf_counter(), _processor_seconds()
    try:
        return (yield)
    finally:
        clock, processor = time.perf_counter() - clock, _processor_seconds() - processor
        _unmarked[item.nodeid] = (clock - _shared[0], processor - _shared[1])


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest) -> object:
    if fixturedef.scope == "function":
        return (yield)
    clock, processor = time.perf_counter(), _processor_seconds()
    try:
        return (yield)
    finally:
        _shared[0] += time.perf_counter() - clock
        _shared[1] += _processor_seconds() - processor


def _too_slow() -> dict[str, tuple[float, float]]:
    return {nodeid: spent for nodeid, spent in _unmarked.items() if max(spent) >= SLOW_SECONDS}


def _failing(config: pytest.Config) -> bool:
    """Whether --unmarked-slow=fail fails the run: a test took SLOW_SECONDS of processor time, which
    a busy machine barely changes (unlike the clock)."""
    overrun = any(processor >= SLOW_SECONDS for _, processor in _too_slow().values())
    return config.getoption("--unmarked-slow") == "fail" and overrun


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A parallel worker (pytest-xdist) is done: its tests' times join this run's report."""
    for nodeid, (clock, processor) in getattr(node, "workeroutput", {}).get("unmarked", {}).items():
        _unmarked[nodeid] = (clock, processor)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    found = _too_slow()
    if not found or config.getoption("--unmarked-slow") == "off":
        return
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    terminalreporter.section(f"tests not marked slow that took {SLOW_SECONDS} s or more (load average {load})")
    terminalreporter.write_line("  clock  processor")
    for nodeid, (clock, processor) in sorted(found.items(), key=lambda item: -item[1][1]):
        terminalreporter.write_line(f"{clock:6.2f}s {processor:6.2f}s  {nodeid}")
    terminalreporter.write_line(
        "Mark each @pytest.mark.slow or make it cheaper (on a loaded machine, the clock misleads)."
    )
    if _failing(config):
        terminalreporter.write_line(f"--unmarked-slow=fail: the run fails ({SLOW_SECONDS} s of processor time).")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workeroutput"):  # a parallel worker: its times go to the run, which judges them
        session.config.workeroutput["unmarked"] = _unmarked
        return
    if _failing(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
