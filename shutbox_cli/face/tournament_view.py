"""How a tournament looks in a terminal: the header, the ranking, the head-to-head table and
the one-line summary of `--quiet` (its progress bar: `progress`).
Any finished tournament is shown through `TournamentResults`; an exact one (`exact`) shows
chances with more digits, no intervals, and a table by seat."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from shutbox_cli.face.describe import rules_in_short
from shutbox_cli.face.literal import literal
from shutbox_cli.game import Ties
from strategies.runner import printable
from tournaments import HeadToHead, Standing, Summary, TournamentResults

Results = TournamentResults
EXACT_DIGITS = 3
"""Decimals of an exact win rate in percent (a simulated one shows 1: its interval is wider)."""
MATRIX_DIGITS = 2
"""Decimals of an exact head-to-head win rate: one fewer, so the matrix fits more strategies."""
SURE = 0.95
"""The likelihood of superiority from which a strategy is said to be stronger than the next."""


def _percent(rate: float, digits: int = 1) -> str:
    return f"{100 * rate:.{digits}f}%"


def _digits(summary: Results) -> int:
    return EXACT_DIGITS if summary.exact else 1


def _interval(low: float, high: float, percent: bool) -> str:
    if percent:
        return f"{100 * low:.1f}–{100 * high:.1f}%"
    return f"{low:.2f}–{high:.2f}"


def _plural(count: int, word: str, words: str | None = None) -> str:
    """`1 game`, `2 games`; `words` where the plural is not the word and an s."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def _count(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def _table() -> Table:
    """A table without side borders or cell padding on the left: narrow enough for 80 columns."""
    return Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))


def _fits(console: Console, table: Table) -> bool:
    """Whether a table fits the console's width without wrapping any cell."""
    return console.measure(table, options=console.options.update_width(10_000)).maximum <= console.width


def header(summary: Results) -> list[str]:
    """What was played (or computed): field, format, size and seed (or arithmetic)."""
    config = summary.config
    field = _plural(len(config.strategies), "strategy", "strategies")
    seats = "solo tables" if config.table == 1 else f"{config.table} players per table"
    matchups = _plural(summary.matchups, "matchup")
    if summary.exact:
        arithmetic = "fractions" if summary.arithmetic == "fraction" else "floats"
        played = (
            f"Exact tournament: {field}, {seats}; {matchups} × {_plural(summary.games_per_matchup, 'seating')} = "
            f"{_plural(summary.games, 'seating')}, every game of each computed exactly, in {arithmetic}."
        )
    else:
        deals = ", duplicate deals" if config.duplicate and config.table > 1 else ""
        seed = f"seed {summary.seed}" + (f" (drawn; repeat with --seed {summary.seed})" if summary.seed_drawn else "")
        gauntlet = f", a gauntlet of the first {config.gauntlet} against the rest" if config.gauntlet else ""
        forfeited: int = getattr(summary, "forfeited", 0)  # games a failing strategy forfeited: not played
        lost = f" ({forfeited:,} forfeited, not played)" if forfeited else ""
        played = (
            f"Tournament: {field}{gauntlet}, {seats}{deals}; {matchups} × {summary.games_per_matchup:,} games = "
            f"{summary.games + forfeited:,} games{lost}; {seed}."
        )
    return [played, f"Rules: {rules_in_short(config.rules)}."]


def ranking_table(summary: Results, wins: bool = True, exact: bool = True) -> Table:
    """The standings, best first. Columns that say nothing for this format are left out,
    and the wins column too when asked (the win rate says the same) or exact (expected wins
    over a few seatings say nothing more); exact figures have no intervals. The exact win rates
    computed beside a simulated run are a column unless `exact` is False."""
    rules = summary.config.rules
    intervals = not summary.exact
    wins = wins and intervals
    digits = _digits(summary)
    exactly = _exact_rates(summary) if exact else {}
    table = _table()
    table.add_column("#", justify="right")
    table.add_column("strategy", overflow="fold", min_width=12)
    if not summary.solo:
        table.add_column("win rate", justify="right")
        if intervals:
            table.add_column("95% CI", justify="right", no_wrap=True)
        if exactly:
            table.add_column("exact", justify="right")
        if wins:
            table.add_column("wins", justify="right")
    table.add_column("score", justify="right")
    if summary.solo and intervals:
        table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("shut", justify="right")
    if rules.multi_round:
        table.add_column("total", justify="right")
    if rules.drop_out is not None:
        table.add_column("rounds", justify="right")
    rated = any(standing.rating is not None for standing in summary.ranking)
    if rated:
        table.add_column("rating", justify="right", no_wrap=True)
        table.add_column("LOS", justify="right")
    for rank, standing in enumerate(summary.ranking, 1):
        row = [str(rank), literal(standing.name)]
        if _forfeited(summary, standing):
            table.add_row(*row, "forfeited", *["–"] * (len(table.columns) - 3))
            continue
        if not summary.solo:
            row += _win_cells(standing, digits, intervals, exactly, wins)
        row += _score_cells(summary, standing, digits, intervals)
        if rated:
            row += _rating(standing, summary.ranking[rank : rank + 1], summary)
        table.add_row(*row)
    return table


def _score_cells(summary: Results, standing: Standing, digits: int, intervals: bool) -> list[str]:
    """A standing's score (with its interval, solo), shut rate, and total and rounds where the rules
    make them columns."""
    rules = summary.config.rules
    cells = ["–" if standing.mean_score is None else f"{standing.mean_score:.{1 + digits}f}"]
    if summary.solo and intervals:
        cells.append("–" if standing.score_interval is None else _interval(*standing.score_interval, percent=False))
    cells.append("–" if standing.shut_rate is None else _percent(standing.shut_rate, digits))
    if rules.multi_round:
        cells.append("–" if standing.mean_total is None else f"{standing.mean_total:.1f}")
    if rules.drop_out is not None:
        cells.append("–" if standing.mean_rounds is None else f"{standing.mean_rounds:.2f}")
    return cells


def _win_cells(standing: Standing, digits: int, intervals: bool, exactly: dict[str, float], wins: bool) -> list[str]:
    """A standing's win rate, with its interval, exact rate and wins where they are columns."""
    cells = [_percent(standing.win_rate, digits)]
    cells += [_interval(*standing.win_interval, percent=True)] if intervals else []
    cells += [_percent(exactly[standing.name], EXACT_DIGITS)] if exactly else []
    return cells + ([_count(standing.wins)] if wins else [])


def _forfeited(summary: Results, standing: Standing) -> bool:
    """Whether a strategy of a simulated run played no game: it forfeited every one (`--on-failure`)."""
    return not summary.exact and standing.games == 0


def _exact_rates(summary: Results) -> dict[str, float]:
    """The exact win rates computed beside a simulated tournament, by name (none: empty)."""
    if not isinstance(summary, Summary) or summary.exactly is None or summary.exactly.win_rates is None:
        return {}
    return summary.exactly.win_rates


def exact_hint(summary: Results) -> str | None:
    """A hint to --exact where every strategy of a simulated tournament can be computed exactly
    but doing it beside the games was estimated too slow (None otherwise)."""
    if not isinstance(summary, Summary) or summary.exactly is None or summary.exactly.win_rates is not None:
        return None
    return (
        f"Every strategy here can be computed exactly: --exact would give the exact win rates "
        f"(estimated at {summary.exactly.seconds:,.0f} s)."
    )


def _rating(standing: Standing, following: Sequence[Standing], summary: Results) -> list[str]:
    """A standing's rating ± half its 95% interval, and its likelihood of superiority over the next
    (`following`: it, if any; none over one that forfeited every game)."""
    if standing.rating is None or standing.rating_interval is None:
        return ["–", "–"]
    low, high = standing.rating_interval
    compared = standing.superiority is not None and not any(_forfeited(summary, next_) for next_ in following)
    los = _percent(standing.superiority) if compared and standing.superiority is not None else "–"
    return [f"{standing.rating:+.0f} ±{(high - low) / 2:.0f}", los]


def legend(summary: Results, exact_shown: bool = True) -> str:
    """What the ranking's columns mean: estimates over games played, or chances computed exactly
    (the exact column's meaning where it is shown)."""
    rules = summary.config.rules
    each = summary.ranking[0].games if summary.ranking else 0
    shared = not summary.solo and rules.ties is Ties.SHARE
    if summary.exact:
        parts = [f"each strategy sat in {_plural(each, 'seating')}, each computed exactly"]
        if not summary.solo:
            fraction = "; a shared win counts as a fraction" if shared else ""
            parts.append(f"win rate: its chance of winning, averaged over them{fraction}")
        parts.append("score: expected score per turn; shut: chance of shutting the box in a turn")
    else:
        parts = [_played(summary)]
        parts += ["a shared win counts as a fraction"] if shared else []
        if exact_shown and _exact_rates(summary):
            parts.append("exact: its win rate computed exactly, over every game the dice can deal (as --exact does)")
        parts.append("score: mean score per turn; shut: how often it shut the box")
    figure = "expected" if summary.exact else "mean"
    if rules.multi_round:
        parts.append(f"total: {figure} final total")
    if rules.drop_out is not None:
        parts.append(f"rounds: {figure} rounds lasted")
    if any(standing.rating is not None for standing in summary.ranking):
        parts.append(
            "rating: Bradley-Terry Elo from who finished ahead of whom (mean 0) ± its 95% interval; "
            "LOS: the likelihood it is truly stronger than the next"
        )
    return "; ".join(parts) + "."


def _played(summary: Results) -> str:
    """How many games each strategy of a simulated run played: fewer where it forfeited some."""
    counts = [standing.games for standing in summary.ranking]
    played = sorted({count for count in counts if count}) or [0]
    said = f"{played[0]:,}" if len(played) == 1 else f"{played[0]:,} to {played[-1]:,}"
    none = counts.count(0)
    but = f" but the forfeited {'one, which' if none == 1 else 'ones, which'} played none" if none else ""
    return f"each strategy played {said} games{but}"


def _told_apart(one: Standing, next_: Standing, solo: bool) -> bool:
    """Whether a strategy is surely ahead of the next in the ranking: its likelihood of superiority
    from the ratings at least SURE, else (no ratings) their 95% intervals apart."""
    if one.superiority is not None:
        return one.superiority >= SURE
    if solo and one.score_interval is not None and next_.score_interval is not None:
        return one.score_interval[1] < next_.score_interval[0]  # a lower score is ahead
    return one.win_interval[0] > next_.win_interval[1]


def within_noise(summary: Results) -> str | None:
    """A sentence naming the runs of neighbours in a simulated ranking that its games cannot tell
    apart (None when each is surely ahead of the next, or the figures are exact)."""
    if summary.exact or len(summary.ranking) < 2:
        return None
    ranking = [standing for standing in summary.ranking if not _forfeited(summary, standing)]
    if len(ranking) < 2:
        return None
    groups, group = [], [ranking[0]]
    for one, next_ in itertools.pairwise(ranking):
        if _told_apart(one, next_, summary.solo):
            groups.append(group)
            group = []
        group.append(next_)
    groups = [names for names in [*groups, group] if len(names) > 1]
    if not groups:
        return None
    how = (
        f"a likelihood of superiority under {SURE:.0%}"
        if ranking[0].superiority is not None
        else "overlapping 95% intervals"
    )
    named = "; ".join(", ".join(printable(standing.name) for standing in names) for names in groups)
    settled = (
        "the exact win rates give their true order"
        if _exact_rates(summary)
        else "more games (-n) could, and --exact computes it where every strategy can be computed exactly"
    )
    return f"Within noise ({how} between neighbours): {named}. This run cannot tell their order: {settled}."


def finishes(summary: Results) -> bool:
    """Whether the head-to-head table shows who finished ahead (tables of three or more, where it
    says more than the win rate) rather than the win rate (tables of two, where they agree)."""
    return summary.config.table > 2 and all(pair.ahead_rate is not None for pair in summary.head_to_head)


def _pair_rate(pair: HeadToHead, ahead: bool) -> float:
    return pair.ahead_rate if ahead and pair.ahead_rate is not None else pair.win_rate


def head_to_head_matrix(summary: Results) -> Table:
    """Row's win rate in the games where column sat at the same table (at tables of three or more,
    how often row finished ahead of column there); columns by rank."""
    names = [standing.name for standing in summary.ranking]
    ahead = finishes(summary)
    rates = {(pair.strategy, pair.opponent): _pair_rate(pair, ahead) for pair in summary.head_to_head}
    digits = MATRIX_DIGITS if summary.exact else 1
    table = _table()
    table.add_column("", no_wrap=True)
    for rank in range(1, len(names) + 1):
        table.add_column(str(rank), justify="right", no_wrap=True)
    for rank, name in enumerate(names, 1):
        cells = [
            "·" if name == other else "–" if (name, other) not in rates else _percent(rates[(name, other)], digits)
            for other in names
        ]  # "–": two of a gauntlet's field, which do not meet
        table.add_row(f"{rank} {literal(name)}", *cells)
    return table


def head_to_head_long(summary: Results) -> Table:
    """The head-to-head figures a pair per line, for fields too wide for a matrix.
    (Every two strategies of the field meet at some table, so every pair has figures.)"""
    rates = {(pair.strategy, pair.opponent): pair for pair in summary.head_to_head}
    names = [standing.name for standing in summary.ranking]
    table = _table()
    table.add_column("strategy", overflow="fold")
    table.add_column("opponent", overflow="fold")
    table.add_column("games", justify="right", no_wrap=True)
    ahead = finishes(summary)
    table.add_column("ahead" if ahead else "won", justify="right", no_wrap=True)
    table.add_column("opp. ahead" if ahead else "opp. won", justify="right", no_wrap=True)
    for index, name in enumerate(names):
        for other in names[index + 1 :]:
            pair, back = rates[(name, other)], rates[(other, name)]
            table.add_row(
                literal(name),
                literal(other),
                f"{pair.games:,}",
                _percent(_pair_rate(pair, ahead), _digits(summary)),
                _percent(_pair_rate(back, ahead), _digits(summary)),
            )
    return table


def seat_table(summary: Results) -> Table:
    """Each strategy's chance of winning from each seat, over its matchups; strategies by rank."""
    rates = {(seat.name, seat.seat): seat.win_rate for seat in summary.seats}
    table = _table()
    table.add_column("strategy", overflow="fold", min_width=12)
    for seat in range(1, summary.config.table + 1):
        table.add_column(f"seat {seat}", justify="right", no_wrap=True)
    for rank, standing in enumerate(summary.ranking, 1):
        cells = [_percent(rates[(standing.name, seat)], EXACT_DIGITS) for seat in range(1, summary.config.table + 1)]
        table.add_row(f"{rank} {literal(standing.name)}", *cells)
    return table


def show(console: Console, summary: Results) -> None:
    """The full terminal report."""
    for line in header(summary):
        console.print(literal(line))
    tables = (ranking_table(summary), ranking_table(summary, wins=False), ranking_table(summary, False, False))
    shown = next((number for number, table in enumerate(tables) if _fits(console, table)), len(tables) - 1)
    console.print(tables[shown])
    exact_shown = shown < len(tables) - 1
    console.print(literal(legend(summary, exact_shown)))
    if not exact_shown and _exact_rates(summary):
        rates = ", ".join(f"{name} {_percent(rate, EXACT_DIGITS)}" for name, rate in _exact_rates(summary).items())
        console.print(literal(f"Computed exactly (every game the dice can deal): {rates}."))
    for said in (within_noise(summary), exact_hint(summary)):
        if said is not None:
            console.print(literal(said))
    if summary.head_to_head:
        console.print()
        matrix = head_to_head_matrix(summary)
        ahead = finishes(summary)
        if _fits(console, matrix):
            if ahead:
                console.print(
                    "Head to head: how often the row finished ahead of the column in games where both sat "
                    "(by rank; level counts half)."
                )
            else:
                console.print("Head to head: the row's win rate in games against the column (by rank).")
            console.print(matrix)
        elif ahead:
            console.print(
                "Head to head: how often each of two strategies finished ahead of the other in games where both "
                "sat (level counts half)."
            )
            console.print(head_to_head_long(summary))
        else:
            console.print("Head to head: how often each of two strategies won the games where both sat.")
            console.print(head_to_head_long(summary))
    if isinstance(summary, Summary) and summary.versus:
        console.print()
        for line in versus_lines(summary):
            console.print(literal(line))
    if summary.seats and not summary.solo:
        console.print()
        console.print("By seat: each strategy's chance of winning from each seat (seat 1 plays first).")
        console.print(seat_table(summary))


def versus_lines(summary: Summary) -> list[str]:
    """A gauntlet of two: the first player's score minus the second's against the field, from each
    one's game pairs, over all and by opponent."""
    from tournaments.parts import field_difference

    first, second = summary.config.names[:2]
    gap, (low, high) = field_difference(summary.versus)
    lines = [
        f"Against the field, {first}'s score minus {second}'s: {100 * gap:+.2f} points "
        f"(95% CI {100 * low:+.2f} to {100 * high:+.2f}; each from its game pairs, the two taken as independent)."
    ]
    for versus in summary.versus:
        gap, (low, high) = versus.difference()
        lines.append(
            f"  against {versus.opponent}: {100 * versus.first.score:.2f}% against {100 * versus.second.score:.2f}%, "
            f"{100 * gap:+.2f} points (95% CI {100 * low:+.2f} to {100 * high:+.2f})"
        )
    return lines


def quiet_line(summary: Results) -> str:
    """`--quiet`: the leader, its figure, the size of the run and the seed, in one line."""
    best = summary.ranking[0]
    name = printable(best.name)
    if summary.exact:
        if summary.solo:
            lead = f"best: {name}, expected score {best.mean_score:.3f}"
        else:
            lead = f"winner: {name}, win rate {_percent(best.win_rate, EXACT_DIGITS)}"
        return f"{lead}; {_plural(summary.games, 'seating')} computed exactly, in {summary.arithmetic}s"
    seed = summary.seed
    if summary.solo:
        score = "no turns" if best.mean_score is None else f"mean score {best.mean_score:.2f}"
        lead = f"best: {name}, {score}"
    else:
        low, high = best.win_interval
        lead = f"winner: {name}, win rate {_percent(best.win_rate)} (95% CI {_interval(low, high, percent=True)})"
    return f"{lead}; {summary.games:,} games; seed {seed}"
