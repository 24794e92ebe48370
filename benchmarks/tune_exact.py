"""An exact tune, timed (not tested), side by side in one run, two ways:

1. A candidate against a field: what computing only the candidate's games saves
   (`run_exact(config, gauntlet=1)`, as `shutbox tune` does) over the whole round robin (the field's
   games among themselves again for every candidate), in one process. It loads one candidate,
   `below(threshold=13)`, with the field (optimal, max-shut, fewest-tiles, tips, greedy-high), once
   (the tables made then are cached on disk, as for the candidates of a tune after the first), then
   times both ways alternately, best of the repeats, and checks the candidate's figures are the same.
2. A whole tune: the field's turns made once and kept for every candidate (`tune`, `KeptTurns`)
   against the same candidates each computed on its own (`run_exact(config, gauntlet=1)` from
   scratch, as a tune did before), each way in a child process of its own (its processor seconds
   and peak resident memory), after one untimed tune that fills the disk's table cache, for the
   tuning guide's two examples (docs/tournaments.md): `shutbox tune below -p threshold=1..16 -s optimal
   -s target -s tips` and `shutbox tune below -p threshold=4..24:2 -s target -s tips --drop-out 45`. Both ways' figures
   must be the same to the last digit.

Measured side by side in one run (2 shared cores, busy), processor seconds of the child: one round,
16 candidates, 3.1 s each on its own and 1.6 s with the field's turns kept (2.0x less), peak 54 MiB
both ways; drop-out at 45, 11 candidates, 44.6 s and 35.4 s (1.3x less: the rest is the candidate's
own games, walked over both totals), peak 117 and 124 MiB. The commands themselves (`shutbox tune`),
against the commit before, side by side: 3.6 and 1.7 CPU-s (2.2x), 43.3 and 33.0 CPU-s (1.3x), the
same report byte for byte.

Run: python benchmarks/tune_exact.py [--repeats R] [--drop-out L] [--skip-candidate]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from timing import best_seconds

from tournaments import Options, TuneSettings, load_config, parse_parameters, tune
from tournaments.exact.tournament import ExactSummary, run_exact

CANDIDATE = "below(threshold=13)"
FIELD = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")
TUNES: dict[str, tuple[range, tuple[str, ...], dict[str, Any]]] = {
    "one round": (range(1, 17), ("optimal", "target", "tips"), {}),
    "drop-out at 45": (range(4, 25, 2), ("target", "tips"), {"drop_out": 45}),
}
"""The tuning guide's exact tunes of `below`: its thresholds, the field, the rules."""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each way of a candidate (default 3)")
    parser.add_argument("--drop-out", type=int, default=45, help="the drop-out limit of a candidate (default 45)")
    parser.add_argument("--skip-candidate", action="store_true", help="time only the whole tunes")
    parser.add_argument("--way", choices=("kept", "each"), help=argparse.SUPPRESS)  # a child's
    parser.add_argument("--tune", choices=tuple(TUNES), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.way is not None:
        print(json.dumps(_tuned(options.tune, options.way)))
        return
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    if not options.skip_candidate:
        _candidate(options.repeats, options.drop_out)
    for title in TUNES:
        _tune(title)


def _candidate(repeats: int, drop_out: int) -> None:
    """One candidate's games against the whole round robin."""
    print(f"{repeats} repeats, best shown; {CANDIDATE} against {len(FIELD)} rivals")
    for title, rules in (("one round", {}), (f"drop-out at {drop_out}", {"drop_out": drop_out})):
        config = load_config(None, Options(strategies=[CANDIDATE, *FIELD], method="exact", rules=rules))
        whole, own = run_exact(config), run_exact(config, gauntlet=1)
        assert _rate(whole, CANDIDATE) == _rate(own, CANDIDATE)
        whole_seconds = own_seconds = float("inf")
        for _ in range(repeats):  # alternated, so that both meet the same load
            whole_seconds = min(whole_seconds, best_seconds(functools.partial(run_exact, config), 1))
            own_seconds = min(own_seconds, best_seconds(functools.partial(run_exact, config, gauntlet=1), 1))
        print(
            f"{title}: round robin {whole.games} games {whole_seconds:.3f} s, the candidate's {own.games} "
            f"games {own_seconds:.3f} s: {whole_seconds / own_seconds:.1f}x less time; "
            f"win rate {100 * _rate(own, CANDIDATE):.3f}% both ways"
        )


def _tune(title: str) -> None:
    """A whole tune, the field's turns kept, against its candidates each computed on its own."""
    thresholds, field, _ = TUNES[title]
    _child(title, "kept")  # the tables of every strategy and candidate made and cached on disk, untimed
    each, each_seconds, each_peak = _child(title, "each")
    kept, kept_seconds, kept_peak = _child(title, "kept")
    assert kept == each, (kept, each)  # the same figures to the last digit
    best = max(kept, key=lambda threshold: kept[threshold])
    print(
        f"tune {title}, {len(thresholds)} candidates against {', '.join(field)}: each on its own "
        f"{each_seconds:.1f} CPU-s (peak {each_peak} MiB), the field's turns kept {kept_seconds:.1f} CPU-s "
        f"(peak {kept_peak} MiB): {each_seconds / kept_seconds:.1f}x less; best threshold={best} "
        f"{100 * kept[best]:.3f}% both ways"
    )


def _child(title: str, way: str) -> tuple[dict[str, float], float, int]:
    """One way of a tune in a child process: its figures, processor seconds and peak memory (MiB)."""
    command = [sys.executable, __file__, "--tune", title, "--way", way]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0, f"{way} {title} failed"
    seconds = usage.ru_utime + usage.ru_stime
    return json.loads(out), seconds, round(usage.ru_maxrss / 1024)


def _tuned(title: str, way: str) -> dict[str, float]:
    """Every candidate's win rate and the starting value's (key "start"), the field's turns kept
    (`tune`) or each candidate computed on its own (as a tune did before they were kept)."""
    thresholds, field, rules = TUNES[title]
    if way == "kept":
        found = tune(
            TuneSettings(
                "below",
                parse_parameters([f"threshold={thresholds.start}..{thresholds.stop - 1}:{thresholds.step}"]),
                field=field,
                rules=rules,
            )
        )
        assert found.method == "exact" and found.start_objective is not None
        tuned = {str(trial.values["threshold"]): trial.objective for trial in found.trials}
        return {**tuned, "start": found.start_objective}
    figures: dict[str, float] = {}
    for threshold in [*thresholds, None]:
        spec = "below" if threshold is None else f"below(threshold={threshold})"
        config = load_config(None, Options(strategies=[spec, *field], method="exact", rules=rules))
        figures["start" if threshold is None else str(threshold)] = _rate(run_exact(config, gauntlet=1), spec)
    return figures


def _rate(summary: ExactSummary, spec: str) -> float:
    return next(one.win_rate for one in summary.ranking if one.spec == spec)


if __name__ == "__main__":
    main()
