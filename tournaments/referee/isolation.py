"""--isolate, the referee's side: each user's strategy runs in a host process of its own
(`host.py`), and the referee (a worker, or this process) holds a `Host` for it and a
`RemotePlayer` per seat that asks the host each question by a round trip over a socket.

The referee never imports a user's code, and believes nothing a host says without checking:
replies are JSON, or a batch's answers as plain numbers (`wire.ANSWERS`; never pickles, which
could run code here), bounded in size, and every answer is checked against the question (a legal
move, an allowed number of dice, a table of the right shape whose every entry the rules allow:
`remote.py`, `replies.py`). A host that dies, stays silent past the unit's time limit or answers
garbage is its strategy's failure, named; it is then stopped. Each host runs under a supervisor
(`supervisor.py`) that limits its memory, and ends it and everything it started when it is
stopped, when it ends, and when the referee dies.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from shutbox_cli.game import Rules
from strategies.keys import checked_key
from strategies.loading import StrategyLoadError, split_spec
from strategies.names import declared

from ..errors import setting
from . import confinement, seccomp, supervisor
from .remote import RemotePlayer
from .replies import RemoteFailure
from .wire import NewPlayer, Request, Setup

PACKAGES = str(Path(__file__).resolve().parents[2])  # tournaments/referee/ -> the folder of our packages
"""The folder holding our packages, first on a host's path whatever the current folder holds (`-P`)."""
HOST_CODE = (
    "import os, sys; os.environ.update(OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1', MKL_NUM_THREADS='1'); "
    "sys.path.insert(0, sys.argv[1]); from tournaments.referee.host import main; main()"
)
"""A host's program, run by its supervisor (`supervisor.py`): its arguments are PACKAGES and its
socket's file descriptor. numpy starts no thread of its own: a host confines itself while it has
one thread (Landlock and capabilities hold the thread that sets them, and what it starts)."""
MAX_REPLY = 1 << 26
"""The longest reply a host may send, in bytes (a 12-tile table is under 1 MiB of JSON, a bulk
unit's turns of one seat and round a few MiB)."""
MAX_NAME = 200
"""The longest name a strategy may play under."""
MAX_DESCRIPTION = 2000
"""The longest description a strategy may give of itself."""
MAX_ORIGIN = 4096
"""The longest origin a host may say its strategy has ("file PATH")."""
SHA256 = re.compile(r"[0-9a-f]{64}")
STOPPED_SECONDS = 2.0
"""How long a host may take to end once killed, or to say why it ended."""


class HostLost(StrategyLoadError):
    """A host that died, stayed silent or answered garbage while its strategy loaded: the
    strategy's failure (where a `StrategyLoadError` of its own is a bad spec)."""


class Host:
    """A user's strategy loaded in a process of its own, ready for questions.

    `launch` starts the process and has it load the strategy; `ready` waits for it and says
    what the strategy is (its `name`, whether it is `exact` and `context_free`, its `origin` and
    the `sha256` of its class's file), or raises a `StrategyLoadError` of one sentence. Every
    reply must come by `deadline` (time.monotonic()), when set; `limit` says what the time limit
    is per, in its message. `ask` is a round trip, `exchange` one whose reply is read elsewhere
    (`remote.py`); a reply that is not what it must be is garbage, and `refuse` stops the host.
    """

    limit = "the limit per work unit"
    description = ""

    def __init__(self, spec: str, rules: Rules, memory_limit_mib: int = 0, strict: bool = False) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec
        self.exact = False
        self.context_free = False
        self.key: tuple[str, ...] | None = None
        self.origin = ""
        self.sha256: str | None = None
        self.deadline: float | None = None
        self.timeout = 0.0
        self.memory_limit_mib = memory_limit_mib
        self._numbers = itertools.count()
        self.confinement = confinement.state()
        confinement.demanded(self.confinement, spec, strict)
        seccomp.undumpable()  # no process of the user's may attach to this referee
        self.scratch = confinement.scratch()
        mine, theirs = socket.socketpair()
        # Unbuffered (-u): what the strategy prints reaches stderr even though its host is killed.
        command = [sys.executable, "-P", "-u", "-c", HOST_CODE, PACKAGES, str(theirs.fileno())]
        try:
            self.process = supervisor.start(command, memory_limit_mib, (theirs.fileno(),))
        except OSError as error:
            mine.close()
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise StrategyLoadError(
                f"cannot start a process for strategy {spec!r}: {error.strerror or error}."
            ) from None
        finally:
            theirs.close()
        self.connection = Connection(mine.detach())
        self._finalizer = weakref.finalize(self, _stop, self.process, self.connection, self.scratch)

    @classmethod
    def launch(
        cls,
        spec: str,
        params: Mapping[str, Any],
        name: str | None,
        rules: Rules,
        *,
        timeout: float,
        memory_limit_mib: int,
        strict: bool = False,
    ) -> Host:
        """Start a host and have it load the strategy (see `ready`): hosts launched one after
        another load side by side. `strict`: refuse unless the host's confinement is full, as the
        run demanded where it began (`confinement.demanded`)."""
        host = cls(spec, rules, memory_limit_mib, strict)
        host.timeout = timeout
        host.deadline = time.monotonic() + timeout
        setup = Setup(spec, dict(params), name, rules, list(sys.path), declared(), host.scratch)
        try:
            host.connection.send(setup)
        except OSError:
            host.stop()
            raise StrategyLoadError(f"the process of strategy {spec!r} {host._ended()} as it started.") from None
        return host

    def ready(self) -> Host:
        """The host once its strategy has loaded: a `StrategyLoadError` if it cannot load."""
        try:
            reply = self.receive(f"while loading strategy {self.spec!r}")
            if "error" in reply:
                raise StrategyLoadError(self.message(reply["error"]))
            self.name = _name(reply.get("name"), self.spec)
            self.exact = _flag(reply.get("exact"), self)
            self.context_free = _flag(reply.get("context_free"), self)
            self.key = _features(reply.get("key"), self)
            self.description = _description(reply.get("description", ""), self)
            self.origin = _origin(reply.get("origin", ""), self)
            self.sha256 = _sha256(reply.get("sha256"), self)
            confinement.hosting(self.confinement)
        except RemoteFailure as failure:
            self.stop()
            raise HostLost(str(failure)) from None
        except StrategyLoadError:
            self.stop()
            raise
        self.deadline = None
        return self

    def stop(self) -> None:
        """End the host and every process its strategy started."""
        self._finalizer()

    def player(self) -> RemotePlayer:
        """A new player: a fresh instance of the strategy in the host."""
        number = next(self._numbers)
        self.ask(NewPlayer(number))
        return RemotePlayer(self, number)

    def ask(self, request: Request, when: str = "") -> dict[str, Any]:
        """One round trip, the reply a JSON object; the host's own failure (the strategy's) is a
        `RemoteFailure`. `when`: what the referee was asking, for the messages."""
        return self.answered(self.parsed(self.exchange(request, when)))

    def exchange(self, request: Request | Setup, when: str) -> bytes:
        """One round trip, the reply as it came (JSON, or `wire.ANSWERS` and its answers)."""
        try:
            self.connection.send(request)
        except OSError:
            raise RemoteFailure(f"the process of strategy {self.name!r} {self._ended()}.") from None
        return self._receive_bytes(when)

    def receive(self, when: str) -> dict[str, Any]:
        """The host's next reply, read as the JSON object it must be (not yet asked if it is a failure)."""
        return self.parsed(self._receive_bytes(when))

    def _receive_bytes(self, when: str) -> bytes:
        when = f" {when}" if when else ""
        try:
            remaining = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
            if not self.connection.poll(remaining):
                self.stop()
                raise RemoteFailure(
                    f"strategy {self.name!r} did not answer{when} within {self.timeout:g} seconds "
                    f"({self.limit}); its process was stopped (raise the limit with {setting('timeout')})."
                )
            return self.connection.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            raise RemoteFailure(f"the process of strategy {self.name!r} {self._ended()}{when}.") from None

    def parsed(self, data: bytes) -> dict[str, Any]:
        """A reply read as the JSON object it must be."""
        try:
            reply = json.loads(data)
        except (ValueError, RecursionError):
            reply = None
        if not isinstance(reply, dict):
            self.refuse("a reply that is not a JSON object")
        return reply

    def answered(self, reply: dict[str, Any]) -> dict[str, Any]:
        """The reply, unless it is the strategy's failure (a `RemoteFailure`)."""
        if "error" in reply:
            raise RemoteFailure(self.message(reply["error"]))
        return reply

    def message(self, value: object) -> str:
        """A message the host sent (its strategy's failure): a string that says something."""
        if not isinstance(value, str) or not value:
            self.refuse("an error that is not a message")
        return str(value)

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=STOPPED_SECONDS)
        except subprocess.TimeoutExpired:
            self.stop()
            return "stopped answering (its reply was cut short or too long)"
        finally:
            self.stop()
        if code < 0:
            return f"was killed by signal {-code} ({_signal_name(-code)})"
        if code == supervisor.OVER_MEMORY and self.memory_limit_mib:
            return (
                f"and those it started were stopped: together they used more than its memory limit "
                f"of {self.memory_limit_mib} MiB (raise it with {setting('memory_limit')})"
            )
        return f"ended with status {code}"

    def refuse(self, what: str) -> NoReturn:
        """Stop the host for what it sent (`what`, in a few words: garbage) and raise its strategy's failure."""
        self.stop()
        raise RemoteFailure(f"the process of strategy {self.name!r} answered garbage ({what}); it was stopped.")


def _stop(process: subprocess.Popen[bytes], connection: Connection, scratch: str) -> None:
    """Close the host's socket and have its supervisor kill the host and whatever its strategy
    started, at once: it holds nothing worth waiting for (not even its `atexit` functions); then
    remove its scratch folder."""
    connection.close()
    supervisor.stop(process, STOPPED_SECONDS)
    shutil.rmtree(scratch, ignore_errors=True)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


def _name(value: object, spec: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise StrategyLoadError(
            f"strategy {spec!r} has a name that is not a non-empty string of at most {MAX_NAME} characters."
        )
    return value


def _description(value: object, host: Host) -> str:
    if not isinstance(value, str) or len(value) > MAX_DESCRIPTION or not value.isprintable():
        host.refuse("a description that is not a short line of printable text")
    return value


def _origin(value: object, host: Host) -> str:
    if not isinstance(value, str) or len(value) > MAX_ORIGIN:
        host.refuse(f"an origin that is not a string of at most {MAX_ORIGIN} characters")
    return value


def _sha256(value: object, host: Host) -> str | None:
    if value is not None and not (isinstance(value, str) and SHA256.fullmatch(value)):
        host.refuse("a sha256 that is not 64 lowercase hex digits")
    return value


def _flag(value: object, host: Host) -> bool:
    if not isinstance(value, bool):
        host.refuse("a declaration that is not true or false")
    return bool(value)


def _features(value: object, host: Host) -> tuple[str, ...] | None:
    """A key as a host says it: None, or known feature names (never on an exact or context-free strategy)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(type(feature) is str for feature in value):
        host.refuse("a key that is not a list of feature names")
    try:
        features = checked_key(tuple(value), host.name)
    except ValueError:
        host.refuse(f"a key of unknown features {value!r}")
    if host.exact or host.context_free:
        host.refuse("a key on a strategy it calls exact or context-free")
    return features


class Probed(NamedTuple):
    """What a probe finds: the strategy's spec, its parameters, its name, whether it is exact and
    whether it is context-free, where it comes from and the sha256 of its class's file (None: none)."""

    spec: str
    params: dict[str, Any]
    name: str
    exact: bool
    context_free: bool
    origin: str = ""
    sha256: str | None = None
    key: tuple[str, ...] | None = None


def probe(
    spec: str,
    params: Mapping[str, Any],
    name: str | None,
    rules: Rules,
    *,
    timeout: float,
    memory_limit_mib: int,
    kept: Callable[[Host, Probed], None] | None = None,
) -> Callable[[], Probed]:
    """Start finding what a user's strategy is by loading it in a host; the result is the call
    that waits for the answer (a `StrategyLoadError` of one sentence if it cannot load), so that
    several probes run side by side. The host is then stopped, or handed to `kept`."""
    spec_params = split_spec(spec)[1]
    host = Host.launch(spec, params, name, rules, timeout=timeout, memory_limit_mib=memory_limit_mib)
    return lambda: _probed(host.ready(), spec.strip(), {**spec_params, **params}, kept)


def _probed(host: Host, spec: str, params: dict[str, Any], kept: Callable[[Host, Probed], None] | None) -> Probed:
    found = Probed(spec, params, host.name, host.exact, host.context_free, host.origin, host.sha256, host.key)
    if kept is None:
        host.stop()
    else:
        kept(host, found)
    return found
