"""`--fail-if` gates on `shutbox tournament` and `shutbox compare`, and `compare` itself, through
the command as its console script runs it: exit statuses, the lines on stderr, significant and
insignificant changes."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest

from shutbox_cli.face.commands.compare import UNPAIRED
from tournaments.ci.gates import GateError, parse_compare_gate, parse_tournament_gate
from tournaments.errors import ConfigError

from helpers import command


def shutbox(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command, in this process (nothing here depends on a process of its own)."""
    return command.shutbox(*args, cwd=cwd)


def tournament_report(folder: Path, name: str, *args: str) -> Path:
    """A report of a quick tournament of built-in strategies, written in `folder`."""
    path = folder / name
    done = shutbox("tournament", *args, "--quiet", "--report", str(path), cwd=folder)
    assert done.returncode == 0, done.stderr
    return path


def test_a_gate_that_does_not_hold_passes(tmp_path: Path) -> None:
    done = shutbox(
        "tournament", "-s", "optimal", "-s", "random", "-n", "400", "--seed", "1", "-q",
        "--fail-if", "optimal.win_rate < 0.5", "--fail-if", "random.rank != 2",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "gate failed" not in done.stderr


def test_a_gate_that_holds_fails_the_run_and_the_report_is_still_written(tmp_path: Path) -> None:
    done = shutbox(
        "tournament", "-s", "optimal", "-s", "random", "-n", "400", "--seed", "1", "-q", "-o", "r.toml",
        "--fail-if", "random.win_rate > 0.1", "--fail-if", "optimal.win_rate < 0.5",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    report = tomllib.loads((tmp_path / "r.toml").read_text())
    rate = next(entry["win_rate"] for entry in report["ranking"] if entry["name"] == "random")
    assert done.stderr.splitlines() == [
        "Report written to r.toml.",
        f"gate failed: random.win_rate > 0.1 (it is {rate:.6g})",
    ]


def test_a_gate_for_every_strategy_names_each_that_fails(tmp_path: Path) -> None:
    done = shutbox(
        "tournament", "-s", "optimal", "-s", "random", "-n", "200", "--seed", "1", "-q", "--fail-if", "*.rank >= 2",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["gate failed: *.rank >= 2 for random (it is 2)"]


@pytest.mark.parametrize(
    ("gate", "says"),
    [
        ("optimal.win < 0.5", "tests 'win'; a gate tests one of rank, games, wins, win_rate"),
        ("optimal.win_rate < half", "compares with 'half', which is not a number"),
        ("win_rate below 0.5", "is not a gate of the form NAME.KEY OP NUMBER"),
        ("mybot.win_rate < 0.5", "names no strategy of this run; its strategies are optimal, random"),
    ],
)
def test_a_bad_gate_is_one_sentence_and_exit_2_before_the_run(tmp_path: Path, gate: str, says: str) -> None:
    done = shutbox("tournament", "-s", "optimal", "-s", "random", "-o", "r.toml", "--fail-if", gate, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"shutbox: error: --fail-if {gate!r} ")
    assert says in done.stderr
    assert not (tmp_path / "r.toml").exists()


@pytest.mark.slow
def test_compare_finds_a_significant_drop_and_its_gate_fails(tmp_path: Path) -> None:
    old = tournament_report(tmp_path, "old.toml", "-s", "optimal", "-s", "random", "-n", "2000", "--seed", "5")
    new = tournament_report(tmp_path, "new.toml", "-s", "optimal", "-s", "tips", "-n", "2000", "--seed", "5")
    done = shutbox("compare", str(old), str(new), "--fail-if", "optimal.win_rate drops", cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    drop = next(line for line in lines if line.startswith("optimal win_rate "))
    assert drop.endswith("significant drop")
    assert "added: tips" in lines and "removed: random" in lines
    note, failed = done.stderr.splitlines()
    assert note.startswith("note: these intervals are unpaired") and "shutbox match NEW OLD" in note
    assert failed.startswith("gate failed: optimal.win_rate drops (it changed by -")
    # The same comparison with a gate that the drop does not meet.
    passed = shutbox("compare", str(old), str(new), "--fail-if", "optimal.win_rate.change < -0.5", cwd=tmp_path)
    assert passed.returncode == 0, passed.stderr


@pytest.mark.slow
def test_compare_of_the_same_config_on_another_seed_finds_nothing_significant(tmp_path: Path) -> None:
    field = ["-s", "optimal", "-s", "tips", "-s", "random", "-n", "1000"]
    old = tournament_report(tmp_path, "old.toml", *field, "--seed", "11")
    new = tournament_report(tmp_path, "new.toml", *field, "--seed", "12")
    done = shutbox(
        "compare", str(old), str(new), "--fail-if", "*.win_rate changes", "--fail-if", "*.mean_score changes",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6  # three strategies, two figures each, in a pipe: plain lines
    assert all(line.endswith(" not significant") for line in lines)


@pytest.mark.slow
def test_compare_reads_json_reports_and_warns_of_other_rules(tmp_path: Path) -> None:
    old = tournament_report(tmp_path, "old.toml", "-s", "optimal", "-s", "tips", "-n", "200", "--seed", "1")
    new = tournament_report(
        tmp_path, "new.toml", "-s", "optimal", "-s", "tips", "-n", "200", "--seed", "1", "--tiles", "10"
    )
    as_json = tmp_path / "new.json"
    as_json.write_text(json.dumps(tomllib.loads(new.read_text())))
    done = shutbox("compare", str(old), str(as_json), cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "warning: the reports differ in their rules; their figures are compared all the same.",
        UNPAIRED,
    ]
    assert [line.split()[:2] for line in done.stdout.splitlines()] == [
        ["optimal", "win_rate"], ["optimal", "mean_score"], ["tips", "win_rate"], ["tips", "mean_score"],
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "no report 'missing.toml'."),
        ("seed = [", "report 'bad.toml' is not valid TOML: "),
        ('seed = 1\n[[strategy]]\nspec = "optimal"\n', "is not a tournament report"),
    ],
)
def test_compare_refuses_what_is_not_a_report_in_one_sentence(tmp_path: Path, content: str | None, says: str) -> None:
    name = "missing.toml" if content is None else "bad.toml"
    if content is not None:
        (tmp_path / name).write_text(content)
    done = shutbox("compare", name, name, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert says in done.stderr


def test_compare_gates_are_read_by_their_grammar() -> None:
    assert parse_compare_gate("my.bot.win_rate drops").name == "my.bot"
    gate = parse_compare_gate("cautious(margin=2).mean_score.new >= 12.5")
    assert (gate.name, gate.key, gate.figure, gate.op, gate.number) == (
        "cautious(margin=2)",
        "mean_score",
        "new",
        ">=",
        12.5,
    )
    assert parse_tournament_gate("a<b.rank<=2").name == "a<b"
    for bad in ("mybot.win_rate.after < 1", "mybot.shut_rate drops", "mybot.win_rate falls", ".win_rate drops"):
        with pytest.raises(GateError):
            parse_compare_gate(bad)
    assert issubclass(GateError, ConfigError)
