"""The end of a game in words: who won and how, and the table of scores for longer games."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import GameRecord, Rules, Ties
from .board import verb


def join_names(names: Sequence[str]) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob and Cy`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _instant_winner(rules: Rules, record: GameRecord) -> int | None:
    """The player whose shut box ended the game at once, if one did."""
    last = record.rounds[-1]
    if rules.instant_win and len(record.winners) == 1:
        turn = last.turns[record.winners[0]]
        if turn is not None and turn.shut_box:
            return record.winners[0]
    return None


def outcome_lines(rules: Rules, record: GameRecord, names: Sequence[str]) -> list[str]:
    """How a game of two or more players ended, in one or two sentences."""
    winners = record.winners
    instant = _instant_winner(rules, record)
    if instant is not None:
        what = "the playoff" if record.rounds[-1].playoff else "the game"
        return [f"{verb(names[instant], 'shut the box and win', 'shut the box and wins')} {what}."]
    regular = [game_round for game_round in record.rounds if not game_round.playoff]
    lines: list[str] = []
    if rules.drop_out is not None:
        left = [player for player in record.order if record.out_after[player] is None]
        if len(left) == 1 and record.players > 1:
            name = names[left[0]]
            return [f"{verb(name, 'win', 'wins')}: the last player left, with a total of {record.totals[left[0]]}."]
        last = regular[-1].number
        eligible = [player for player in record.order if record.out_after[player] == last]
        lines.append(f"Everyone still playing reached {rules.drop_out} in round {last + 1}; the lowest total wins.")
        values: Sequence[int | None] = record.totals
    elif rules.multi_round:
        eligible, values = list(record.order), record.totals
    else:
        eligible, values = list(record.order), regular[0].scores
    best = min(values[player] for player in eligible)  # type: ignore[type-var]
    tied = [player for player in eligible if values[player] == best]
    measure = f"a total of {best}" if rules.multi_round else str(best)
    winner = names[winners[0]]
    if len(tied) == 1:
        lines.append(f"{verb(winner, 'win', 'wins')} with {measure}.")
    elif rules.ties is Ties.SHARE:
        lines.append(f"{join_names([names[player] for player in tied])} share the win with {measure}.")
    else:
        how = "as the earlier seat" if rules.ties is Ties.SEAT else "the playoff"
        lines.append(
            f"{join_names([names[player] for player in tied])} tie with {measure}; "
            f"{verb(winner, 'win', 'wins')} {how}."
        )
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
    rows.append(["Total"] + totals)
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines
