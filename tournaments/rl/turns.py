"""An agent's turn, stopped at each question the rules leave it: the engine's own `Turn`, on the
dice of its seat (`turn_rolls(seed, game, round, seat)`, as every shutbox game rolls them).

The agent is asked before a roll when the rules let it roll one die or two, and after a roll with
two or more legal moves; a roll with one legal move shuts it, as the engine plays every strategy.
The first roll of each turn is asked even when two dice are the only choice, so that every turn
has a step (an environment's episode cannot start over)."""

from __future__ import annotations

import numpy as np

from shutbox_cli.game import Rules, Turn, TurnContext, TurnRecord, turn_rolls
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.encoding import ActionMask, Encoding, Observation


class AgentTurn:
    """A turn in progress, waiting for the agent's answer (`answer`) until it is `over`."""

    def __init__(self, rules: Rules, coded: Encoding, context: TurnContext, seed: Seed, game: GameNumber) -> None:
        self.context = context
        self.coded = coded
        self.turn = Turn(rules, turn_rolls(seed, game, context.round, context.seat))
        self._first = True
        self._mask: ActionMask | None = None  # the question's, once asked (each step asks it several times)

    @property
    def over(self) -> bool:
        """Whether the turn has ended (its record is then `record()`)."""
        return self.turn.over

    def observation(self) -> Observation:
        """The question waiting (or, once the turn is over, its last box)."""
        return self.coded.observe(self.turn.open_mask, self.turn.dice, self.context)

    def action_mask(self) -> ActionMask:
        """The legal answers to the question waiting (none once the turn is over), read-only."""
        if self._mask is None:
            turn = self.turn
            mask = np.zeros(self.coded.actions, dtype=np.bool_) if turn.over else None
            self._mask = mask if mask is not None else self.coded.action_mask(turn.open_mask, turn.dice)
            self._mask.flags.writeable = False  # shown in every step's info: kept as it was asked
        return self._mask

    def legal(self, action: int) -> bool:
        """Whether the action answers the question waiting (the mask allows it)."""
        return 0 <= action < self.coded.actions and bool(self.action_mask()[action])

    def answer(self, action: int) -> None:
        """Answer the question waiting with a legal action, and play on to the next question (or
        the turn's end). ValueError, in one sentence, for an action the mask does not allow."""
        turn, coded = self.turn, self.coded
        if not self.legal(action):
            raise ValueError(f"action {action} is not legal here: the legal ones are those action_mask() allows.")
        if turn.dice is None:
            turn.roll(coded.dice_of(action) or 2)
        else:
            turn.shut(coded.moves[action])
        self._first = False
        self._mask = None
        self.play_on()

    def play_on(self) -> None:
        """Play what the agent is not asked (a roll with no choice of dice, a roll's one legal
        move) up to the next question or the turn's end."""
        turn = self.turn
        while not turn.over:
            if turn.dice is None:
                options = turn.dice_options
                if len(options) > 1 or self._first:
                    return
                turn.roll(options[0])
            elif len(turn.moves) > 1:
                return
            else:
                turn.shut(turn.moves[0])

    def record(self) -> TurnRecord:
        """The finished turn."""
        return self.turn.record()
