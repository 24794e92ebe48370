"""Whether a matchup's tallies could have come from playing its games: the checks a checkpoint's
record passes before a resumed run builds on it (a hand-edited count could otherwise crown the
wrong strategy, or end the run in an arithmetic error after hours of play).

Every check holds of any honest tally, whatever the rules: each game has at least one winner,
whose shares add up to one whole win; a turn scores 0 exactly when it shuts the box; a player's
total is the sum of its scores in regular rounds; two players finish in one order or level; at a
table of two, finishing ahead is winning outright and level is sharing the win, and the game pairs
(the pentanomial) count each deal once, their wins the player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from shutbox_cli.game import Rules, score

from ..playing.tally import Tally, share_unit

MAX_DROP_OUT_ROUNDS = 1 << 40
"""The most rounds a drop-out game can last in a tally: a game of more would outlast the longest
time limit of its work unit (a day) many times over."""


@cache
def _score_range(rules: Rules) -> tuple[int, int]:
    """The lowest and the highest score of a turn that leaves some tile open."""
    scores = [score(rules, mask) for mask in range(1, rules.full_box + 1)]
    return min(scores), max(scores)


def _player_fault(tally: Tally, games: int, rules: Rules, unit: int) -> str | None:
    """Why one player's tally over `games` games cannot be, if it cannot."""
    rounds = MAX_DROP_OUT_ROUNDS if rules.drop_out is not None else rules.rounds
    low, high = _score_range(rules)
    open_turns = tally.turns - tally.shut_boxes
    faults = (
        (tally.games != games, "its games are not those of its finished units"),
        (tally.win_shares > games * unit, "it won more games than it played"),
        (not tally.played <= min(games, tally.turns), "it took a turn in more games than it played or had turns"),
        (tally.turns > tally.played * rounds, "it had more turns than its games hold"),
        (tally.shut_boxes > tally.turns, "it shut the box more often than it had turns"),
        (not low * open_turns <= tally.score_sum <= high * open_turns, "its scores cannot come from its turns"),
        (not tally.score_sum <= tally.score_squares <= high * tally.score_sum, "its squared scores are out of range"),
        (tally.score_sum**2 > tally.score_squares * tally.turns, "its squared scores are too small for its scores"),
        (tally.total_sum != tally.score_sum, "its totals are not the sum of its scores"),
    )
    return next((why for fault, why in faults if fault), None)


def matchup_fault(tallies: Sequence[Tally], games: int, rules: Rules) -> str | None:
    """Why the tallies of one matchup's players over `games` games each cannot come from play, if
    they cannot: a short phrase for a sentence ("player 2: it won more games than it played")."""
    players = len(tallies)
    unit = share_unit(players)
    for player, tally in enumerate(tallies, start=1):
        why = _player_fault(tally, games, rules, unit)
        if why is not None:
            return f"player {player}: {why}"
    if sum(tally.win_shares for tally in tallies) != games * unit:
        return "its wins do not add up to one a game"
    for one, tally in enumerate(tallies):
        if tally.ahead[one] or tally.tied[one]:
            return f"player {one + 1} finished ahead of or level with itself"
        for other, rival in enumerate(tallies):
            if other == one:
                continue
            placed = tally.ahead[other] + tally.tied[other] + rival.ahead[one]
            if tally.tied[other] != rival.tied[one] or placed != games:
                return f"players {one + 1} and {other + 1} do not finish in one order in each game"
            if players == 2 and 2 * tally.win_shares != unit * (2 * tally.ahead[other] + tally.tied[other]):
                return f"player {one + 1}'s wins are not the games it finished ahead, a level finish shared"
    if players == 2 and not _pairs_hold(tallies, games):
        return "its game pairs do not add up to its games and wins"
    return None


def _pairs_hold(tallies: Sequence[Tally], games: int) -> bool:
    """At a table of two: each player's pairs (halves of a win over a deal's two games) count every
    deal once and add up to its win shares, and one player's are the other's mirrored."""
    first, second = (tally.pairs + [0] * (5 - len(tally.pairs)) for tally in tallies)
    return (
        2 * sum(first) == games
        and first == second[::-1]
        and all(
            sum(k * count for k, count in enumerate(pairs)) == tally.win_shares
            for pairs, tally in ((first, tallies[0]), (second, tallies[1]))
        )
    )
