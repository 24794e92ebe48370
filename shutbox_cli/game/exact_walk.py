"""The one exact walk: a game's exact outcome from its seats, in order of play, each with fixed turn
odds (`TurnOdds`) or odds by the key it sees (`KeyedTurns`), in every format `match.py` plays.

The walk follows the state the game needs, seats in order round by round, each seat's turn odds
from its key in that state (`exact_seats`), ties settled by the tie rule and a playoff in closed
form. Which state that is, is the walk's path (`path`):

- `product`: every seat's odds are fixed for the game (a context-free seat's, or a key on what
  never changes): the state is each seat's own total, and the chance of a situation a product over
  the seats (`exact_product`), in any format and at any table;
- `round`: a one-round game with a key that changes: the state is the lowest score posted and who
  posted it, walked seat by seat (`exact_seats`);
- `pairs`: two seats over several rounds or drop-out with a key that changes: the state is both
  totals (`exact_pairs`).

Each path counts its steps as it goes (`steps_taken`), which `exact_cost` estimates before a walk
is paid for; `cost` estimates a field's games along the paths their walks take. A new question (a seat's best
play over the walk's states, say) extends the state here, and the paths with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .exact_cost import Cost, games_cost, pairs_cost
from .exact_odds import C, Duel, GameOdds, TurnOdds
from .exact_pairs import pairs_walk
from .exact_product import ProductWalk
from .exact_seats import OneRoundWalk, Seat, fixed_for_the_game, fixed_turns, refuse_unfollowed
from .rules import Rules

Path = Literal["product", "round", "pairs"]


def path(rules: Rules, seats: Sequence[Seat[Any]]) -> Path:
    """The state a game of these seats needs walked (a ValueError for a key that cannot be followed)."""
    refuse_unfollowed(rules, seats)
    if fixed_for_the_game(rules, seats):
        return "product"
    return "pairs" if rules.multi_round else "round"


def game_odds(rules: Rules, seats: Sequence[Seat[C]]) -> GameOdds[C]:
    """The exact outcome of one game whose seats, in order of play, have fixed or keyed turn odds."""
    return _walked(rules, seats, margins=False)[0]


def duel(rules: Rules, a: Seat[C], b: Seat[C], seat: int) -> Duel[C]:
    """A against B with A in seat 0 or 1, either keyed: the exact game and the distribution of the
    margin (A's final total less B's; None in a drop-out game)."""
    if seat not in (0, 1):
        raise ValueError(f"A's seat must be 0 or 1, not {seat!r}.")
    odds, margins, _ = _walked(rules, (a, b) if seat == 0 else (b, a), margins=True)
    return Duel(odds, seat, None if margins is None else _seen_from(margins, seat))


def steps_taken(rules: Rules, seats: Sequence[Seat[Any]]) -> int:
    """The steps the walk of one game of these seats takes, counted as it walks."""
    return _walked(rules, seats, margins=False)[2]


def cost(
    rules: Rules,
    turns: Sequence[TurnOdds[Any]],
    games: Sequence[Sequence[int]],
    paths: Sequence[Path],
    margins: bool,
    hosted: Sequence[bool],
) -> Cost:
    """The estimated cost (`exact_cost`) of walking each of `games` (indices into `turns`, each
    seat's opening turn odds, `opening_turn`; `hosted`: its turns are asked of its host) along its
    path (`path`, under the rules asked about): over both totals for `pairs`, seat by seat for the
    others; `margins`: a duel's margins too."""
    pairs = [game for game, way in zip(games, paths, strict=True) if way == "pairs"]
    alone = [game for game, way in zip(games, paths, strict=True) if way != "pairs"]
    found = games_cost(rules, turns, alone, margins)
    return found + pairs_cost(rules, turns, pairs, hosted) if pairs else found


def _walked(rules: Rules, seats: Sequence[Seat[C]], margins: bool) -> tuple[GameOdds[C], Mapping[int, C] | None, int]:
    """A game walked along its path: its outcome, seat 0's margins where asked (two seats, fixed
    rounds) and the steps taken."""
    followed = path(rules, seats)
    if followed == "product":
        product = ProductWalk(rules, fixed_turns(seats))
        odds = product.odds()
        found = product.margins() if margins and rules.drop_out is None else None
        return odds, found, product.taken
    if followed == "pairs":  # at a table of two: `path` refuses the others
        walk, odds = pairs_walk(rules, seats)
        return odds, walk.margins, walk.taken
    one_round = OneRoundWalk(rules, seats)
    odds = one_round.odds()
    return odds, one_round.margins() if margins else None, one_round.taken


def _seen_from(margins: Mapping[int, C], seat: int) -> dict[int, C]:
    """Seat 0's margins (its total less seat 1's) as seat `seat` sees them, from its lowest up."""
    sign = 1 if seat == 0 else -1
    return {sign * margin: chance for margin, chance in sorted(margins.items(), key=lambda item: sign * item[0])}
