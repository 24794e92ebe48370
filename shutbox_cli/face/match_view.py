"""How a match of two looks: what was played, the score from the pairs (and from the games one by
one, for the ratio), the win-rate difference, the Elo and normalized Elo with their error bars, the
pairs, the SPRT."""

from __future__ import annotations

import textwrap

from shutbox_cli.face.console import results_console
from shutbox_cli.face.describe import rules_in_short
from tournaments import Match, Summary, Verdict


def verdict(match: Match, first: str) -> str:
    """The SPRT's verdict in words, as the engine testers say it: the hypothesis accepted, the LLR
    against the bound it crossed and the bounds [elo0, elo1], and which the data favour (not that
    the difference is at least elo1: the Elo line gives its interval)."""
    sprt = match.sprt
    assert sprt is not None
    low, high = sprt.bounds
    unit = "nElo" if sprt.normalized else "Elo"
    bounds = ("model=normalized " if sprt.normalized else "") + f"elo0={sprt.elo0:g} elo1={sprt.elo1:g}"
    if match.verdict is Verdict.H1:
        favoured = (
            "being stronger" if sprt.elo0 >= 0 else f"at elo1 ({sprt.elo1:+g} {unit}) over elo0 ({sprt.elo0:+g} {unit})"
        )
        return f"H1 accepted (LLR {match.llr:.2f} >= {high:.2f}, {bounds}): the data favour {first} {favoured}"
    if match.verdict is Verdict.H0:
        favoured = (
            "being weaker" if sprt.elo1 <= 0 else f"at elo0 ({sprt.elo0:+g} {unit}) over elo1 ({sprt.elo1:+g} {unit})"
        )
        return f"H0 accepted (LLR {match.llr:.2f} <= {low:.2f}, {bounds}): the data favour {first} {favoured}"
    return (
        f"undecided (LLR {match.llr:.2f} between {low:.2f} and {high:.2f}, {bounds}): the games ran out before "
        "the test decided"
    )


def _signed(value: float, digits: int = 1) -> str:
    return f"{value:+.{digits}f}"


def sprt_line(match: Match, games: int) -> str:
    """The SPRT's standing as the progress line and the result show it."""
    if match.sprt is None:
        return ""
    low, high = match.sprt.bounds
    unit = " nElo" if match.sprt.normalized else ""
    return (
        f"LLR {match.llr:.2f} ({low:.2f}, {high:.2f}) [{match.sprt.elo0:g}, {match.sprt.elo1:g}]{unit} {games:,} games"
    )


def match_lines(summary: Summary, width: int | None = None, pointer: str | None = None) -> list[str]:
    """The match, a figure a line (plain text), and the `pointer` to an exact command where given,
    each broken between words to fit `width` (by default the results console's: the terminal's or
    COLUMNS; in a pipe, none), its later lines indented."""
    match = summary.match
    assert match is not None
    first, second = summary.config.names
    pairs, estimate = match.pairs, match.estimate
    low, high = pairs.score_interval()
    game_low, game_high = pairs.game_interval()
    difference, (dlow, dhigh) = pairs.difference()
    ratio = (high - low) / (game_high - game_low) if game_high > game_low else 1.0
    nelo, (nelo_low, nelo_high) = match.nelo
    seed = f"seed {summary.seed}" + (f" (drawn; repeat with --seed {summary.seed})" if summary.seed_drawn else "")
    lines = [
        f"Match: {first} vs {second}, {summary.games:,} games in {pairs.pairs:,} pairs (each deal twice, "
        f"the seats swapped); {seed}.",
        f"Rules: {rules_in_short(summary.config.rules)}.",
        f"Score of {first}: {100 * pairs.score:.2f}% (95% CI {100 * low:.2f}–{100 * high:.2f}% from the pairs; "
        f"{100 * game_low:.2f}–{100 * game_high:.2f}% from the games one by one: the pairs' is {ratio:.2f} as wide)",
        f"Win rate difference: {_signed(100 * difference, 2)} points (95% CI {_signed(100 * dlow, 2)} to "
        f"{_signed(100 * dhigh, 2)})",
        f"Elo: {_signed(estimate.elo)} (95% CI {_signed(estimate.interval[0])} to {_signed(estimate.interval[1])}), "
        f"LOS {100 * estimate.superiority:.1f}%",
        f"Normalized Elo: {_signed(nelo)} (95% CI {_signed(nelo_low)} to {_signed(nelo_high)})",
        f"Pairs scoring 0, ½, 1, 1½, 2: {' '.join(f'{count:,}' for count in pairs.counts)}; games won, shared, "
        f"lost: {pairs.wins:,}, {pairs.draws:,}, {pairs.losses:,}",
    ]
    if match.exact is not None and match.exact_elo is not None:
        held = "within" if low <= match.exact <= high else "outside"
        lines.insert(
            3,
            f"Computed exactly: {first} scores {100 * match.exact:.3f}% per game against {second}'s "
            f"{100 * (1 - match.exact):.3f}% (Elo {_signed(match.exact_elo)}), {held} the simulated score's interval",
        )
    if match.sprt is not None:
        sprt = match.sprt
        lines.append(
            f"SPRT (alpha={sprt.alpha:g} beta={sprt.beta:g}) after {summary.games:,} games: {verdict(match, first)}."
        )
    lines += [] if pointer is None else [pointer]
    width = results_console().width if width is None else width
    return [part for line in lines for part in _fitted(line, width)]


def _fitted(line: str, width: int) -> list[str]:
    """A figure's line broken between words to fit `width`, its later lines indented (a word longer
    than that stays whole)."""
    return textwrap.wrap(line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
