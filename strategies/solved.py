"""The built-in strategies that play from the exact solver.

The solver caches its solutions per rule set (and target), so a strategy asks it at
every decision without solving anything twice.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from shutbox_cli.game import (
    Rules,
    Solution,
    TurnContext,
    solve_expected_score,
    solve_shut,
    tiles_of,
)
from shutbox_cli.game.solver import final_scores, solve_chances

from .base import Move, Strategy, View
from .keys import KeyedContext
from .winning import win_chances


class _Solved(Strategy):
    """Plays the solver's optimal policy for one objective."""

    solve: Callable[[Rules], Solution]

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        return tiles_of(self.solve(view.rules).best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return self.solve(view.rules).best_dice(view.open_mask)


class Optimal(_Solved):
    """The lowest expected score, exactly, for whatever rules are in force."""

    name = "optimal"
    description = "The lowest expected score under the rules in force, exactly (one-die choice included)."
    solve = staticmethod(solve_expected_score)


class MaxShut(_Solved):
    """The highest chance of shutting the box, exactly, for whatever rules are in force."""

    name = "max-shut"
    description = "The highest chance of shutting the box under the rules in force, exactly (one-die choice included)."
    solve = staticmethod(solve_shut)


class Target(Strategy):
    """Plays for the highest chance to win the game it is in, from what the context shows.

    It weighs each score its turn can end with by the chance of winning the game with it,
    taking the players still to play this round, and everyone in later rounds (itself
    included), to play `optimal` (strategies/winning.py works the chances out):
    - one round, and every playoff round: against the scores posted and the players to come;
      a tie is worth 1/k of a win among k (`share`, `playoff`) or goes to the earlier seat;
    - several rounds: by final totals in the last round; before it, it plays like `optimal`;
    - drop-out: going out in a later round is better, and of players out in the same round
      the lowest total wins; last to play with everyone else out, staying in wins.

    Wherever it has chances to weigh, rivals still to play or not, it plays the exact best
    policy for them (of equal moves, the one with the lower expected score): a best response
    to `optimal` rivals, turn by turn, that takes its own later turns to be `optimal`'s too.
    In drop-out at a table of three or more, the chance of outlasting several rivals is
    that of outlasting each one alone, multiplied (exact with one). Alone, or when no score
    of its own changes the result, it plays exactly like `optimal`.
    `margin`: in drop-out it counts its own total that many points higher, to play safer.
    In a one-round game it is keyed: all it reads is the score to beat, how many posted it and
    how many are still to play (`ONE_ROUND_KEY`), so it plays from one table per key. At a table
    of two the totals and the score posted show its one rival whole, and exact games key it on
    them (`key_at`): in drop-out (`PAIR_KEY`) and over several rounds, where the round tells the
    last one (`ROUNDS_KEY`; with playoffs, which a key that reads the round cannot follow, it is
    not exact). At a larger table they show only the rivals' lowest total.
    """

    name = "target"
    description = (
        "Plays for the highest chance to win the game in hand, exactly, against the scores posted and "
        "the optimal players still to come, taking every later round (its own included) to be played "
        "optimally (final totals in a last round, optimal before it; rounds lasted in drop-out)."
    )
    reads_context = True

    @classmethod
    def key_under(cls, rules: Rules) -> tuple[str, ...] | None:
        return None if rules.multi_round else ONE_ROUND_KEY

    @classmethod
    def key_at(cls, rules: Rules, table: int) -> tuple[str, ...] | None:
        """The features its play depends on at a table of `table` (exact games ask this; a
        simulation plays it by `key_under`)."""
        if rules.multi_round and table == 2:
            return PAIR_KEY if rules.drop_out is not None else ROUNDS_KEY
        return cls.key_under(rules)

    def __init__(self, margin: int = 0) -> None:
        if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
            raise ValueError(f"margin must be a whole number of points, 0 or more, not {margin!r}")
        self.margin = margin

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        policy = _aim(view.rules, _context(view.rules, view.context), self.margin)
        return tiles_of(policy.best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return _aim(view.rules, _context(view.rules, view.context), self.margin).best_dice(view.open_mask)

    def _solved_for(self, rules: Rules, context: KeyedContext) -> Solution:
        """The policy it plays for a whole turn with this key: its table, without asking it every question."""
        return _aim(rules, _context(rules, context), self.margin)


ONE_ROUND_KEY = ("to_beat", "to_beat_count", "to_come")
"""What target's play in a one-round game (and in a playoff) depends on."""
PAIR_KEY = ("playoff", "total", "leader_total", "to_beat")
"""What target's play in a drop-out game of two seats depends on: its total, its rival's, and the
score its rival posted this round (None: the rival is still to play)."""
ROUNDS_KEY = ("round", *PAIR_KEY)
"""What target's play over several rounds at a table of two depends on: `PAIR_KEY`, and the round
(it weighs final totals in the last)."""


def _context(rules: Rules, context: TurnContext | KeyedContext) -> TurnContext:
    """The context target weighs: the view's own, or one with the same rivals made from its key (in
    a one-round game player 0, the posted scores and then the players to come)."""
    if isinstance(context, TurnContext):
        return context
    values = context.key
    if len(values) == len(PAIR_KEY) and context == KeyedContext(PAIR_KEY, values):
        return _from_pair(*values)
    if len(values) == len(ROUNDS_KEY) and context == KeyedContext(ROUNDS_KEY, values):
        return _from_rounds(rules, *values)
    return _from_key(context.to_beat, context.to_beat_count, context.to_come)


def _from_pair(playoff: bool, total: int, rival: int, to_beat: int | None) -> TurnContext:
    """A drop-out game of two seats from target's `PAIR_KEY`: it plays first unless its rival
    posted. Out of a playoff a posted score counts only in the rival's total after it, so rivals
    alike after this round make one context (and one policy, asked once)."""
    if to_beat is None:
        return TurnContext(0, 0, 0, playoff, (None, None), (total, rival), (True, True))
    if not playoff:
        rival, to_beat = rival + to_beat, 0
    return TurnContext(1, 1, 0, playoff, (to_beat, None), (rival, total), (True, True))


def _from_rounds(rules: Rules, number: int, playoff: bool, total: int, rival: int, to_beat: int | None) -> TurnContext:
    """A game of several rounds at a table of two from target's `ROUNDS_KEY`: it plays first unless
    its rival posted. Out of a playoff, every round before the last plays alike (like `optimal`),
    and in the last only the rival's lead counts (what its total will be less target's, before
    target's turn), where anything target may score could change the result (beyond that, every
    lead plays alike): rivals alike make one context (and one policy, asked once)."""
    if not playoff and number < rules.rounds - 1:
        number, total, rival, to_beat = 0, 0, 0, None
    elif not playoff:
        top = final_scores(rules.turn_rules)[-1]
        if to_beat is None:  # the rival's turn is to come: its head start
            total, rival = 0, min(max(rival - total, -top - 1), top + 1)
        else:  # its final total is known
            total, rival, to_beat = 0, min(max(rival + to_beat - total, -1), top + 1), 0
    if to_beat is None:
        return TurnContext(0, 0, number, playoff, (None, None), (total, rival), (True, True))
    return TurnContext(1, 1, number, playoff, (to_beat, None), (rival, total), (True, True))


@lru_cache(maxsize=1024)
def _from_key(to_beat: int | None, count: int, to_come: int) -> TurnContext:
    posted: tuple[int | None, ...] = (to_beat,) * count
    players = count + to_come + 1
    return TurnContext(0, 0, 0, False, (None, *posted, *(None,) * to_come), (0,) * players, (True,) * players)


@lru_cache(maxsize=8192)
def _aim(rules: Rules, context: TurnContext, margin: int) -> Solution:
    """The policy target plays in this context (asked at every decision of a turn)."""
    found = win_chances(rules, context, margin)
    return solve_chances(rules.turn_rules, None if found is None else found.chances)
