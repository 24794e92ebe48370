"""The guides in docs/ show commands and code: each must do what its guide says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.pages import block, page

SHUTBOX = str(Path(sys.executable).parent / "shutbox")


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
    from helpers.paths import EXAMPLES

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
