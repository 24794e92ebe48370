"""`shutbox check` of a user's strategy, run in its host (`CheckAsked`): the host answers the
contract's questions and sends its progress, then the results as plain data, which the referee
checks and makes a `CheckReport` of again. A host that dies, exits (even with status 0) or stays
silent past the time limit is a `RemoteFailure`, never a report in which every check holds."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from shutbox_cli.game.terms import Seed
from strategies.check import CHECKS, CheckReport, CheckResult
from strategies.questions import sample_questions

from .isolation import Host, RemoteFailure, _text
from .wire import CheckAsked

MAX_DETAIL = 20_000
"""The longest detail a check's result may have, in characters."""


def remote_check(
    host: Host, seed: Seed, samples: int, progress: Callable[[int, int], None] | None = None
) -> CheckReport:
    """Check the host's strategy against the contract under `samples` rule sets from `seed`; each
    message from the host (progress or the results) must come within the host's time limit."""
    if samples < 1:
        raise ValueError(f"a check needs at least 1 sample, not {samples}.")
    questions, rule_sets = sample_questions(seed, samples)
    reply = host._exchange(CheckAsked(seed, samples), "during its check")
    told: tuple[int, int | None] = (0, None)
    while "checking" in reply:
        done, total = told = _progress(reply["checking"], told, host)
        if progress is not None:
            progress(done, total)
        host.deadline = time.monotonic() + host.timeout
        reply = host._receive("during its check")
    if "error" in reply:
        raise RemoteFailure(_text(reply["error"], host))
    return CheckReport(host.name, seed, rule_sets, len(questions), _results(reply, host))


def _progress(value: object, told: tuple[int, int | None], host: Host) -> tuple[int, int]:
    """A check's progress, if it moves on from what the host last `told` towards the same total
    (so that a host cannot keep a check going for ever by saying it is under way)."""
    if not (isinstance(value, list) and len(value) == 2 and all(type(number) is int for number in value)):
        host._garbage("a check's progress that is not two whole numbers")
    done, total = value
    if not told[0] < done <= total or told[1] not in (None, total):
        host._garbage("a check's progress that does not move on towards its total")
    return done, total


def _results(reply: Mapping[str, Any], host: Host) -> tuple[CheckResult, ...]:
    """The host's results, if they are the checks in order, each passed or failed with a detail."""
    results = reply.get("checked")
    if not isinstance(results, list) or len(results) != len(CHECKS):
        host._garbage("a check's results that are not one per check")
    found = []
    for name, result in zip(CHECKS, results, strict=True):
        if not (isinstance(result, list) and len(result) == 3 and result[0] == name):
            host._garbage(f"a result that is not the check {name!r}'s")
        ok, detail = result[1], result[2]
        if type(ok) is not bool or not isinstance(detail, str) or not detail or len(detail) > MAX_DETAIL:
            host._garbage(f"the check {name!r} with a verdict or a detail that is not one")
        found.append(CheckResult(name, ok, detail))
    return tuple(found)
