"""An exact tune's candidate against a field, timed (not tested): what computing only the candidate's
games saves (`run_exact(config, gauntlet=1)`, as `shutbox tune` does) over the whole round robin
(the field's games among themselves again for every candidate), side by side in one process.

For each format it loads one candidate, `below(threshold=13)`, with the field (optimal, max-shut,
fewest-tiles, tips, greedy-high), once (the tables made then are cached on disk, as for the
candidates of a tune after the first), then times both ways alternately, best of the repeats, and
checks the candidate's figures are the same.

Run: python benchmarks/tune_exact.py [--repeats R] [--drop-out L]
"""

from __future__ import annotations

import argparse
import functools
import platform
from collections.abc import Sequence

from timing import best_seconds

from tournaments import Options, load_config
from tournaments.exact.tournament import run_exact

CANDIDATE = "below(threshold=13)"
FIELD = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each way (default 3)")
    parser.add_argument("--drop-out", type=int, default=45, help="the drop-out limit (default 45)")
    options = parser.parse_args(argv)
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}); "
        f"{options.repeats} repeats, best shown; {CANDIDATE} against {len(FIELD)} rivals"
    )
    for title, rules in (("one round", {}), (f"drop-out at {options.drop_out}", {"drop_out": options.drop_out})):
        config = load_config(None, Options(strategies=[CANDIDATE, *FIELD], method="exact", rules=rules))
        whole, own = run_exact(config), run_exact(config, gauntlet=1)
        assert _rate(whole) == _rate(own), (_rate(whole), _rate(own))
        whole_seconds = own_seconds = float("inf")
        for _ in range(options.repeats):  # alternated, so that both meet the same load
            whole_seconds = min(whole_seconds, best_seconds(functools.partial(run_exact, config), 1))
            own_seconds = min(own_seconds, best_seconds(functools.partial(run_exact, config, gauntlet=1), 1))
        print(
            f"{title}: round robin {whole.games} games {whole_seconds:.3f} s, the candidate's {own.games} "
            f"games {own_seconds:.3f} s: {whole_seconds / own_seconds:.1f}x less time; "
            f"win rate {100 * _rate(own):.3f}% both ways"
        )


def _rate(summary: object) -> float:
    from tournaments.exact.tournament import ExactSummary

    assert isinstance(summary, ExactSummary)
    return next(one.win_rate for one in summary.ranking if one.spec == CANDIDATE)


if __name__ == "__main__":
    main()
