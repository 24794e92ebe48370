"""The end of a game in words: who won and how, the table of scores for longer games, the wins so far."""

from __future__ import annotations

from collections.abc import Sequence

from ...game import GameRecord, Rules, Ties
from .board import verb


def join_names(names: Sequence[str]) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob and Cy`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def outcome_lines(rules: Rules, record: GameRecord, names: Sequence[str]) -> list[str]:
    """How a game of two or more players ended, in one or two sentences."""
    first = record.winners[0]
    winner = names[first]
    if record.shut_box_win:
        what = "the playoff" if record.rounds[-1].playoff else "the game"
        return [f"{verb(winner, 'shut the box and win', 'shut the box and wins')} {what}."]
    lines: list[str] = []
    if rules.drop_out is not None:
        out_after = record.out_after[first]
        if out_after is None:
            return [f"{verb(winner, 'win', 'wins')}: the last player left, with a total of {record.totals[first]}."]
        lines.append(
            f"Everyone still playing reached {rules.drop_out} in round {out_after + 1}; the lowest total wins."
        )
    # Every winner, and every player the tie rule settled between, has the winning result.
    best = record.totals[first] if rules.multi_round else record.rounds[0].scores[first]
    measure = f"a total of {best}" if rules.multi_round else str(best)
    if not record.tied:
        lines.append(f"{verb(winner, 'win', 'wins')} with {measure}.")
        return lines
    tied = join_names([names[player] for player in record.tied])
    if rules.ties is Ties.SHARE:
        lines.append(f"{tied} share the win with {measure}.")
    else:
        how = "as the earlier seat" if rules.ties is Ties.SEAT else "the playoff"
        lines.append(f"{tied} tie with {measure}; {verb(winner, 'win', 'wins')} {how}.")
    return lines


def scores_line(record: GameRecord, names: Sequence[str]) -> str:
    """The scores of a one-round game, in seat order: `Scores: Ann 12, Bob 7.`"""
    scores = record.rounds[0].scores
    played = [f"{names[player]} {scores[player]}" for player in record.order if scores[player] is not None]
    return f"Scores: {', '.join(played)}."


def score_table(rules: Rules, record: GameRecord, names: Sequence[str]) -> list[str]:
    """Scores per round (playoffs apart) and totals, one column per player in seat order."""
    order = record.order
    rows: list[list[str]] = [[""] + [names[player] for player in order]]
    playoff = 0
    for game_round in record.rounds:
        if game_round.playoff:
            playoff += 1
            label = f"Playoff {playoff}"
        else:
            label = f"Round {game_round.number + 1}"
        scores = game_round.scores
        rows.append([label] + ["-" if scores[player] is None else str(scores[player]) for player in order])
    totals = []
    for player in order:
        out = rules.drop_out is not None and record.out_after[player] is not None
        totals.append(f"{record.totals[player]}{' out' if out else ''}")
    rows.append(["Total", *totals])
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def tally_line(names: Sequence[str], wins: Sequence[float], games: int) -> str:
    """The wins so far over rematches, a shared win in equal parts: `Wins after 3 games: Ann 1.5, Bob 1.5.`"""
    tally = ", ".join(f"{name} {f'{won:.2f}'.rstrip('0').rstrip('.')}" for name, won in zip(names, wins, strict=True))
    return f"Wins after {games} games: {tally}."
