"""The history's folder is private to shutbox: a strategy's host, confined, can neither read the
history nor write beside it, even where a folder it may write holds it (docs/history.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.referee import landlock
from tournaments.referee.confinement import WRITABLE_SETTING

from helpers.command import environment

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock and seccomp are Linux's"),
    pytest.mark.skipif(landlock.abi() < landlock.SCOPE_ABI, reason="this kernel's Landlock cannot hold it all"),
]

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


@pytest.mark.slow  # three confined processes
def test_a_host_cannot_read_or_write_the_history_even_in_a_folder_it_may_write(tmp_path: Path) -> None:
    strategy, scratch, kept, other = (tmp_path / name for name in ("strategy", "scratch", "kept", "other"))
    for folder in (strategy, scratch, kept, other):
        folder.mkdir()
    (strategy / "mine.py").write_text(STRATEGY)
    place = kept / "history.sqlite3"
    place.write_text("the runs")
    env = {**environment(SHUTBOX_HISTORY=str(place)), WRITABLE_SETTING: str(tmp_path)}
    tries = {
        f"open({str(place)!r}).read()": "PermissionError",
        f"open({str(kept / 'history.sqlite3-wal')!r}, 'w')": "PermissionError",
        f"open({str(other / 'note')!r}, 'w').write('x')": "done",  # the rest of the folder it may write
    }
    for code, said in tries.items():
        done = subprocess.run(
            [sys.executable, "-c", CHILD, f"{strategy / 'mine.py'}:Mine", str(scratch), code],
            env=env,
            cwd=scratch,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (done.returncode, done.stdout.strip()) == (0, said), (code, done.stderr)
    assert place.read_text() == "the runs"
