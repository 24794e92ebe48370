"""Stop signals at any moment of a command: while the command line loads, inside a command before
its own handling starts, in a strategy's code, and at the play table. Each is one line and the
status shells give the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP).

The real-process tests send the signal at a fixed point, not after a guessed delay: the process
runs with an import hook that sends the signal to the process itself when a given module is
first imported (the command line's `typer`, the tournament command's `tournaments`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

import shutbox_cli.face.commands.analyze
from shutbox_cli.face import signals
from shutbox_cli.face.cli import app
from strategies.guard import raised_by_strategy

HOOK = """
import os, signal, sys

class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.{signal})
        return None

sys.meta_path.insert(0, SignalOnImport())
from shutbox_cli.entry import main
main()
"""


def stopped_on_import(module: str, sent: signal.Signals, *args: str) -> subprocess.CompletedProcess[str]:
    """`shutbox ARGS`, sent `sent` as it first imports `module`."""
    code = HOOK.format(module=module, signal=sent.name)
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)


STOPS = [
    ("typer", signal.SIGTERM, 143, "shutbox: interrupted, by SIGTERM.\n"),
    ("typer", signal.SIGINT, 130, "\nshutbox: interrupted.\n"),
    ("tournaments", signal.SIGTERM, 143, "shutbox: interrupted, by SIGTERM.\n"),
    ("tournaments.field.config", signal.SIGTERM, 143, "shutbox: interrupted, by SIGTERM.\n"),
    ("tournaments.field.config", signal.SIGHUP, 129, "shutbox: interrupted, by SIGHUP.\n"),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "sent", "status", "said"), STOPS, ids=[f"{module}-{sent.name}" for module, sent, _, _ in STOPS]
)
def test_a_stop_signal_while_the_command_loads_is_said_with_its_status(
    module: str, sent: signal.Signals, status: int, said: str
) -> None:
    """`typer`: the command line is loading; `tournaments`: it is looking for the library
    (whether a file shadows it); `tournaments.field.config`: the tournament command is loading the
    library, before a run starts (typer ended that with a silent 130, whatever the signal)."""
    done = stopped_on_import(module, sent, "tournament", "-s", "optimal", "-s", "tips", "--seed", "1", "-q")
    assert done.returncode == status, done.stderr
    assert done.stderr == said and done.stdout == ""


@pytest.fixture
def stop_handlers() -> Iterator[None]:
    """The stop handlers installed as the console script installs them; afterwards, the test
    process's own handlers and no signal received."""
    saved = {number: signal.getsignal(number) for number in signals.STOPPING}
    signals.RECEIVED.clear()
    try:
        signals.stop_on_signals()
        yield
    finally:
        signals.RECEIVED.clear()
        for number, handler in saved.items():
            signal.signal(number, handler)


@pytest.mark.usefixtures("stop_handlers")
def test_a_stop_signal_that_lands_in_a_strategys_code_stops_the_run_and_is_not_the_strategys_failure() -> None:
    def strategy_code() -> None:
        signal.raise_signal(signal.SIGTERM)  # the handler runs here, as for a signal from outside

    with pytest.raises(KeyboardInterrupt) as stopped:
        strategy_code()
    assert not raised_by_strategy(stopped.value)
    assert signals.received() == signal.SIGTERM


def test_a_strategys_own_keyboard_interrupt_is_still_its_failure() -> None:
    with pytest.raises(KeyboardInterrupt) as raised:
        raise KeyboardInterrupt
    assert raised_by_strategy(raised.value)


def test_a_stop_that_a_command_leaves_unsaid_is_said_with_the_signals_status(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: object, **kwargs: object) -> None:
        signals.RECEIVED.append(signal.SIGTERM)
        raise KeyboardInterrupt

    monkeypatch.setattr(signals, "RECEIVED", [])
    monkeypatch.setattr(shutbox_cli.face.commands.analyze, "Output", stopped)
    done = CliRunner().invoke(app, ["analyze", "optimal"])
    assert done.exit_code == 143
    assert done.stderr == "shutbox: interrupted, by SIGTERM.\n"


def test_ctrl_c_that_a_command_leaves_unsaid_is_said_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(signals, "RECEIVED", [])
    monkeypatch.setattr(shutbox_cli.face.commands.analyze, "Output", stopped)
    done = CliRunner().invoke(app, ["analyze", "optimal"])
    assert done.exit_code == 130
    assert done.stderr == "\nshutbox: interrupted.\n"


@pytest.mark.slow
def test_sigterm_at_the_play_table_says_goodbye_with_its_status() -> None:
    play = subprocess.Popen(
        [sys.executable, "-m", "shutbox_cli", "play", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert play.stdout is not None
    shown = b""
    while b"Roll [Enter]:" not in shown:  # waiting for the player: the signal lands in input()
        chunk = os.read(play.stdout.fileno(), 4096)
        assert chunk, shown
        shown += chunk
    play.send_signal(signal.SIGTERM)
    out, err = play.communicate(timeout=60)
    assert play.returncode == 143, err
    assert (shown + out).decode().rstrip().endswith("Interrupted. Goodbye.")
