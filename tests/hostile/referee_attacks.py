"""Strategies that attack the referee's processes (tests/test_referee.py): each plays a legal
move, after doing its harm once per process at its first decision. Each marks the file named
by $REFEREE_STARTED with its process id when it starts playing, so a test knows when (and
where) to send a signal. All read the game context, so they are asked turn by turn."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from strategies import Strategy


class Attack(Strategy):
    """Plays the first legal move; `harm` runs once per process, at the first decision."""

    reads_context = True
    done = False

    def choose_move(self, view):
        if not Attack.done:
            Attack.done = True
            started = os.environ.get("REFEREE_STARTED")
            if started:
                Path(started).write_text(str(os.getpid()))
            self.harm()
        return view.legal_moves[0]

    def harm(self):
        """Nothing: a strategy that only takes its time."""
        time.sleep(0.002)


class Slow(Attack):
    """Takes its time at every decision, so a run lasts long enough to be interrupted."""

    def choose_move(self, view):
        time.sleep(0.002)
        return super().choose_move(view)


class Forks(Attack):
    """A child of the worker sleeps for five minutes, holding the worker's pipes."""

    def harm(self):
        if os.fork() == 0:
            time.sleep(300)
            os._exit(0)


class ShellJob(Attack):
    """Starts a job that sleeps for five minutes and returns at once; the job holds the worker's
    pipes. (Python, not a shell's `sleep 300 &`: a confined host may execute only Python's files.)"""

    def harm(self):
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], close_fds=False)


class Thread(Attack):
    """A thread that is not a daemon sleeps for five minutes."""

    def harm(self):
        threading.Thread(target=time.sleep, args=(300,)).start()


class CatchesAll(Attack):
    """Never answers, and swallows every exception the runner may raise to stop it."""

    def harm(self):
        while True:
            try:  # noqa: SIM105 - a bare except is the attack
                time.sleep(0.01)
            except BaseException:
                pass


class OwnAlarm(Attack):
    """Never answers, and keeps its own alarm, whose signal it ignores."""

    def harm(self):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            try:  # noqa: SIM105 - a bare except is the attack
                time.sleep(0.01)
            except BaseException:
                pass


class LoopsInC(Attack):
    """Never answers: a sum inside C, where no Python signal handler runs."""

    def harm(self):
        sum(range(10**12))


class Hoards(Attack):
    """Takes memory without bound."""

    def harm(self):
        hoard = []
        while True:
            hoard.append(bytearray(1 << 24))


class ExitsZero(Attack):
    """Ends its process with status 0 as if all went well."""

    def harm(self):
        sys.stdout.flush()
        os._exit(0)


class SysExitZero(Attack):
    """Calls sys.exit(0) while playing."""

    def harm(self):
        sys.exit(0)


class SlowForks(Slow, Forks):
    """Takes its time, after leaving a child of the worker asleep."""
