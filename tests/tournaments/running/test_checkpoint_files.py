"""A checkpoint's files, in this process: the report a run was given is written by its resume; the
checkpoint stays until the report is written; a checkpoint changed by hand (or impossible) is refused
before anything is played; a run never takes over another's checkpoint, and a resume notices a
changed helper module; a report path that is a symbolic link is written through.

Runs here are interrupted by a `KeyboardInterrupt` from their progress callback after a number of
work units (not at a time), with a checkpoint written after every unit.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest

import tournaments
from tournaments import keys
from tournaments.backends.base import InProcess
from tournaments.field.sources import module_digests
from tournaments.playing.tally import Tally
from tournaments.running import seal
from tournaments.running.audit import matchup_fault
from tournaments.running.checkpoint import checkpoint_path

from helpers import command

FIELD = ("greedy-high", "tips", "random")
GAMES = 200
"""Games per matchup: one work unit each, played turn by turn (the general engine)."""


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's state folder (which holds the checkpoint key), one per test."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def config(*field: str) -> tournaments.TournamentConfig:
    return tournaments.load_config(None, tournaments.Options(strategies=field or FIELD, games=GAMES, seed=5))


def interrupted(checkpoint: Path, report: Path | None, *field: str, units: int = 1) -> Path:
    """Run the tournament in this process and stop it (Ctrl-C) once `units` work units are done: the
    checkpoint it leaves."""
    told: list[int] = []

    def progress(done: int, total: int) -> None:
        told.append(done)
        if len(told) > units:  # told once before the first unit, then after each
            raise KeyboardInterrupt

    with pytest.raises(tournaments.Interrupted) as stop:
        tournaments.run(
            config(*field),
            backend=InProcess(),
            bulk=False,
            checkpoint=checkpoint,
            checkpoint_seconds=0,
            report=report,
            progress=progress,
        )
    assert stop.value.checkpoint == checkpoint and checkpoint.is_file()
    return checkpoint


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The reports of the uninterrupted run, as TOML and as JSON."""
    folder = tmp_path_factory.mktemp("full")
    summary = tournaments.run(config(), backend=InProcess(), bulk=False)
    for name in ("full.toml", "full.json"):
        tournaments.write_report(folder / name, summary)
    return {suffix: (folder / f"full.{suffix}").read_bytes() for suffix in ("toml", "json")}


def shutbox(*args: str) -> tuple[int, str, str]:
    """The tournament command in this process: its exit status, stdout and stderr."""
    done = command.shutbox("tournament", *args, columns=200)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stdout, done.stderr


def refused(*args: str) -> str:
    """The command must end with one sentence and status 2: the sentence."""
    status, _, err = shutbox(*args)
    assert status == 2, err
    assert err.startswith("shutbox: error: ") and err.count("\n") == 1, err
    return err


# 1. The printed resume command writes the report the run was given.


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["toml", "json"])
def test_the_printed_resume_command_writes_the_report_the_run_was_given(
    tmp_path: Path, full: dict[str, bytes], suffix: str
) -> None:
    report = tmp_path / f"rep.{suffix}"
    checkpoint = interrupted(checkpoint_path(report), report)
    status, _out, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q")  # from another folder
    assert status == 0, err
    assert report.read_bytes() == full[suffix]
    assert not checkpoint.exists() and str(report) in err  # the note, on stderr


@pytest.mark.slow
def test_a_resume_given_another_report_writes_that_one_instead(tmp_path: Path, full: dict[str, bytes]) -> None:
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q", "-o", str(tmp_path / "other.toml"))
    assert status == 0, err
    assert (tmp_path / "other.toml").read_bytes() == full["toml"] and not (tmp_path / "rep.toml").exists()


@pytest.mark.slow
def test_a_resume_of_a_run_without_a_report_says_so_before_it_plays(tmp_path: Path) -> None:
    checkpoint = interrupted(tmp_path / "run.checkpoint.toml", None)
    status, out, err = shutbox("--resume", str(checkpoint), "-j", "1")
    assert status == 0, err
    assert err.startswith("shutbox: note: this run was started without --report, so its results are only shown")
    assert "Ranking" in out or "greedy-high" in out
    assert sorted(path.name for path in tmp_path.iterdir()) == ["state"]


@pytest.mark.slow
def test_a_resume_whose_report_cannot_be_written_is_refused_before_it_plays(tmp_path: Path) -> None:
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    kept = checkpoint.read_bytes()
    assert "cannot write" in refused("--resume", str(checkpoint), "-j", "1", "-o", str(tmp_path / "out" / "rep.toml"))
    assert checkpoint.read_bytes() == kept


@pytest.mark.slow
def test_a_resume_never_writes_a_report_path_read_from_the_checkpoint_alone(
    tmp_path: Path, full: dict[str, bytes]
) -> None:
    """Written only where the user says: beside the checkpoint the user names, as its name gives it,
    or at the path the user gives (the one the checkpoint records, to confirm it)."""
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    honest = checkpoint.read_text()
    (tmp_path / "out").mkdir()
    elsewhere = tmp_path / "out" / "stolen.toml"
    forged = resealed(honest.replace('report = "rep.toml"', f"report = {json.dumps(str(elsewhere))}", 1))
    assert forged != honest
    checkpoint.write_text(forged)
    sentence = refused("--resume", str(checkpoint), "-j", "1", "-q")
    assert f"its report to {str(elsewhere)!r}, not beside the checkpoint" in sentence
    assert f"resume with --report {elsewhere} (or another)" in sentence
    with pytest.raises(tournaments.ConfigError, match="not beside the checkpoint"):
        tournaments.resume(checkpoint)
    moved = tmp_path / "moved.checkpoint.toml"  # an honest checkpoint away from its report
    moved.write_text(honest)
    assert f"its report to {str(tmp_path / 'rep.toml')!r}, not beside" in refused("--resume", str(moved), "-q")
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "moved.checkpoint.toml",
        "out",
        "rep.checkpoint.toml",
        "state",
    ]
    assert list((tmp_path / "out").iterdir()) == [] and checkpoint.read_text() == forged
    status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q", "-o", str(elsewhere))  # confirmed
    assert status == 0, err
    assert elsewhere.read_bytes() == full["toml"] and not (tmp_path / "rep.toml").exists()


# 19. The checkpoint stays until the report is written.


def failing_rename(target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaming a file over `target` fails as on a full disk; other renames go through."""
    rename = os.replace

    def replace(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
        if os.path.realpath(destination) == os.path.realpath(target):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        rename(source, destination)

    monkeypatch.setattr(os, "replace", replace)


@pytest.mark.slow
def test_a_resume_whose_report_fails_to_write_keeps_the_checkpoint(
    tmp_path: Path, full: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "rep.toml"
    checkpoint = interrupted(checkpoint_path(report), report)
    with monkeypatch.context() as patch:
        failing_rename(report, patch)
        status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q")
    assert status == 2
    assert err.startswith(f"shutbox: error: cannot write {str(report)!r}: {os.strerror(errno.ENOSPC)}.\n")
    assert err.endswith(f"the finished games are kept; resume with: shutbox tournament --resume {checkpoint}\n")
    assert checkpoint.is_file() and not report.exists()
    status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q")
    assert status == 0, err
    assert report.read_bytes() == full["toml"] and not checkpoint.exists()


@pytest.mark.slow
def test_a_resume_given_another_report_and_stopped_again_says_how_to_write_that_one(
    tmp_path: Path, full: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its checkpoint now records the other report, not the one beside it: the printed command names it."""
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    other = tmp_path / "other.toml"
    with monkeypatch.context() as patch:
        failing_rename(other, patch)
        status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q", "-o", str(other))
    assert status == 2
    assert err.endswith(f"resume with: shutbox tournament --resume {checkpoint} --report {other}\n")
    status, _, err = shutbox("--resume", str(checkpoint), "-j", "1", "-q", "--report", str(other))
    assert status == 0, err
    assert other.read_bytes() == full["toml"] and not (tmp_path / "rep.toml").exists()


@pytest.mark.slow
def test_a_run_whose_report_fails_to_write_keeps_its_finished_work(
    tmp_path: Path, full: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "rep.toml"
    checkpoint = checkpoint_path(report)
    with monkeypatch.context() as patch, pytest.raises(tournaments.FileWriteError) as failed:
        failing_rename(report, patch)
        tournaments.run(
            config(), backend=InProcess(), bulk=False, checkpoint=checkpoint, checkpoint_seconds=0, report=report
        )
    assert failed.value.checkpoint == checkpoint
    saved = tournaments.read_checkpoint(checkpoint)
    assert saved.record.games == saved.plan.total_games and saved.plan.unit_count == 0
    tournaments.resume(checkpoint)
    assert report.read_bytes() == full["toml"] and not checkpoint.exists()


# 20. A checkpoint changed by hand, or holding what no play gives, is refused before anything is played.


def tallies_of(text: str, matchup: int) -> list[list[int]]:
    found = re.search(rf'^{matchup} = \[\n    "([\d ]+)",\n    "([\d ]+)",\n\]', text, flags=re.M)
    assert found, text
    return [list(map(int, found[player].split())) for player in (1, 2)]


def with_tallies(text: str, matchup: int, counts: list[list[int]]) -> str:
    lines = ",\n".join(f'    "{" ".join(map(str, numbers))}"' for numbers in counts)
    return re.sub(rf"^{matchup} = \[\n[^\]]*\]", f"{matchup} = [\n{lines},\n]", text, count=1, flags=re.M)


def resealed(text: str) -> str:
    """The checkpoint sealed again with the user's key: an edit by someone who can read it."""
    body = text[: text.index("\n[seal]\n")].encode()
    return (body + seal.seal_text(seal.own_key(), body)).decode()


WIN_SHARES = 1
"""Where a tally's win shares are among its counts (after `games`)."""


def swapped_wins(counts: list[list[int]]) -> list[list[int]]:
    one, other = counts
    return [[*one[:WIN_SHARES], other[WIN_SHARES], *one[2:]], [*other[:WIN_SHARES], one[WIN_SHARES], *other[2:]]]


def changed(counts: list[list[int]], player: int, index: int, value: int) -> list[list[int]]:
    edited = [list(numbers) for numbers in counts]
    edited[player][index] = value
    return edited


SQUARES = 4
"""Where a tally's sum of squared scores is among its counts."""
EDITS = {
    "swapped wins": swapped_wins,
    "more wins than games": lambda counts: changed(counts, 0, WIN_SHARES, 2 * 2 * counts[0][0]),
    "squares too small": lambda counts: changed(counts, 0, SQUARES, 1),
    "huge counts": lambda counts: changed(changed(counts, 0, SQUARES, 10**70), 0, 3, 10**69),
}


@pytest.mark.slow
@pytest.mark.parametrize("edit", EDITS)
def test_an_edited_tally_is_refused_by_the_seal_and_the_checkpoint_kept(tmp_path: Path, edit: str) -> None:
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    text = checkpoint.read_text()
    edited = with_tallies(text, 0, EDITS[edit](tallies_of(text, 0)))
    assert edited != text
    checkpoint.write_text(edited)
    assert "has been changed since shutbox wrote it (its seal does not match)" in refused("--resume", str(checkpoint))
    assert checkpoint.read_text() == edited and not (tmp_path / "rep.toml").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ("swapped wins", "player 1's wins are not the games it finished ahead"),
        ("more wins than games", "player 1: it won more games than it played"),
        ("squares too small", "player 1: its squared scores are out of range"),
        ("huge counts", "player 1: its scores cannot come from its turns"),
    ],
)
def test_a_resealed_tally_that_play_cannot_give_is_refused_before_anything_is_played(
    tmp_path: Path, edit: str, said: str
) -> None:
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    text = checkpoint.read_text()
    checkpoint.write_text(resealed(with_tallies(text, 0, EDITS[edit](tallies_of(text, 0)))))
    sentence = refused("--resume", str(checkpoint))
    assert f"the tallies of matchup 0 cannot come from its games ({said}" in sentence
    assert checkpoint.is_file() and not (tmp_path / "rep.toml").exists()


@pytest.mark.slow
def test_a_forged_checkpoint_resealed_with_a_key_a_strategy_could_read_is_refused(tmp_path: Path, state: Path) -> None:
    """The user's state folder holds the checkpoints of runs without a report, and was where an older
    shutbox kept its key: a strategy's host could read it there. A key found there seals nothing."""
    readable = state / "shutbox" / seal.KEY_FILE
    readable.parent.mkdir(parents=True)
    readable.write_text("a1" * 32 + "\n")
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml", units=2)
    text = checkpoint.read_text()
    # Tallies that play can give, of the wrong matchups: greedy-high's against tips and against random swapped.
    forged = with_tallies(with_tallies(text, 0, tallies_of(text, 1)), 1, tallies_of(text, 0)).encode()
    assert forged != text.encode()
    body = forged[: forged.index(b"\n[seal]\n")]
    checkpoint.write_bytes(body + seal.seal_text(bytes.fromhex(readable.read_text()), body))
    sentence = refused("--resume", str(checkpoint), "-j", "1", "-q")
    assert "is sealed with another user's key, or another machine's, or one an older shutbox kept" in sentence
    assert checkpoint.is_file() and not (tmp_path / "rep.toml").exists()
    assert seal.key_path().parent == keys.key_folder() != readable.parent


@pytest.mark.slow
def test_a_checkpoint_sealed_with_another_key_is_refused(tmp_path: Path, state: Path) -> None:
    checkpoint = interrupted(tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml")
    seal.key_path().write_text("ab" * 32 + "\n")
    assert "is sealed with another user's key, or another machine's" in refused("--resume", str(checkpoint))
    seal.key_path().unlink()
    assert "is sealed with another user's key, or another machine's" in refused("--resume", str(checkpoint))
    assert checkpoint.is_file()


def test_the_key_is_made_once_readable_by_its_owner_only(state: Path) -> None:
    assert seal.user_key() is None
    key = seal.own_key()
    assert seal.own_key() == key and seal.user_key() == key and len(key) == 32
    assert seal.key_path().stat().st_mode & 0o777 == 0o600
    assert seal.key_path().parent.stat().st_mode & 0o777 == 0o700
    assert [path.name for path in seal.key_path().parent.iterdir()] == [seal.KEY_FILE]


def test_the_audit_names_what_play_cannot_give() -> None:
    rules = config().rules
    # Two games at a table of two, one deal: player 1 won one outright, the other was shared (its
    # pair scored 3 halves of a win, player 2's 1).
    one = Tally(2, 3, 2, 10, 60, 0, 2, 10, [0, 1], [0, 1], [0, 0, 0, 1, 0])
    other = Tally(2, 1, 2, 14, 100, 0, 2, 14, [0, 0], [1, 0], [0, 1, 0, 0, 0])
    assert matchup_fault([one, other], 2, rules) is None
    for pairs in ([0, 0, 1, 0, 0], [0, 0, 0, 2, 0]):
        unpaired = Tally(2, 3, 2, 10, 60, 0, 2, 10, [0, 1], [0, 1], pairs)
        assert matchup_fault([unpaired, other], 2, rules) == "its game pairs do not add up to its games and wins"
    for tally, said in (
        (Tally(2, 3, 2, 10, 60, 3, 2, 10, [0, 1], [0, 1], one.pairs), "it shut the box more often than it had turns"),
        (Tally(2, 3, 3, 10, 60, 0, 2, 10, [0, 1], [0, 1], one.pairs), "it had more turns than its games hold"),
        (Tally(2, 3, 2, 10, 60, 0, 2, 9, [0, 1], [0, 1], one.pairs), "its totals are not the sum of its scores"),
        (Tally(2, 3, 2, 10, 600, 0, 2, 10, [0, 1], [0, 1], one.pairs), "its squared scores are out of range"),
    ):
        assert matchup_fault([tally, other], 2, rules) == f"player 1: {said}"
    assert matchup_fault([one, Tally(2, 1, 2, 14, 100, 0, 2, 14, [0, 0], [0, 0], other.pairs)], 2, rules) == (
        "players 1 and 2 do not finish in one order in each game"
    )


# 21. A run never takes over another's checkpoint; a resume notices a changed helper module.


@pytest.mark.slow
def test_a_run_does_not_start_over_the_checkpoint_of_a_stopped_run_with_the_same_report(tmp_path: Path) -> None:
    report = tmp_path / "rep.toml"
    checkpoint = interrupted(checkpoint_path(report), report)
    kept = checkpoint.read_bytes()
    sentence = refused("-s", "greedy-high", "-s", "tips", "-n", "20", "--seed", "1", "-o", str(report))
    assert f"checkpoint {str(checkpoint)!r} is already there" in sentence
    assert f"shutbox tournament --resume {checkpoint}" in sentence
    assert checkpoint.read_bytes() == kept and not report.exists()


def test_a_run_leaves_alone_a_file_another_run_put_at_its_checkpoint_path(tmp_path: Path) -> None:
    from tournaments.playing.plan import make_plan
    from tournaments.running.checkpoint import Record
    from tournaments.running.checkpoint_keeper import Keeper

    plan = make_plan(config())
    path = tmp_path / "rep.checkpoint.toml"
    keeper = Keeper(path, plan, Record.empty(plan), seed_drawn=False, seconds=0)
    keeper.tick()
    assert keeper.written and path.is_file()
    path.unlink()
    path.write_text("another run's\n")
    keeper.tick()
    assert keeper.keep() is None
    keeper.discard()
    assert path.read_text() == "another run's\n"


HELPER_STRATEGY = """
from helper import pick
from strategies import Strategy


class Bot(Strategy):
    reads_context = True

    def choose_move(self, view):
        return pick(view.legal_moves)
"""


@pytest.mark.slow
def test_a_resume_refuses_a_changed_module_the_strategy_imports_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(HELPER_STRATEGY)
    (tmp_path / "helper.py").write_text("def pick(moves):\n    return moves[-1]\n")
    checkpoint = interrupted(
        tmp_path / "rep.checkpoint.toml", tmp_path / "rep.toml", f"Bot={tmp_path / 'bot.py'}:Bot", "tips"
    )
    (tmp_path / "helper.py").write_text("def pick(moves):\n    return moves[0]\n")
    sentence = refused("--resume", str(checkpoint))
    assert "module 'helper.py' of strategy 'Bot' (in its folder) has changed since the run began" in sentence
    assert checkpoint.is_file()


def test_the_modules_of_a_strategy_are_those_it_imports_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from .tools import x\n")
    (tmp_path / "pkg" / "tools.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "unused.py").write_text("")
    (tmp_path / "helper.py").write_text("import json\n")
    (tmp_path / "other.py").write_text("")
    (tmp_path / "bot.py").write_text("import math\nimport helper\n\ndef late():\n    from pkg import tools\n")
    assert sorted(module_digests(tmp_path / "bot.py")) == [
        "bot.py",
        "helper.py",
        "pkg/__init__.py",
        "pkg/tools.py",
    ]


# 22. A report path that is a symbolic link is written through; a link at the checkpoint path is not.


@pytest.mark.slow
def test_a_report_through_a_symbolic_link_is_written_to_the_file_it_names(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "first.toml").write_text("old\n")
    (tmp_path / "latest.toml").symlink_to(tmp_path / "runs" / "first.toml")
    (tmp_path / "new.toml").symlink_to(tmp_path / "runs" / "second.toml")  # to nothing yet
    run = ("-s", "greedy-high", "-s", "tips", "-n", "20", "--seed", "1", "-q", "-o")
    for name in ("latest.toml", "new.toml", "plain.toml"):
        status, _, err = shutbox(*run, str(tmp_path / name))
        assert status == 0, err
    assert (tmp_path / "latest.toml").is_symlink() and (tmp_path / "new.toml").is_symlink()
    plain = (tmp_path / "plain.toml").read_bytes()
    assert (tmp_path / "runs" / "first.toml").read_bytes() == plain == (tmp_path / "runs" / "second.toml").read_bytes()
    assert sorted(path.name for path in (tmp_path / "runs").iterdir()) == ["first.toml", "second.toml"]


def test_a_symbolic_link_at_the_checkpoint_path_is_not_written_through(tmp_path: Path) -> None:
    (tmp_path / "rep.checkpoint.toml").symlink_to(tmp_path / "elsewhere.toml")
    sentence = refused("-s", "greedy-high", "-s", "tips", "-n", "20", "--seed", "1", "-o", str(tmp_path / "rep.toml"))
    assert "is already there" in sentence
    assert not (tmp_path / "elsewhere.toml").exists() and not (tmp_path / "rep.toml").exists()
