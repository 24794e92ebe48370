"""Checkpoint and resume through the real command: a run interrupted by a real SIGINT once it keeps
a checkpoint, at -j 1 and -j 2, resumed to the very report an uninterrupted run writes; a finished
run leaves no checkpoint; a checkpoint that does not match (another version, dice, configuration,
strategy source, or options that change results), is changed after it was written or is damaged
is refused with one sentence.

Every run here, and this process, seals checkpoints with one key (`KEY`), kept in each run's
key folder, as one user's runs share theirs."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tournaments
from shutbox_cli.face.cli import app
from tournaments.running import seal
from tournaments.running.checkpoint import CHECKPOINT_FORMAT

from helpers import command

pytestmark = pytest.mark.slow  # whole tournaments of a strategy that takes its time

SLOW_STRATEGY = """
import pathlib
import time

from strategies import Strategy


class Slow(Strategy):
    \"\"\"Plays turn by turn (it declares reading the context), and takes its time; fails while a
    file `fail` lies beside it. Once a file `hold` beside it names a folder that holds a checkpoint,
    it waits for `fail` (a minute at most): that run cannot end before it is told to fail.\"\"\"

    reads_context = True

    def choose_move(self, view):
        time.sleep(0.0005)
        here = pathlib.Path(__file__).parent
        if (here / "hold").exists() and any(pathlib.Path((here / "hold").read_text()).glob("*.checkpoint.toml")):
            held = time.monotonic()
            while not (here / "fail").exists() and time.monotonic() < held + 60:
                time.sleep(0.01)
        if (here / "fail").exists():
            raise RuntimeError("told to fail")
        return view.legal_moves[-1]
"""
CHECKPOINT_SECONDS = "0.3"
"""How often the runs here write their checkpoint (the default, 5 s, would make each test wait)."""
KEY = "5e" * 32 + "\n"
"""The checkpoint key of every run here."""


@pytest.fixture(autouse=True, scope="module")
def user_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """This process's state folder, with the key the runs share."""
    folder = tmp_path_factory.mktemp("state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(with_key(folder)))
        yield folder


def with_key(state: Path) -> Path:
    """A state folder that holds the shared key, in its key folder."""
    (state / "shutbox" / "keys").mkdir(mode=0o700, parents=True, exist_ok=True)
    (state / "shutbox" / "keys" / seal.KEY_FILE).write_text(KEY)
    return state


def field(source: Path) -> list[str]:
    """The tournament every test plays: a slow user strategy (from `source`, by its absolute path, as
    the report records it) against two built-in ones, seeded."""
    return ["-s", f"{source}:Slow", "-s", "greedy-high", "-s", "tips", "-n", "2000", "--seed", "5"]


def environment(state: Path) -> dict[str, str]:
    """The environment of a run: checkpoints without a report go under `state`, not the user's."""
    return command.environment(XDG_STATE_HOME=str(with_key(state)))


def start(folder: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "shutbox_cli", "tournament", *args, "--checkpoint-seconds", CHECKPOINT_SECONDS, "-q"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(folder / "state"),
    )


def checkpoints(folder: Path) -> list[Path]:
    """Every checkpoint in the folder, beside a report or in the state folder."""
    return sorted(folder.glob("*.checkpoint.toml")) + sorted((folder / "state").glob("**/*.checkpoint.toml"))


def wait_for_checkpoint(folder: Path, process: subprocess.Popen[str]) -> Path:
    deadline = time.monotonic() + 60
    while not checkpoints(folder) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    found = checkpoints(folder)
    assert found, "the run kept no checkpoint"
    return found[0]


def interrupt(folder: Path, source: Path, *args: str) -> Path:
    """Start a run in `folder`, send it SIGINT as soon as it keeps a checkpoint (a later moment could
    fall after the run's end on a fast machine); the checkpoint its message names."""
    process = start(folder, *field(source), *args)
    try:
        wait_for_checkpoint(folder, process)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        err = command.unconfined(err)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    found = re.fullmatch(
        r"shutbox: interrupted after ([\d,]+) of 6,000 games; no report written; "
        r"resume with: shutbox tournament --resume (\S+)\n",
        err,
    )
    assert found, err
    assert int(found[1].replace(",", "")) > 0
    path = Path(found[2]) if Path(found[2]).is_absolute() else folder / found[2]
    assert path.is_file() and checkpoints(folder) == [path]
    return path


def resumed(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return command.without_confinement(
        subprocess.run(
            [sys.executable, "-m", "shutbox_cli", "tournament", *args, "-q"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
            env=environment(folder / "state"),
        )
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the strategy and the report of an uninterrupted run (`full.toml`), which kept a
    checkpoint while it ran and removed it when it finished."""
    folder = tmp_path_factory.mktemp("played")
    (folder / "slow.py").write_text(SLOW_STRATEGY)
    process = start(folder, *field(folder / "slow.py"), "-j", "1", "-o", "full.toml")
    try:
        wait_for_checkpoint(folder, process)
        _, err = process.communicate(timeout=120)
        err = command.unconfined(err)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    return folder


def test_a_finished_run_leaves_no_checkpoint(played: Path) -> None:
    assert (played / "full.toml").is_file()
    assert checkpoints(played) == []
    assert not list(played.glob(".*.tmp"))


@pytest.mark.parametrize(("workers", "again"), [("1", "2"), ("2", "1")])
@pytest.mark.usefixtures("pooled")
def test_an_interrupted_run_resumes_to_the_uninterrupted_report(
    played: Path, tmp_path: Path, workers: str, again: str
) -> None:
    # At -j 1 the checkpoint is kept beside the report; at -j 2, without one, in the state folder.
    report = ["-o", "part.toml"] if workers == "1" else []
    checkpoint = interrupt(tmp_path, played / "slow.py", "-j", workers, *report)
    assert not (tmp_path / "part.toml").exists()
    if report:
        assert checkpoint == tmp_path / "part.checkpoint.toml"
    else:
        assert checkpoint.parent == tmp_path / "state" / "shutbox" / "checkpoints"
    # How it runs may change on resuming: the workers, the time limit. The report is the one the run
    # was given (the command it printed writes it), else one given now.
    written = "part.toml" if report else "resumed.toml"
    given = [] if report else ["-o", written]
    done = resumed(tmp_path, "--resume", str(checkpoint), "-j", again, "--timeout", "60", *given)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / written).read_bytes() == (played / "full.toml").read_bytes()
    assert checkpoints(tmp_path) == []


@pytest.mark.usefixtures("pooled")
def test_a_failed_run_keeps_its_checkpoint_and_resumes_once_the_cause_is_gone(played: Path, tmp_path: Path) -> None:
    # The strategy waits to be told to fail once this run keeps a checkpoint, however late the test tells it.
    (played / "hold").write_text(str(tmp_path))
    process = start(tmp_path, *field(played / "slow.py"), "-j", "2", "-o", "part.toml")
    try:
        wait_for_checkpoint(tmp_path, process)
        (played / "fail").touch()
        _, err = process.communicate(timeout=120)
        err = command.unconfined(err)
    finally:
        (played / "fail").unlink(missing_ok=True)
        (played / "hold").unlink(missing_ok=True)
        if process.poll() is None:
            process.kill()
    assert process.returncode == 1, err
    lines = err.splitlines()
    assert lines[0].startswith("shutbox: error: ") and "told to fail" in err
    assert lines[-1] == "shutbox: the finished games are kept; resume with: shutbox tournament --resume " + (
        "part.checkpoint.toml"
    )
    done = resumed(tmp_path, "--resume", "part.checkpoint.toml", "-o", "part.toml")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "part.toml").read_bytes() == (played / "full.toml").read_bytes()
    assert checkpoints(tmp_path) == []


@pytest.fixture(scope="module")
def kept(played: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkpoint of an interrupted run, to be copied."""
    return interrupt(tmp_path_factory.mktemp("kept"), played / "slow.py", "-j", "1", "-o", "part.toml")


def copy_of(kept: Path, tmp_path: Path) -> Path:
    path = tmp_path / "part.checkpoint.toml"
    shutil.copy(kept, path)
    return path


def refused(*args: str) -> str:
    """Run the command in this process; it must end with one sentence and status 2. The sentence."""
    done = CliRunner().invoke(app, ["tournament", *args], env={"COLUMNS": "200"})
    assert done.exit_code == 2, (done.stdout, done.stderr, done.exception)
    said = command.unconfined(done.stderr)
    assert said.startswith("shutbox: error: ") and said.count("\n") == 1, said
    assert "Traceback" not in said
    return said


def test_the_library_resumes_with_progress_from_the_games_done_to_the_report_recorded(
    played: Path, kept: Path, tmp_path: Path
) -> None:
    path = copy_of(kept, tmp_path)
    saved = tournaments.read_checkpoint(path)
    assert saved.report == tmp_path / "part.toml"  # the run's report, beside its checkpoint
    told: list[tuple[int, int]] = []
    tournaments.resume(path, progress=lambda done, total: told.append((done, total)))
    assert told[0] == (saved.record.games, 6000) and 0 < saved.record.games < 6000
    assert told[-1] == (6000, 6000)
    assert (tmp_path / "part.toml").read_bytes() == (played / "full.toml").read_bytes()
    assert not path.exists()


def resealed(text: str) -> str:
    """The checkpoint sealed again with the user's key: an edit by someone who can read it."""
    body = text[: text.index("\n[seal]\n")].encode()
    return (body + seal.seal_text(seal.own_key(), body)).decode()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('shutbox_version = "', 'shutbox_version = "0.0.0-', "was written by shutbox 0.0.0-"),
        (
            f"checkpoint = {CHECKPOINT_FORMAT}",
            "checkpoint = 0",
            f"in another checkpoint format (0, this shutbox reads {CHECKPOINT_FORMAT}); resume it with the shutbox "
            "that wrote it, or start the run again.",
        ),
        ('dice = "', 'dice = "other-', "dice scheme 'other-"),
        ("games = 2000", "games = 4000", "has been changed since shutbox wrote it (its seal does not match)"),
        ('name = "greedy-high"', 'name = "greedy"', "has been changed since shutbox wrote it"),
        ("games = 2000", "games = 4000", "its configuration was changed"),
        ('name = "greedy-high"', 'name = "greedy"', "its configuration was changed"),
    ],
    ids=["version", "format", "dice", "games", "name", "games-resealed", "name-resealed"],
)
def test_a_checkpoint_of_another_version_dice_or_config_is_refused(
    kept: Path, tmp_path: Path, old: str, new: str, said: str
) -> None:
    path = copy_of(kept, tmp_path)
    text = path.read_text()
    head, config = text.split("[config]", 1) if "config" in said or "seal" in said else (text, "")
    assert old in head + config
    # A changed config is changed in [config] itself: the record's own `games` may hold the same number.
    changed = head + "[config]" + config.replace(old, new, 1) if config else text.replace(old, new, 1)
    if "configuration" in said:  # by someone who can seal it again: the configuration's digest tells
        changed = resealed(changed)
    path.write_text(changed)
    assert said in refused("--resume", str(path))
    assert path.read_text() == changed  # left as it was


def test_a_checkpoint_whose_strategy_source_changed_is_refused(played: Path, kept: Path, tmp_path: Path) -> None:
    path = copy_of(kept, tmp_path)
    source = played / "slow.py"
    original = source.read_text()
    try:
        source.write_text(original.replace("0.0005", "0.0004"))
        assert "the source of strategy" in refused("--resume", str(path))
    finally:
        source.write_text(original)


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--seed", "6"], "--seed cannot change a resumed run"),
        (["-n", "100"], "--games cannot change a resumed run"),
        (["-s", "random"], "--strategy cannot change a resumed run"),
        (["--tiles", "10"], "--tiles cannot change a resumed run"),
        (["--exact"], "--exact/--simulate cannot change a resumed run"),
        (["CONFIG"], "a CONFIG.toml cannot change a resumed run"),
    ],
    ids=["seed", "games", "strategy", "rule", "exact", "config"],
)
def test_options_that_change_results_are_refused_on_resume(
    played: Path, kept: Path, tmp_path: Path, option: list[str], said: str
) -> None:
    path = copy_of(kept, tmp_path)
    given = [str(played / "full.toml") if item == "CONFIG" else item for item in option]
    assert said in refused("--resume", str(path), *given)
    assert path.read_bytes() == kept.read_bytes()


def _damage(kept: Path, path: Path, how: str) -> None:
    text = kept.read_text()
    if how == "truncated":
        path.write_text(text[: len(text) // 2])
    elif how == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
    elif how == "folder":
        path.mkdir()
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "tally":
        path.write_text(resealed(re.sub(r'"(\d+) ', r'"x\1 ', text, count=1)))
    elif how == "games":
        games = int(re.findall(r"^games = (\d+)", text, flags=re.M)[0])
        path.write_text(resealed(text.replace(f"games = {games}", f"games = {games + 1}", 1)))
    elif how == "units":
        path.write_text(resealed(text.replace("units = [", "units = [\n    [\n        0,\n        99999,\n    ],", 1)))
    elif how == "unsealed":
        path.write_text(text[: text.index("\n[seal]\n")] + "\n")


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("truncated", "is not a shutbox checkpoint"),
        ("binary", "is not a shutbox checkpoint: it is not valid TOML"),
        ("folder", "is not a regular file"),
        ("fifo", "is not a regular file"),
        ("tally", "a tally of matchup"),
        ("games", "do not add up"),
        ("units", "work units [0, 99999]"),
        ("unsealed", "its key 'seal' is missing"),
        ("missing", "no checkpoint"),
    ],
)
def test_a_damaged_checkpoint_is_refused(kept: Path, tmp_path: Path, how: str, said: str) -> None:
    path = tmp_path / "part.checkpoint.toml"
    _damage(kept, path, how)
    assert said in refused("--resume", str(path))


def test_a_report_is_not_a_checkpoint(played: Path) -> None:
    assert "is not a shutbox checkpoint, or a damaged one: its key 'checkpoint' is missing or not an int" in refused(
        "--resume", str(played / "full.toml")
    )
