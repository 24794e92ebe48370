"""The run's closing list of tests not marked slow that took half a second or more: in CI's log
(`--unmarked-slow=report`, which .ci/run asks by SHUTBOX_UNMARKED_SLOW=report), not in the output
of the README's test command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.command import environment
from helpers.paths import ROOT

# A test that took long, recorded as the hook records one: no test here waits on the clock.
TOOK_LONG = """
import sys


def test_recorded_as_one_that_took_long():
    sys.modules["conftest"]._unmarked["test_other.py::test_long"] = (0.9, 0.6)
"""
SECTION = "tests not marked slow that took 0.5 s or more"


def pytest_run(folder: Path, *options: str) -> str:
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly", *options],
        cwd=folder,
        capture_output=True,
        text=True,
        env={key: value for key, value in environment().items() if key != "SHUTBOX_UNMARKED_SLOW"},
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout


@pytest.mark.slow
def test_the_list_is_in_ci_s_log_alone(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_took_long.py").write_text(TOOK_LONG)
    assert SECTION not in pytest_run(tmp_path)
    reported = pytest_run(tmp_path, "--unmarked-slow=report")
    assert SECTION in reported and "0.90s   0.60s  test_other.py::test_long" in reported
    ci = (ROOT / ".ci" / "run").read_text()
    assert "SHUTBOX_UNMARKED_SLOW=report " in ci and "--unmarked-slow" not in ci  # not in PYTEST_ADDOPTS: see conftest
