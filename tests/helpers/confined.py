"""A child process confined as a strategy's host, asked to run a line of code: what it says
("done", or the name of the OSError it met), for the tests of what a host may reach."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from tournaments.referee import landlock

LINUX_ONLY = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock and seccomp are Linux's"),
    pytest.mark.skipif(landlock.abi() < landlock.SCOPE_ABI, reason="this kernel's Landlock cannot hold it all"),
]
"""The marks of a test module that needs the whole confinement."""

CHILD = """
import os, sys
from tournaments.referee.confinement import confine_host
confine_host(sys.argv[1], sys.path, sys.argv[2])
try:
    exec(sys.argv[3])
    print("done")
except OSError as error:
    print(type(error).__name__)
"""
STRATEGY = (
    "from strategies import Strategy\n\nclass Mine(Strategy):\n    def choose_move(self, view):\n        return 1\n"
)
"""A user's strategy file's text: `mine.py:Mine`."""


def run_confined(
    spec: str, scratch: Path, code: str, env: Mapping[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """A child confined as the host of `spec` (writing only `scratch`), having run `code`."""
    return subprocess.run(
        [sys.executable, "-c", CHILD, spec, str(scratch), code],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
