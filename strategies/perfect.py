"""`perfect`: the subgame-perfect equilibrium of a one-round game (`shutbox_cli.game.perfect`), and of
a game of two seats over several rounds or in drop-out (`shutbox_cli.game.perfect_pairs`)."""

from __future__ import annotations

from shutbox_cli.game import Rules, Solution, solve_expected_score, tiles_of
from shutbox_cli.game.perfect import equilibrium, refuse_unsolved
from shutbox_cli.game.perfect_pairs import cost as pair_cost
from shutbox_cli.game.perfect_pairs import pair_equilibrium
from shutbox_cli.game.rules import SHUT_PAYS
from shutbox_cli.game.stakes import stakes

from .base import Move, Strategy, View
from .keys import KeyedContext
from .loading import StrategyLoadError

SITUATION = ("to_beat", "to_beat_count", "to_come")
"""What perfect play depends on: the lowest score posted this round, how many posted it, and how
many are still to play (target's key in a one-round game)."""
STAKED = (*SITUATION, "seat")
"""Its key when a shut box pays other than one stake: what a seat wins then depends on the table's
size too, which its seat and the seats to come say (`shutbox_cli.game.stakes`)."""
PAIR = ("playoff", "total", "leader_total", "to_beat")
"""Its key in drop-out at a table of two: its total, its rival's, and the score its rival posted
this round (None: it plays first); in a playoff round, the one-round game's."""
ROUNDS = ("round", "total", "leader_total", "to_beat")
"""Its key over fixed rounds at a table of two: the round too (the rounds left)."""
CHECKED_SECONDS = 2.0
"""The longest its equilibrium over several rounds or in drop-out is estimated to take for `shutbox
check` to ask it the questions of such a game (solving it is not the contract's business)."""


class Perfect(Strategy):
    """Perfect play: the subgame-perfect equilibrium, every seat playing to win.

    In a one-round game the last seat plays for its chance to win against the scores posted (as
    `target` does); each earlier seat for its own chance, knowing that every later seat plays
    perfectly too: backward induction over the seats still to play, under the tie rule in force (a
    playoff is worth each tied seat its chance in a game of its own among them, a fixed point
    iterated to 1e-12) and with instant win on or off. Its key there is the situation: the score to
    beat, how many posted it and how many are still to play. At a table of two over several rounds
    or in drop-out, each seat plays to win the game by backward induction over rounds and totals
    (`shutbox_cli.game.perfect_pairs`): keyed on the round (fixed rounds), its total, its rival's and
    the score its rival posted. Of moves that tie exactly (within 1e-12) it takes the one with the
    lower expected score, then the first in move order (one die before two). It plays from one table
    per key, exactly in exact tournaments, `analyze --against` and `tune`. Alone it plays exactly
    like `optimal`. Refused: a table of three or four over several rounds or in drop-out, fixed
    rounds with playoffs, games whose solution would take more than about 3 minutes, and rules whose
    scores times boxes pass 600,000 (10 tiles or more with digits scoring).
    Played for a stake whose shut box pays other than one (`shut_pays`), each seat plays for its
    expected winnings instead (`shutbox_cli.game.stakes`), keyed on its seat too.
    """

    name = "perfect"
    description = (
        "Perfect play: every seat plays to win knowing the others do too (the subgame-perfect "
        "equilibrium, exactly; over several rounds and in drop-out at a table of two); alone, like optimal."
    )
    reads_context = True
    key = SITUATION

    @classmethod
    def key_under(cls, rules: Rules) -> tuple[str, ...] | None:
        """Its key: the situation in one round, the totals at a table of two over several rounds or in
        drop-out; a StrategyLoadError (one sentence) for rules it does not solve."""
        try:
            if rules.multi_round:
                pair_equilibrium(rules)  # solved once, here, before any decision is timed
                return cls.key_pair(rules)
            refuse_unsolved(rules)
        except ValueError as error:
            raise StrategyLoadError(str(error)) from None
        return SITUATION if rules.shut_pays == SHUT_PAYS else STAKED

    @staticmethod
    def checked_under(rules: Rules) -> bool:
        """Whether `shutbox check` asks it under these rules: one round, or a game of two seats over
        several rounds or in drop-out that it solves in about `CHECKED_SECONDS` or less."""
        return not rules.multi_round or pair_cost(rules).seconds <= CHECKED_SECONDS

    @staticmethod
    def key_pair(rules: Rules) -> tuple[str, ...]:
        """Its key at a table of two over several rounds (`ROUNDS`) or in drop-out (`PAIR`)."""
        return PAIR if rules.drop_out is not None else ROUNDS

    @classmethod
    def key_at(cls, rules: Rules, table: int) -> tuple[str, ...] | None:
        """Its key at a table of `table`; over several rounds or in drop-out a table of two (or one,
        where it plays like `optimal`), else a StrategyLoadError in one sentence."""
        if rules.multi_round and table > 2:
            raise StrategyLoadError(
                f"perfect play over several rounds or in drop-out is solved for a table of two, not {table}: "
                "every seat's total would be part of the state."
            )
        return cls.key_under(rules)

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        return tiles_of(perfect_policy(view.rules, view.context).best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return perfect_policy(view.rules, view.context).best_dice(view.open_mask)

    def _solved_for(self, rules: Rules, context: KeyedContext) -> Solution:
        """The policy it plays for a whole turn with this key."""
        return perfect_policy(rules, context)


def perfect_policy(rules: Rules, context: object) -> Solution:
    """The equilibrium's policy for what a keyed context shows (`Perfect.key_under(rules)`'s features)."""
    assert isinstance(context, KeyedContext)
    if rules.multi_round:
        return _pair_play(rules, context)
    situation = (context.to_beat, context.to_beat_count, context.to_come)
    if rules.shut_pays == SHUT_PAYS:
        return equilibrium(rules).play(*situation).policy
    return stakes(rules, context.seat + 1 + context.to_come).play(*situation).policy


def _pair_play(rules: Rules, context: KeyedContext) -> Solution:
    """The policy of a seat at a table of two over several rounds or in drop-out (alone: optimal's)."""
    rival = context.leader_total
    if rival is None:
        return solve_expected_score(rules)
    found = pair_equilibrium(rules)
    number = 0 if rules.drop_out is not None else context.round
    if rules.drop_out is not None and context.playoff:
        return found.in_playoff(context.to_beat)
    if context.to_beat is None:
        return found.first(number, context.total, rival)
    return found.second(number, context.total, rival, context.to_beat)
