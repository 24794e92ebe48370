"""A match's `--quiet` line: its answer in one line, as a tournament's (`tournament_view.quiet_line`)
and a tune's (`tune_view.quiet_line`) say theirs."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments import Summary


def match_line(summary: Summary) -> str:
    """NEW's score from the pairs, the Elo and the nElo, each with its 95% interval, the seed, the
    games and the SPRT's verdict."""
    from tournaments import Verdict

    match = summary.match
    assert match is not None
    first, second = summary.config.names
    pairs, estimate = match.pairs, match.estimate
    low, high = pairs.score_interval()
    elo_low, elo_high = estimate.interval
    nelo, (nelo_low, nelo_high) = match.nelo
    line = (
        f"{first} vs {second}: score {100 * pairs.score:.2f}% (95% CI {100 * low:.2f}–{100 * high:.2f}%), "
        f"Elo {estimate.elo:+.1f} (95% CI {elo_low:+.1f} to {elo_high:+.1f}), "
        f"nElo {nelo:+.1f} (95% CI {nelo_low:+.1f} to {nelo_high:+.1f})"
    )
    line += f"; seed {summary.seed}; {summary.games:,} games"
    if match.sprt is not None:
        line += f": {'undecided' if match.verdict is Verdict.UNDECIDED else match.verdict.value + ' accepted'}"
    return line
