"""Golden reports: a fixed set of configs and commands (tests/golden/commands.txt) must write the
same reports, byte for byte, as they did when the files in tests/golden/expected/ were made. They
hold restructuring and speed work to "no change in what shutbox finds"."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import GOLDEN

EXPECTED = GOLDEN / "expected"


def _commands() -> list[list[str]]:
    lines = (GOLDEN / "commands.txt").read_text().splitlines()
    return [shlex.split(line) for line in lines if line.strip() and not line.startswith("#")]


def _report_name(arguments: list[str]) -> str:
    return arguments[arguments.index("-o") + 1]


def _write(arguments: list[str], folder: Path) -> Path:
    """Run one golden command in `folder` (a copy of the golden inputs) and return its report."""
    shutil.copytree(GOLDEN, folder, ignore=shutil.ignore_patterns("expected", "__pycache__"), dirs_exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "COLUMNS": "100", "NO_COLOR": "1", "SHUTBOX_POOL": "idle"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return folder / _report_name(arguments)


@pytest.mark.slow
@pytest.mark.parametrize("arguments", _commands(), ids=_report_name)
def test_a_golden_command_writes_the_report_it_always_wrote(arguments: list[str], tmp_path: Path) -> None:
    written = _write(arguments, tmp_path)
    assert written.read_bytes() == (EXPECTED / written.name).read_bytes()


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    import tempfile

    EXPECTED.mkdir(exist_ok=True)
    for command in _commands():
        with tempfile.TemporaryDirectory() as scratch:
            shutil.copyfile(_write(command, Path(scratch)), EXPECTED / _report_name(command))
            print("wrote", EXPECTED / _report_name(command))
