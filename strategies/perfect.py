"""`perfect`: the subgame-perfect equilibrium of a one-round game (`shutbox_cli.game.perfect`)."""

from __future__ import annotations

from shutbox_cli.game import Rules, Solution, tiles_of
from shutbox_cli.game.perfect import equilibrium, refuse_unsolved
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


class Perfect(Strategy):
    """Perfect play: the subgame-perfect equilibrium of a one-round game, every seat playing to win.

    The last seat plays for its chance to win against the scores posted (as `target` does); each
    earlier seat for its own chance, knowing that every later seat plays perfectly too: backward
    induction over the seats still to play, under the tie rule in force (a playoff is worth each
    tied seat its chance in a game of its own among them, a fixed point iterated to 1e-12) and with
    instant win on or off. Of moves that tie exactly (within 1e-12) it takes the one with the lower
    expected score, then the first in move order (one die before two). Its key is the situation:
    the score to beat, how many posted it and how many are still to play, so it plays from one
    table per situation, exactly in exact tournaments, `analyze --against` and `tune`. Alone it
    plays exactly like `optimal`. Over several rounds or in drop-out it is refused, and so are rules
    whose scores times boxes pass 600,000 (10 tiles or more with digits scoring).
    Played for a stake whose shut box pays other than one (`shut_pays`), each seat plays for its
    expected winnings instead (`shutbox_cli.game.stakes`), keyed on its seat too.
    """

    name = "perfect"
    description = (
        "Perfect play in a one-round game: every seat plays to win knowing the later seats do too "
        "(the subgame-perfect equilibrium, exactly); alone, like optimal."
    )
    reads_context = True
    key = SITUATION

    @classmethod
    def key_under(cls, rules: Rules) -> tuple[str, ...] | None:
        """Its key, the situation; a StrategyLoadError (one sentence) over several rounds or in drop-out."""
        try:
            refuse_unsolved(rules)
        except ValueError as error:
            raise StrategyLoadError(str(error)) from None
        return SITUATION if rules.shut_pays == SHUT_PAYS else STAKED

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        return tiles_of(_situation_play(view.rules, view.context).best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return _situation_play(view.rules, view.context).best_dice(view.open_mask)

    def _solved_for(self, rules: Rules, context: KeyedContext) -> Solution:
        """The policy it plays for a whole turn in this situation."""
        return _situation_play(rules, context)


def _situation_play(rules: Rules, context: object) -> Solution:
    """The equilibrium's policy for the situation a keyed context shows (for the stake, at its table)."""
    assert isinstance(context, KeyedContext)
    situation = (context.to_beat, context.to_beat_count, context.to_come)
    if rules.shut_pays == SHUT_PAYS:
        return equilibrium(rules).play(*situation).policy
    return stakes(rules, context.seat + 1 + context.to_come).play(*situation).policy
