"""The README is the front door: the commands it shows must do what it says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT

README = (ROOT / "README.md").read_text()
SHUTBOX = str(Path(sys.executable).parent / "shutbox")


@pytest.mark.slow
def test_the_piped_game_in_the_readme_plays_to_the_end(tmp_path: Path) -> None:
    line = next(line for line in README.splitlines() if line.startswith("printf ") and "shutbox play" in line)
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


def test_ci_runs_the_readme_test_command() -> None:
    command = "python -m pytest -n auto --dist loadfile"
    extras = ".[test,dask,fast,plot,tune]"
    assert f'pip install "{extras}" && {command}' in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'install --quiet "{extras}"' in ci and ci.rstrip().endswith(command)


def python_block(containing: str) -> str:
    """The README's one ```python block that holds `containing`."""
    blocks = [block for block in re.findall(r"```python\n(.*?)```", README, re.DOTALL) if containing in block]
    assert len(blocks) == 1, f"{len(blocks)} python blocks hold {containing!r}"
    return blocks[0]


@pytest.mark.slow
def test_the_strategy_example_plays_otherwise_than_greedy_high(tmp_path: Path) -> None:
    from strategies import Rules
    from tournaments import analyze, seat_strategy

    (tmp_path / "high_first.py").write_text(python_block("class HighFirst(Strategy)"))
    with seat_strategy(f"{tmp_path / 'high_first.py'}:HighFirst", Rules()) as seated:
        example = analyze(seated)
    greedy = analyze(seat_strategy("greedy-high", Rules()))
    said = re.search(r"`shutbox analyze high_first.py:HighFirst`: its expected score is\s+([\d.]+), where", README)
    assert said is not None and f"{example.expected_score:.3f}" == said[1]
    assert f"{greedy.expected_score:.3f}" in README
    assert abs(example.expected_score - greedy.expected_score) > 0.1


@pytest.mark.slow
def test_the_analyse_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    exec(python_block("analyze("), {})
    assert re.fullmatch(r"tips on 12 tiles: expected score \d+\.\d{4}, shuts \d+\.\d\d%\n", capsys.readouterr().out)


def test_the_library_example_is_the_example_script() -> None:
    script = (ROOT / "examples" / "tournament_from_python.py").read_text()
    assert script.endswith(python_block("load_config(None"))


@pytest.mark.slow
def test_the_contract_recipe_passes_under_pytest(tmp_path: Path) -> None:
    """As the README says to run it, with pytest installed as it says (shutbox does not bring it)."""
    recipe = README[: README.index(python_block("StrategyContract"))][-400:]  # the paragraph before it
    assert "pip install pytest" in recipe and "python -m pytest test_high_first.py" in recipe
    (tmp_path / "high_first.py").write_text(python_block("class HighFirst(Strategy)"))
    (tmp_path / "test_high_first.py").write_text(python_block("StrategyContract"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_high_first.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert re.search(r"\b[1-9]\d* passed\b", done.stdout)
