"""The strategy contract: subclass `Strategy`, answer `choose_move` (and maybe `choose_dice`).

A strategy sees a read-only `View` of each decision and answers with one of
`view.legal_moves` (a tuple of tiles, lowest first), or with 1 or 2 dice when the
one-die option is open. Class attributes declare its nature, so the engine knows
what it may do with it: a strategy that is neither `stochastic` nor `reads_context`
depends only on (open tiles, dice) and is tabulated once per rule set, analysed
exactly and played fast.
"""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from shutbox_cli.game import Roll, Rules, TurnContext, dice_options, mask_of

Move = tuple[int, ...]
"""A move: the tiles to shut, lowest first."""

SOLO_CONTEXT = TurnContext(player=0, seat=0, round=0, playoff=False, scores=(None,), totals=(0,), active=(True,))
"""The context a context-free strategy is shown: the first turn of a solo game."""


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """One decision, read-only.

    rules: the `Rules` in force (tiles, shut rule, one-die rule, scoring, format, ties).
    open_tiles: the tiles still open, lowest first, e.g. (1, 2, 5, 9).
    open_mask: the same as a bitmask (tile k is bit k-1), e.g. 0b100010011.
    dice: the dice rolled, lowest first, e.g. (3, 6); None when the question is how many dice to roll.
    legal_moves: every set of tiles the roll may shut, each a tuple lowest first; empty before the roll.
    turn: the rolls of this turn so far (`Roll.dice`, `Roll.shut_tiles`).
    context: where the turn stands in its game: `player`, `seat`, `round`, `playoff`;
      by player number, `scores` posted this round (None for not yet), `totals` before this
      round and who is still `active`; and `score_to_beat` (the lowest score posted this round, or None).
    """

    rules: Rules
    open_tiles: tuple[int, ...]
    dice: tuple[int, ...] | None
    legal_moves: tuple[Move, ...]
    turn: tuple[Roll, ...]
    context: TurnContext
    # Given by the StrategyPlayer, which has it at hand; worked out from open_tiles when left out.
    open_mask: int = dataclasses.field(default=-1, kw_only=True, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.open_mask < 0:
            object.__setattr__(self, "open_mask", mask_of(self.open_tiles))

    @property
    def roll(self) -> int | None:
        """The total of the dice (None before the roll)."""
        return None if self.dice is None else sum(self.dice)

    @property
    def open_sum(self) -> int:
        """The sum of the open tiles."""
        return sum(self.open_tiles)

    @property
    def dice_options(self) -> tuple[int, ...]:
        """How many dice the rules allow next: (2,), (1,) or (1, 2)."""
        return dice_options(self.rules, self.open_mask)


class Strategy:
    """Base class of every strategy. Override `choose_move`; `choose_dice` is optional.

    Class attributes:
      name: the name it is known by (`shutbox strategies` lists it);
      description: one line saying how it plays;
      stochastic: True if it uses `self.rng` (given by the engine, seeded apart from the dice);
      reads_context: True if it reads `view.context` or `view.turn`.
    Parameters are keyword arguments of `__init__`.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    stochastic: ClassVar[bool] = False
    reads_context: ClassVar[bool] = False

    @property
    def rng(self) -> random.Random:
        """The strategy's own random generator: the engine gives one to a `stochastic` strategy
        and reseeds it every turn, apart from the dice. Any other strategy has none."""
        try:
            return self._rng
        except AttributeError:
            raise AttributeError(
                f"{type(self).__name__} uses self.rng, which the engine gives only to a strategy "
                "declaring stochastic = True"
            ) from None

    @rng.setter
    def rng(self, generator: random.Random) -> None:
        self._rng = generator

    def choose_move(self, view: View) -> Move:
        """Return one of `view.legal_moves`; asked only when there are two or more."""
        raise NotImplementedError(f"{type(self).__name__} must define choose_move(view)")

    def choose_dice(self, view: View) -> int:
        """Return 1 or 2; asked only when the rules allow both. By default, one die once the
        open tiles add up to 6 or less."""
        return 1 if view.open_sum <= 6 else 2

    @classmethod
    def tabulable(cls) -> bool:
        """Whether its answers depend only on (rules, open tiles, dice)."""
        return not (cls.stochastic or cls.reads_context)
