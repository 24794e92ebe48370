"""The guides in docs/ show commands and code: each must do what its guide says."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main

from shutbox_cli.face.cli import app

from helpers.pages import block, blocks, page
from helpers.paths import EXAMPLES, ROOT

SHUTBOX = str(Path(sys.executable).parent / "shutbox")
GUIDES = ("playing", "tournaments", "strategies", "exact", "library", "commands", "development")


def shown(guide: str) -> list[str]:
    """The command lines of a guide's shell blocks, without their comments."""
    return [line.split("  #")[0].rstrip() for body in blocks(page(guide), "sh") for line in body.splitlines()]


COSTLY = (
    "shutbox analyze target --against optimal --drop-out 45",
    "shutbox analyze target --against optimal --rounds 3",
)
"""Exact duels of target that take 10 to 20 s of processor time each: not run here."""

RUN = [
    ("tournaments", "shutbox tournament -s optimal -s tips -s examples/cautious.py:Cautious --games 5000 --seed 42"),
    (
        "tournaments",
        "shutbox tournament examples/tournament.toml -j 2 --report results.toml",
        "shutbox tournament results.toml",
    ),
    (
        "tournaments",
        "shutbox rules --tiles 12 --format toml > rules.toml && shutbox tournament rules.toml -s optimal -s tips",
    ),
    ("tournaments", "shutbox tournament -s optimal -s tips --seed 7 --format json | jq '.ranking[0].win_rate'"),
    (
        "tournaments",
        "shutbox tournament -s optimal -s tips -s greedy-high --seed 7 --report run.toml --plot run.png",
        "shutbox plot run.toml -o run.svg",
    ),
    ("tournaments", "shutbox analyze optimal --against greedy-high --plot duel.pdf"),
    ("tournaments", "shutbox tune below -p threshold=1..16 -s optimal --plot landscape.png"),
    ("tournaments", "shutbox tune below -p threshold=1..16 -s optimal -s target -s tips"),
    ("tournaments", "shutbox diff tips greedy-high"),
    ("tournaments", "shutbox explain greedy-high --plot loss.png"),
    ("tournaments", "shutbox explain random --games 20000 --seed 1"),
    ("tournaments", "shutbox analyze tips --against greedy-high"),
    ("tournaments", "shutbox tournament -s tips -s greedy-high -s optimal --exact"),
    ("tournaments", "shutbox match tips greedy-high -n 10000 --seed 1"),
    ("strategies", "shutbox check high_first.py:HighFirst"),
    *(("exact", line) for line in shown("exact") if line not in COSTLY),
]
"""The guides' commands that run here as written, each group in order in one folder. Not run: play
at a keyboard, replay and match of files the guide does not make, the halving tune (minutes) and
its resume, the COSTLY duels, the steps after `shutbox new strategy` (tests/face/commands/test_new.py runs them),
the completion lines (tests/face/ runs the completion scripts), the benchmarks."""


def test_every_shutbox_command_a_guide_shows_is_one_shutbox_takes() -> None:
    """Each command line parses: its command, its options and their values (no command runs)."""
    group = typer.main.get_command(app)
    lines = [line for guide in GUIDES for line in shown(guide)]
    parsed = 0
    for line in lines:
        for part in re.split(r"&&|\|", line):
            words = shlex.split(re.sub(r">\s*\S+", "", part))  # without its redirection
            if "shutbox" not in words:
                continue
            command: Any = group
            arguments = words[words.index("shutbox") + 1 :]
            while hasattr(command, "commands"):  # a group: its subcommand
                command, arguments = command.commands[arguments[0]], arguments[1:]
            command.make_context("shutbox", arguments)
            parsed += 1
    assert parsed >= 35


def test_every_benchmark_a_guide_names_is_there() -> None:
    named = [line.split()[1] for line in shown("development") if line.startswith("python benchmarks/")]
    assert len(named) > 10 and all((ROOT / path).is_file() for path in named)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUN, ids=lambda run: run[1][:60])
def test_a_command_of_a_guide_runs_as_written(run: tuple[str, ...], tmp_path: Path) -> None:
    guide, *lines = run
    if any("| jq" in line for line in lines) and shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "high_first.py").write_text(block("strategies", "python", "class HighFirst(Strategy)"))
    path = f"{Path(SHUTBOX).parent}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PATH": path, "NO_COLOR": "1", "SHUTBOX_DATA_DIR": str(tmp_path)}
    for line in lines:
        assert line in shown(guide)
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {line}"],
            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-1000:]
        for written in re.findall(r"(?:--report|-o|--plot|>) (\S+)", line):
            assert (tmp_path / written).stat().st_size > 0, written


@pytest.mark.slow
def test_the_piped_game_in_the_playing_guide_plays_to_the_end(tmp_path: Path) -> None:
    (line,) = block("playing", "sh", "| shutbox play").splitlines()
    answers, arguments = re.fullmatch(r"printf '([^']*)' \| shutbox play (.*)", line).groups()  # type: ignore[union-attr]
    env = {**os.environ, "NO_COLOR": "1", "SHUTBOX_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [SHUTBOX, "play", *arguments.split()],
        input=answers.encode().decode("unicode_escape"),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout[-500:]
    assert "\nResult: " in done.stdout and done.stdout.endswith("Goodbye.\n")


@pytest.mark.slow
def test_the_strategy_example_plays_otherwise_than_greedy_high(tmp_path: Path) -> None:
    from strategies import Rules
    from tournaments import analyze, seat_strategy

    (tmp_path / "high_first.py").write_text(block("strategies", "python", "class HighFirst(Strategy)"))
    with seat_strategy(f"{tmp_path / 'high_first.py'}:HighFirst", Rules()) as seated:
        example = analyze(seated)
    greedy = analyze(seat_strategy("greedy-high", Rules()))
    guide = page("strategies")
    said = re.search(r"`shutbox analyze high_first.py:HighFirst`: its expected score is\s+([\d.]+), where", guide)
    assert said is not None and f"{example.expected_score:.3f}" == said[1]
    assert f"{greedy.expected_score:.3f}" in guide
    assert abs(example.expected_score - greedy.expected_score) > 0.1


@pytest.mark.slow
def test_the_analyse_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    exec(block("library", "python", "analyze("), {})
    assert re.fullmatch(r"tips on 12 tiles: expected score \d+\.\d{4}, shuts \d+\.\d\d%\n", capsys.readouterr().out)


def test_the_library_example_is_the_example_script() -> None:
    script = (EXAMPLES / "tournament_from_python.py").read_text()
    assert script.endswith(block("library", "python", "load_config(None"))


@pytest.mark.slow
def test_the_contract_recipe_passes_under_pytest(tmp_path: Path) -> None:
    """As the guide says to run it, with pytest installed as it says (shutbox does not bring it)."""
    guide = page("strategies")
    contract = block("strategies", "python", "StrategyContract")
    recipe = guide[: guide.index(contract)][-400:]  # the paragraph before it
    assert "pip install pytest" in recipe and "python -m pytest test_high_first.py" in recipe
    (tmp_path / "high_first.py").write_text(block("strategies", "python", "class HighFirst(Strategy)"))
    (tmp_path / "test_high_first.py").write_text(contract)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_high_first.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert re.search(r"\b[1-9]\d* passed\b", done.stdout)
