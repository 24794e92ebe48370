"""A host's supervisor, with real processes and real signals: whatever a strategy starts (in a
session of its own, a group of its own, or by a double fork) ends when its host is stopped,
when its host ends, and when the referee is killed; the host's memory limit holds for all it
starts and cannot be raised; a host that ends, is killed or hangs is one sentence naming its
strategy; and nothing a strategy prints reaches the results stream.

Each test marks the processes it starts with an environment variable of its own, so the process
table shows what is left."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from strategies.loading import StrategyLoadError
from tournaments.referee.isolation import Host

from helpers.command import real_shutbox
from helpers.paths import ROOT
from helpers.processes import MARKER, marked, marking

pytestmark = [
    pytest.mark.slow,  # each test starts hosts, a second or more
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table from /proc"),
]

RULES = Rules(tiles=5)
MARK = MARKER
SLEEPERS = 3
"""The processes `detach()` leaves asleep."""
STRATEGY = '''
import atexit
import os
import sys
import time

from strategies import Strategy


def sleep_forever():
    while True:
        time.sleep(3600)


def detach():
    """Three children that sleep forever: in a session of their own, in a group of their own,
    and one whose parent ended (a double fork)."""
    for leave in (os.setsid, lambda: os.setpgid(0, 0)):
        if os.fork() == 0:
            leave()
            sleep_forever()
    middle = os.fork()
    if middle == 0:
        if os.fork() == 0:
            os.setsid()
            sleep_forever()
        os._exit(0)
    os.waitpid(middle, 0)


class Detaches(Strategy):
    """Starts the sleepers at its first decision."""

    started = False

    def choose_move(self, view):
        if not Detaches.started:
            Detaches.started = True
            detach()
        return view.legal_moves[0]


class Plain(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


{at_import}
'''


def _until(holds: Callable[[], bool], seconds: float = 10) -> bool:
    """Whether `holds()` comes true within `seconds` (looked at often; the machine may be busy)."""
    deadline = time.monotonic() + seconds
    while not holds():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A mark every process started in the test carries; whatever is left is killed afterwards."""
    with marking() as marks:
        monkeypatch.setenv(MARK, marks.mark)
        yield marks.mark


def _strategy(folder: Path, at_import: str = "", name: str = "Detaches") -> str:
    """A spec for a strategy of `STRATEGY`, its module running `at_import` as it loads."""
    path = folder / f"strategy_{uuid.uuid4().hex[:8]}.py"
    path.write_text(STRATEGY.replace("{at_import}", at_import))
    return f"{path}:{name}"


def _launch(spec: str, timeout: float = 60, memory_limit_mib: int = 0) -> Host:
    return Host.launch(spec, {}, None, RULES, timeout=timeout, memory_limit_mib=memory_limit_mib)


def _detach(host: Host, when: str) -> None:
    """Have the host's strategy start its sleepers `when` (at "import" it has already)."""
    if when == "decision":
        host.player().policy  # noqa: B018 - tabulating asks the strategy its decisions


WHEN = ["import", "decision"]


@pytest.mark.parametrize("when", WHEN)
def test_what_a_strategy_starts_ends_when_its_host_is_stopped(tmp_path: Path, mark: str, when: str) -> None:
    spec = _strategy(tmp_path, "detach()" if when == "import" else "")
    host = _launch(spec).ready()
    try:
        _detach(host, when)
        assert _until(lambda: len(marked(mark)) >= 2 + SLEEPERS)  # the supervisor, the host, the sleepers
    finally:
        host.stop()
    assert _until(lambda: not marked(mark))


def test_a_strategy_that_stops_its_supervisor_still_leaves_nothing(
    tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no Landlock keeps the host's signals to its own processes (SHUTBOX_LANDLOCK_ABI=0);
    with it, the signal is refused (tests/tournaments/referee/test_confinement.py)."""
    monkeypatch.setenv("SHUTBOX_LANDLOCK_ABI", "0")
    spec = _strategy(tmp_path, "import signal\ndetach()\nos.kill(os.getppid(), signal.SIGSTOP)")
    host = _launch(spec).ready()
    try:
        assert _until(lambda: len(marked(mark)) >= 2 + SLEEPERS)
    finally:
        host.stop()
    assert _until(lambda: not marked(mark))


def test_a_host_outlives_the_thread_that_launched_it(mark: str) -> None:
    """The kernel tells the supervisor when that thread ends: the referee is still there."""
    launched: list[Host] = []
    thread = threading.Thread(target=lambda: launched.append(_launch("greedy-high").ready()))
    thread.start()
    thread.join()
    (host,) = launched
    try:
        assert host.player().policy.dice
    finally:
        host.stop()
    assert _until(lambda: not marked(mark))


REFEREE = """
import sys
from shutbox_cli.game import Rules
from tournaments.referee.isolation import Host

host = Host.launch(sys.argv[1], {}, None, Rules(tiles=5), timeout=60, memory_limit_mib=0).ready()
if sys.argv[2] == "decision":
    host.player().policy
print("ready", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("when", WHEN)
def test_what_a_strategy_starts_ends_when_the_referee_is_killed(tmp_path: Path, mark: str, when: str) -> None:
    spec = _strategy(tmp_path, "detach()" if when == "import" else "")
    said = tmp_path / "said"
    with said.open("w") as stdout:
        referee = subprocess.Popen(
            [sys.executable, "-c", REFEREE, spec, when], cwd=ROOT, stdin=subprocess.PIPE, stdout=stdout
        )
    try:
        assert _until(lambda: said.read_text() == "ready\n", 60)
        assert _until(lambda: len(marked(mark)) >= 3 + SLEEPERS)  # and the referee
    finally:
        referee.kill()
        referee.wait()
    assert _until(lambda: not marked(mark))


def test_a_host_that_exits_0_as_it_loads_is_one_sentence_and_leaves_nothing(tmp_path: Path, mark: str) -> None:
    spec = _strategy(tmp_path, "detach()\nos._exit(0)")
    with pytest.raises(StrategyLoadError) as raised:
        _launch(spec).ready()
    assert str(raised.value) == f"the process of strategy {spec!r} ended with status 0 while loading strategy {spec!r}."
    assert _until(lambda: not marked(mark))


def test_a_host_killed_by_a_signal_is_one_sentence_naming_it(tmp_path: Path, mark: str) -> None:
    spec = _strategy(tmp_path, "import signal\nos.kill(os.getpid(), signal.SIGKILL)")
    with pytest.raises(StrategyLoadError) as raised:
        _launch(spec).ready()
    assert str(raised.value) == (
        f"the process of strategy {spec!r} was killed by signal 9 (SIGKILL) while loading strategy {spec!r}."
    )
    assert _until(lambda: not marked(mark))


def test_a_host_that_hangs_as_it_loads_is_stopped_at_its_deadline(tmp_path: Path, mark: str) -> None:
    catching_loop = "detach()\nwhile True:\n    try:\n        time.sleep(0.01)\n    except BaseException:\n        pass"
    spec = _strategy(tmp_path, catching_loop)
    with pytest.raises(StrategyLoadError) as raised:
        _launch(spec, timeout=2).ready()
    assert f"strategy {spec!r} did not answer while loading strategy {spec!r} within 2 seconds" in str(raised.value)
    assert _until(lambda: not marked(mark))


def test_an_atexit_sleep_does_not_keep_a_stopped_host(tmp_path: Path, mark: str) -> None:
    spec = _strategy(tmp_path, "detach()\natexit.register(time.sleep, 300)")
    host = _launch(spec).ready()
    host.stop()
    assert host.process.poll() is not None
    assert _until(lambda: not marked(mark))


MEMORY = """
import resource
try:
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    raised = "raised"
except (ValueError, OSError):
    raised = "kept"
child = os.fork()
if child == 0:
    try:
        hoard = bytearray(1 << 30)
        allocated = "allocated"
    except MemoryError:
        allocated = "refused"
    with open(os.environ["MEMORY_SEEN"], "w") as seen:
        seen.write(f"{raised} {allocated}")
    os._exit(0)
os.waitpid(child, 0)
"""


def test_the_memory_limit_holds_for_what_a_host_starts_and_cannot_be_raised(
    tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "seen"
    monkeypatch.setenv("MEMORY_SEEN", str(seen))
    host = _launch(_strategy(tmp_path, MEMORY, "Plain"), memory_limit_mib=400).ready()
    host.stop()
    assert seen.read_text() == "kept refused"


HOARDERS = """
for _ in range(3):
    if os.fork() == 0:
        hoard = b"x" * (150 << 20)
        sleep_forever()
sleep_forever()
"""


def test_a_host_and_what_it_starts_share_its_memory_limit(tmp_path: Path, mark: str) -> None:
    """Each of three children holds 150 MiB, under the limit of 300 MiB alone, but not together."""
    spec = _strategy(tmp_path, HOARDERS)
    with pytest.raises(StrategyLoadError) as raised:
        _launch(spec, memory_limit_mib=300).ready()
    assert str(raised.value).startswith(
        f"the process of strategy {spec!r} and those it started were stopped: together they used more than "
        "its memory limit of 300 MiB"
    )
    assert _until(lambda: not marked(mark))


PRINTS = """
print("PRINTED AT IMPORT")
sys.stderr.write("WRITTEN TO STDERR AT IMPORT\\n")
atexit.register(time.sleep, 300)  # the host never ends by itself, flushing what it holds: it is killed


class Prints(Strategy):
    reads_context = True

    def choose_move(self, view):
        print("PRINTED IN A DECISION")
        return view.legal_moves[0]
"""


def test_what_a_strategy_prints_never_reaches_the_results_stream(
    tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All of it reaches stderr, though its host is killed (it keeps nothing in a buffer), and
    an `atexit` sleep delays nothing."""
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    spec = _strategy(tmp_path, PRINTS, "Prints")
    run = real_shutbox(
        "tournament", "--isolate", "-s", spec, "-s", "greedy-high", "-n", "20", "--seed", "1",
        "--format", "json", "--report", "-",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "PRINTED" not in run.stdout
    assert json.loads(run.stdout)["ranking"]
    assert "PRINTED AT IMPORT" in run.stderr and "PRINTED IN A DECISION" in run.stderr
    assert "WRITTEN TO STDERR AT IMPORT" in run.stderr
    assert _until(lambda: not marked(mark))
