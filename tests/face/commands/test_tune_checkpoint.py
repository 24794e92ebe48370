"""A tune keeps its trials in a checkpoint as it goes: stopped by a real signal, killed, or unable
to write its report at the end, it resumes (`shutbox tune --resume`) to the very report an
uninterrupted tune writes; a finished one leaves no checkpoint, and an edited one is refused."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.running import seal

from helpers import command
from helpers.paths import ROOT
from helpers.processes import marking, wait_for

pytestmark = pytest.mark.slow  # whole tunes, and real processes stopped while they run

KEY = "7a" * 32 + "\n"
"""The checkpoint key of every tune here."""
TUNE = ["tune", "held.py:Held", "-p", "threshold=1..3", "-s", "tips", "-n", "200", "--confirm-games", "200"]
TUNE += ["--seed", "9", "-q", "--checkpoint-seconds", "0"]
"""A small simulated tune of a user's strategy whose candidates from threshold 2 on wait while a file
`hold` lies beside it; it keeps its checkpoint after every trial."""


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's state folder, with the key its tunes share (this process's too) in its key folder."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    _keep_key(folder)
    return folder


def _keep_key(state: Path) -> None:
    """`KEY` as the checkpoint key of the user whose state folder is `state`, where `keys` looks."""
    keys = state / "shutbox" / "keys"
    keys.mkdir(parents=True)
    (keys / seal.KEY_FILE).write_text(KEY)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The folder the tunes run in, with the strategy."""
    found = tmp_path / "run"
    found.mkdir()
    shutil.copy(ROOT / "tests" / "data" / "held.py", found)
    return found


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The report of the tune run without a stop (with the tests' key)."""
    folder = tmp_path_factory.mktemp("whole")
    shutil.copy(ROOT / "tests" / "data" / "held.py", folder)
    state = folder / "state"
    _keep_key(state)
    done = command.real_shutbox(*TUNE, "-o", "whole.toml", cwd=folder, env={"XDG_STATE_HOME": str(state)})
    assert done.returncode == 0, done.stderr
    assert not list(folder.glob("*.checkpoint.toml")) and not list(state.glob("**/*.checkpoint.toml"))
    return (folder / "whole.toml").read_bytes()


def checkpoints(folder: Path, state: Path) -> list[Path]:
    return sorted(folder.glob("*.checkpoint.toml")) + sorted(state.glob("**/*.checkpoint.toml"))


def start_held(folder: Path, state: Path, *args: str, **popen: object) -> subprocess.Popen[str]:
    """The tune started in `folder`, held at its second candidate once its first is kept."""
    (folder / "hold").touch()
    process = subprocess.Popen(
        [sys.executable, "-m", "shutbox_cli", *TUNE, *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=command.environment(XDG_STATE_HOME=str(state), **popen),  # type: ignore[arg-type]
    )
    assert wait_for(lambda: checkpoints(folder, state) or process.poll() is not None), "no checkpoint was kept"
    assert process.poll() is None, process.communicate()
    return process


def stop(process: subprocess.Popen[str], number: int) -> str:
    process.send_signal(number)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return err


def resume(folder: Path, state: Path, path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (folder / "hold").unlink(missing_ok=True)
    return command.real_shutbox(
        "tune", "--resume", str(path), "-q", *args, cwd=folder, env={"XDG_STATE_HOME": str(state)}
    )


def test_a_tune_stopped_by_sigint_resumes_from_its_report(folder: Path, state: Path, whole: bytes) -> None:
    process = start_held(folder, state, "-o", "part.toml")
    err = stop(process, signal.SIGINT)
    assert process.returncode == 130, err
    assert err.endswith(
        "shutbox: stopped after 1 trials, kept in its report and its checkpoint; resume with: "
        "shutbox tune --resume part.toml\n"
    )
    kept = folder / "part.checkpoint.toml"
    assert checkpoints(folder, state) == [kept]  # the report resumes it, by its sealed checkpoint
    assert seal.fingerprint(bytes.fromhex(KEY)) in kept.read_text()  # sealed with the tests' key
    done = resume(folder, state, folder / "part.toml")
    assert done.returncode == 0, done.stderr
    assert (folder / "part.toml").read_bytes() == whole and checkpoints(folder, state) == []


def test_a_tune_stopped_by_sigterm_without_a_report_resumes_from_its_checkpoint(
    folder: Path, state: Path, whole: bytes
) -> None:
    process = start_held(folder, state)
    err = stop(process, signal.SIGTERM)
    assert process.returncode == 143, err
    found = re.search(
        r"shutbox: stopped after 1 trials, kept in a checkpoint; resume with: shutbox tune --resume (\S+)\n$", err
    )
    assert found, err
    kept = Path(found[1])
    assert kept.parent == state / "shutbox" / "checkpoints" and checkpoints(folder, state) == [kept]
    done = resume(folder, state, kept, "-o", "resumed.toml")
    assert done.returncode == 0, done.stderr
    assert (folder / "resumed.toml").read_bytes() == whole
    assert checkpoints(folder, state) == []


def test_a_killed_tune_resumes_from_its_checkpoint_to_the_report_it_was_given(
    folder: Path, state: Path, whole: bytes
) -> None:
    with marking() as mark:
        process = start_held(folder, state, "-o", "part.toml", **mark.env)
        stop(process, signal.SIGKILL)
        assert mark.kill() == []  # its strategies' hosts, orphaned
    assert process.returncode == -signal.SIGKILL
    kept = folder / "part.checkpoint.toml"
    assert checkpoints(folder, state) == [kept] and not (folder / "part.toml").exists()
    done = resume(folder, state, kept)
    assert done.returncode == 0, done.stderr
    assert (folder / "part.toml").read_bytes() == whole
    assert checkpoints(folder, state) == []


def test_a_tune_whose_strategy_fails_keeps_its_trials_to_resume_once_mended(
    folder: Path, state: Path, whole: bytes
) -> None:
    (folder / "fail").touch()
    failed = command.real_shutbox(*TUNE, "-o", "part.toml", cwd=folder, env={"XDG_STATE_HOME": str(state)})
    assert failed.returncode == 1, failed.stderr
    assert "told to fail" in failed.stderr
    assert failed.stderr.endswith(
        "shutbox: the trials so far are kept; resume with: shutbox tune --resume part.checkpoint.toml\n"
    )
    (folder / "fail").unlink()
    done = resume(folder, state, folder / "part.checkpoint.toml")
    assert done.returncode == 0, done.stderr
    assert (folder / "part.toml").read_bytes() == whole and checkpoints(folder, state) == []


def test_a_tune_does_not_start_over_a_checkpoint_nor_resume_an_edited_one(folder: Path, state: Path) -> None:
    with marking() as mark:
        process = start_held(folder, state, "-o", "part.toml", **mark.env)
        stop(process, signal.SIGKILL)
        mark.kill()
    kept = folder / "part.checkpoint.toml"
    (folder / "hold").unlink()
    again = command.real_shutbox(*TUNE, "-o", "part.toml", cwd=folder, env={"XDG_STATE_HOME": str(state)})
    assert again.returncode == 2
    assert again.stderr == (
        "shutbox: error: checkpoint 'part.checkpoint.toml' is already there: a tune writing the same report was "
        "stopped or is still running; finish it with --resume 'part.checkpoint.toml', or remove it to start again.\n"
    )
    kept.write_text(kept.read_text().replace("objective = 0.", "objective = 1."))
    edited = resume(folder, state, kept)
    assert edited.returncode == 2
    assert edited.stderr.startswith(f"shutbox: error: checkpoint {str(kept)!r} has been changed since shutbox wrote it")


def test_a_tune_whose_report_cannot_be_written_keeps_its_trials(
    folder: Path, state: Path, whole: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = folder / "part.toml"
    rename = os.replace

    def full_disk(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
        if os.path.realpath(destination) == os.path.realpath(report):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        rename(source, destination)

    monkeypatch.chdir(folder)
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", full_disk)
        failed = command.shutbox(*TUNE, "-o", str(report))
    kept = folder / "part.checkpoint.toml"
    assert failed.returncode == 2
    assert failed.stderr == (
        f"shutbox: error: cannot write {str(report)!r}: {os.strerror(errno.ENOSPC)}.\n"
        f"shutbox: the trials so far are kept; resume with: shutbox tune --resume {kept}\n"
    )
    assert checkpoints(folder, state) == [kept] and not report.exists()
    done = command.shutbox("tune", "--resume", str(kept), "-q")
    assert done.returncode == 0, done.stderr
    assert report.read_bytes() == whole and checkpoints(folder, state) == []
