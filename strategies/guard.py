"""Telling what a strategy raised from what stopped it: every exception that comes out of a
strategy's code is its failure, to be reported, except the runner's time limit (`TimeUp`) and
a real Ctrl-C, which stop the run."""

from __future__ import annotations

import dis
import signal

from .limits import TimeUp

_RAISE = dis.opmap["RAISE_VARARGS"]


def raised_by_strategy(error: BaseException) -> bool:
    """Whether `error`, come out of a strategy's code, is the strategy's own failure.

    A KeyboardInterrupt is the strategy's where this process ignores Ctrl-C (a worker: the main
    process decides what Ctrl-C stops), or where a `raise` statement raised it: a real Ctrl-C
    lands wherever the program happens to be, never on a `raise`. Anything else is a real Ctrl-C
    and stops the run, as does TimeUp."""
    if isinstance(error, TimeUp):
        return False
    if isinstance(error, KeyboardInterrupt):
        return signal.getsignal(signal.SIGINT) is signal.SIG_IGN or _raise_statement(error)
    return True


def _raise_statement(error: BaseException) -> bool:
    """Whether the innermost frame of the error's traceback stopped on a `raise` statement."""
    last = error.__traceback__
    if last is None:
        return False
    while last.tb_next is not None:
        last = last.tb_next
    code = last.tb_frame.f_code.co_code
    return 0 <= last.tb_lasti < len(code) and code[last.tb_lasti] == _RAISE
