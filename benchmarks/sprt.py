"""The SPRT's error rates, measured by simulation (not tested): `optimal` against `fewest-tiles`,
whose true score is known exactly from the exact engine (their duel, averaged over both seats),
so its true logistic Elo is known too. Each match is played to its verdict on seeds 1..N, under two
tests placed around the truth:

- at H0: elo0 = the true Elo, elo1 = elo0 + WIDTH; accepting H1 is an error, at most alpha;
- at H1: elo1 = the true Elo, elo0 = elo1 - WIDTH; accepting H0 is an error, at most beta.

It prints each rate with its binomial standard error, the matches left undecided at the budget, and
the mean games to a verdict.

Run: python benchmarks/sprt.py [--matches N] [--width ELO] [--alpha A] [--beta B] [--budget GAMES]
"""

from __future__ import annotations

import argparse
import math
import statistics

from shutbox_cli.game import Rules
from tournaments import InProcess, Options, Sprt, Verdict, duel_exactly, play_match, seat_strategy
from tournaments.statistics.elo import elo

NEW, OLD = "optimal", "fewest-tiles"


def true_elo() -> float:
    """The exact logistic Elo of NEW against OLD: from its exact chance of winning (a shared win half)."""
    duel = duel_exactly(seat_strategy(NEW, Rules()), seat_strategy(OLD, Rules()))
    return elo(float(duel.seats[-1].wins))


def trial(test: Sprt, matches: int, budget: int) -> tuple[dict[Verdict, int], list[int]]:
    """Verdicts and games of `matches` matches under one test, seeds 1..matches."""
    verdicts = dict.fromkeys(Verdict, 0)
    games = []
    for seed in range(1, matches + 1):
        summary = play_match(Options(strategies=[NEW, OLD], games=budget, seed=seed), test, backend=InProcess())
        assert summary.match is not None
        verdicts[summary.match.verdict] += 1
        games.append(summary.games)
    return verdicts, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--width", type=float, default=5.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--budget", type=int, default=2_000_000)
    args = parser.parse_args()
    truth = true_elo()
    print(f"{NEW} against {OLD}: true Elo {truth:.3f} (exact); {args.matches} matches a test")
    tests = {
        "at H0": (Sprt(truth, truth + args.width, args.alpha, args.beta), Verdict.H1, args.alpha),
        "at H1": (Sprt(truth - args.width, truth, args.alpha, args.beta), Verdict.H0, args.beta),
    }
    for where, (test, wrong, bound) in tests.items():
        verdicts, games = trial(test, args.matches, args.budget)
        rate = verdicts[wrong] / args.matches
        error = math.sqrt(max(rate * (1 - rate), 1e-12) / args.matches)
        print(
            f"{where}: [{test.elo0:.2f}, {test.elo1:.2f}] accepted {wrong.value} in {verdicts[wrong]} of {args.matches}"
            f" = {rate:.3f} ± {error:.3f} (bound {bound}); undecided {verdicts[Verdict.UNDECIDED]}; games mean "
            f"{statistics.mean(games):,.0f}, median {statistics.median(games):,.0f}, max {max(games):,}"
        )


if __name__ == "__main__":
    main()
