"""A real command whose stderr is a terminal (a pseudo-terminal) and stdout a pipe."""

from __future__ import annotations

import os
import pty
import select
import subprocess

from .command import SHUTBOX, environment

ENV = environment(columns=None)


def on_a_terminal(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run shutbox with stderr a terminal (a pseudo-terminal) and stdout a pipe (`env` laid over its
    environment): status, stdout, and everything written to the terminal. This end holds the
    terminal open until all is read."""
    leader, follower = pty.openpty()
    shown = b""
    env = {**ENV, "TERM": "xterm", "NO_COLOR": "1", **(env or {})}
    with subprocess.Popen([SHUTBOX, *args], stdout=subprocess.PIPE, stderr=follower, env=env) as run:
        while run.poll() is None or select.select([leader], [], [], 0)[0]:
            if select.select([leader], [], [], 0.05)[0]:
                shown += os.read(leader, 65536)
        out = run.stdout.read() if run.stdout else b""
    os.close(follower)
    os.close(leader)
    return run.returncode, out.decode(), shown.decode(errors="replace")
