"""The strategy contract: subclass `Strategy`, answer `choose_move` (and maybe `choose_dice`).

A strategy sees a read-only `View` of each decision and answers with one of
`view.legal_moves` (a tuple of tiles, lowest first), or with 1 or 2 dice when the
one-die option is open. Class attributes declare its nature, and the engine holds it to
them: `self.rng` exists only for a `stochastic` strategy, and `view.context` and
`view.turn` only for one that `reads_context`. A strategy that is neither depends only on
(rules, open tiles, dice): it is tabulated once per rule set, analysed exactly and played fast.
A strategy that declares a `key` (features of the game, `strategies.keys.FEATURES`) sees only
those in `view.context`, and is tabulated once per key it meets and played as fast.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, NoReturn

from shutbox_cli.game import Roll, Rules, TurnContext, dice_options, mask_of
from shutbox_cli.game.terms import Mask

Move = tuple[int, ...]
"""A move: the tiles to shut, lowest first."""

SOLO_CONTEXT = TurnContext(player=0, seat=0, round=0, playoff=False, scores=(None,), totals=(0,), active=(True,))
"""The first turn of a solo game: the context a context-reading strategy is shown outside a game."""


class Undeclared(AttributeError):
    """A strategy used what its class does not declare: `view.context` or `view.turn` without
    `reads_context = True`, or `self.rng` without `stochastic = True`."""

    def __init__(self, strategy: str, used: str, declaration: str) -> None:
        self.used = used
        self.declaration = declaration
        super().__init__(f"{strategy} {used} without declaring {declaration}")


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """One decision, read-only.

    rules: the `Rules` in force (tiles, shut rule, one-die rule, scoring, format, ties).
    open_tiles: the tiles still open, lowest first, e.g. (1, 2, 5, 9).
    open_mask: the same as a bitmask (tile k is bit k-1), e.g. 0b100010011.
    dice: the dice rolled, lowest first, e.g. (3, 6); None when the question is how many dice to roll.
    legal_moves: every set of tiles the roll may shut, each a tuple lowest first; empty before the roll.
    turn: the rolls of this turn so far (`Roll.dice`, `Roll.shut_tiles`). Only for `reads_context`.
    context: where the turn stands in its game: `player`, `seat`, `round`, `playoff`;
      by player number, `scores` posted this round (None for not yet), `totals` before this
      round and who is still `active`; and `score_to_beat` (the lowest score posted this round,
      or None). Only for `reads_context`.
    """

    rules: Rules
    open_tiles: tuple[int, ...]
    dice: tuple[int, ...] | None
    legal_moves: tuple[Move, ...]
    turn: tuple[Roll, ...]
    context: TurnContext
    # Given by the engine, which has it at hand; worked out from open_tiles when left out.
    open_mask: Mask = dataclasses.field(default=-1, kw_only=True, repr=False, compare=False)

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


def _undeclared(used: str) -> property:
    def read(self: View) -> NoReturn:
        raise Undeclared("the strategy", f"read {used}", "reads_context = True")

    return property(read, doc=f"{used}: only a strategy declaring reads_context = True may read it.")


class _Hidden:
    """What a view holds in place of what its strategy may not see (`view.turn`, `view.context`):
    nothing of the game, and any use of it raises `Undeclared`, however it was reached (past the
    view's guard, through View's own slots, `object.__getattribute__` or `gc.get_referents`)."""

    __slots__ = ("_used",)

    def __init__(self, used: str) -> None:
        object.__setattr__(self, "_used", used)

    def _refused(self, *_: object) -> NoReturn:
        raise Undeclared("the strategy", f"read {object.__getattribute__(self, '_used')}", "reads_context = True")

    __getattribute__ = __setattr__ = __delattr__ = _refused
    __iter__ = __len__ = __getitem__ = __contains__ = __bool__ = _refused

    def __repr__(self) -> str:
        return f"<{object.__getattribute__(self, '_used')}: not shown without reads_context = True>"


HIDDEN_TURN: Any = _Hidden("view.turn")
"""What a view not showing the turn holds for it."""
HIDDEN_CONTEXT: Any = _Hidden("view.context")
"""What a view not showing the context holds for it."""


class _KeyedView(View):
    """The view a keyed strategy is shown: `context` holds its key's features alone; `turn` raises."""

    __slots__ = ()

    turn = _undeclared("view.turn")


class _ContextFreeView(View):
    """The view a strategy that does not read the context is shown: `turn` and `context` raise.

    It compares and hashes by the decision alone, so a strategy may still keep views in a dict.
    """

    __slots__ = ()

    turn = _undeclared("view.turn")
    context = _undeclared("view.context")

    def __repr__(self) -> str:
        return (
            f"View(rules={self.rules!r}, open_tiles={self.open_tiles!r}, dice={self.dice!r}, "
            f"legal_moves={self.legal_moves!r})"
        )

    def _decision(self) -> tuple[Any, ...]:
        return self.rules, self.open_mask, self.dice, self.legal_moves

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ContextFreeView) and self._decision() == other._decision()

    def __hash__(self) -> int:
        return hash(self._decision())


CONTEXT_VIEW: type[View] = View
"""The view of a strategy that reads the context: everything."""
KEYED_VIEW: type[View] = _KeyedView
"""The view of a keyed strategy: `context` is its key's features (a `strategies.keys.KeyedContext`)."""
CONTEXT_FREE_VIEW: type[View] = _ContextFreeView
"""The view of any other strategy: reading `turn` or `context` raises `Undeclared`."""

_new_view = object.__new__
VIEW_SETTERS = tuple(
    View.__dict__[field].__set__
    for field in ("rules", "open_tiles", "dice", "legal_moves", "turn", "context", "open_mask")
)
"""The setters of View's own slots (rules, open_tiles, dice, legal_moves, turn, context, open_mask),
which set them past a kind's properties that hide them (a hidden one is set all the same): what
`shown_view` builds a view with, and a host's turn loop, which builds one for every decision."""
(_rules, _tiles, _dice, _moves, _turn, _context, _mask) = VIEW_SETTERS


def shown_view(
    kind: type[View],
    rules: Rules,
    open_tiles: tuple[int, ...],
    dice: tuple[int, ...] | None,
    legal_moves: tuple[Move, ...],
    open_mask: Mask,
    turn: tuple[Roll, ...] = HIDDEN_TURN,
    context: Any = HIDDEN_CONTEXT,
) -> View:
    """A view of one of the kinds above (`CONTEXT_VIEW`, `KEYED_VIEW`, `CONTEXT_FREE_VIEW`), built
    without the dataclass's checks: the engine builds one for every question, from values it has
    already worked out. What a kind hides (`turn`, `context`) is left out: its slot holds the
    hidden stand-in, never the game."""
    view = _new_view(kind)
    _rules(view, rules)
    _tiles(view, open_tiles)
    _dice(view, dice)
    _moves(view, legal_moves)
    _turn(view, turn)
    _context(view, context)
    _mask(view, open_mask)
    return view


class Strategy:
    """Base class of every strategy. Override `choose_move`; `choose_dice` is optional.

    Class attributes:
      name: the name it is known by (`shutbox strategies` lists it);
      description: one line saying how it plays;
      stochastic: True if it uses `self.rng` (given by the engine, seeded apart from the dice);
      reads_context: True if it reads `view.context` or `view.turn`;
      key: the features of the game its decisions depend on, e.g. ("to_beat", "to_come")
        (`strategies.keys.FEATURES` lists them): `view.context` then holds those alone.
    Without a declaration, `self.rng`, `view.context` and `view.turn` raise `Undeclared`.
    Parameters are keyword arguments of `__init__`.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    stochastic: ClassVar[bool] = False
    reads_context: ClassVar[bool] = False
    key: ClassVar[tuple[str, ...] | None] = None

    @property
    def rng(self) -> random.Random:
        """The strategy's own random generator: the engine gives one to a `stochastic` strategy
        and reseeds it every turn, apart from the dice. Any other strategy has none."""
        try:
            return self._rng
        except AttributeError:
            raise Undeclared(type(self).__name__, "used self.rng", "stochastic = True") from None

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
        return not (cls.stochastic or cls.reads_context or cls.key)

    @classmethod
    def key_under(cls, rules: Rules) -> tuple[str, ...] | None:
        """The features its decisions depend on under these rules (None: no key): `key`, unless
        a strategy whose key differs with the rules says otherwise."""
        return cls.key

    @classmethod
    def key_at(cls, rules: Rules, table: int) -> tuple[str, ...] | None:
        """Its key under these rules at a table of `table` seats: `key_under(rules)`, unless a
        strategy whose key (or whose refusal, in one sentence) depends on the table says otherwise."""
        return cls.key_under(rules)
