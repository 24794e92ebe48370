"""The README is the front door: the commands it shows must do what it says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
    command = "python -m pytest"
    assert f'pip install ".[test,dask]" && {command}' in README
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith(command)
