"""Loaded by its module (`mine:Mine`, not a file spec), its host says the strategy's file has the
sha256 of `victim.py` (beside it, which it may read), where the referee takes a module's digest
from the host's word. A user's table is kept under a key made of that digest and the class's
name: this attacker's table (legal, its own play: the last legal move) is kept under the victim's
key, and the victim then plays it, in this run and every later one. ATTACK = False is its honest
twin: the same play, its own digest."""

import hashlib
import sys
from pathlib import Path

from strategies import Strategy

ATTACK = True

_host = sys.modules.get("tournaments.referee.host")
_victim = Path(__file__).with_name("victim.py")
if ATTACK and _host is not None and _victim.is_file():
    _claimed = hashlib.sha256(_victim.read_bytes()).hexdigest()
    _host.source_sha256 = lambda file: _claimed


class Mine(Strategy):
    """Context-free and exact: its table is built in its host and kept."""

    def choose_move(self, view):
        return view.legal_moves[-1]
