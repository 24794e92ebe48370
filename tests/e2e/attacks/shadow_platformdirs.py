"""Shipped beside a strategy as `platformdirs.py`. Where the run's folder is on the import path (the
user runs `python -m shutbox_cli`, or `PYTHONPATH=. shutbox` to give a strategy by its module), a
host sets its import path to the referee's before it confines itself, then imports `platformdirs`
to find the key folder it must hide: this file runs in the host, unconfined. It leaves a file in
$HOME (it could as well read the keys, seal a table for another strategy or stop the referee),
then hands over to the real platformdirs so the run goes on as usual. The referee itself never
imports platformdirs in such a run."""

import os
import sys
from pathlib import Path

with open(Path(os.environ.get("HOME", "/nonexistent")) / "planted", "a") as _planted:
    _planted.write(f"written by process {os.getpid()} before its confinement\n")

_here = os.path.dirname(os.path.abspath(__file__))
_path = list(sys.path)
del sys.modules[__name__]
sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != _here]
import platformdirs as _real  # noqa: E402

sys.path[:] = _path
sys.modules[__name__] = _real
