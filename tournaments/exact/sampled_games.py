"""Sampled states in games (`sampled`'s explanations against rivals): a strategy that reads the game
without a key plays seeded one-round games against exact or keyed rivals, from each seat asked in
turn; each choice it makes is costed against the best play for the situation it saw, solved for
that situation's chance of winning as `explain` solves a keyed strategy's.

In one round, what the strategy's final score is worth depends on its seat and on the scores posted
before it only through the lowest and how many posted it (the players after it are its seat's
rivals): the situation is its seat and that key (`SITUATION`), whose chance of winning with each
final box comes from the one exact walk (`utilities.utilities`). The rivals before it play their
turns on the game's dice (seat k's turn of game g rolls `turn_rolls(seed, g, 0, k)`, as a
tournament's game does), from their tables (a keyed one's for the key it sees); the strategy plays
its own in its host, a thousand games a round trip. A rival's shut box that wins at once ends the
game before its turn: those games cost it nothing here (the best play loses them as well).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import Rules, TurnContext, play_turn, turn_rolls
from shutbox_cli.game.solver import Solution, solve_utility
from shutbox_cli.game.terms import Mask, Seed
from shutbox_cli.game.turn import Chooser, Roll
from strategies.keys import key_of
from strategies.table import PolicyTable

from .analysis import BATCH
from .sampled_costs import ChoiceCosts
from .turns import exact_key, keyed_policy, refuse_inexact, seat_turns
from .utilities import KeyUtility, utilities

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

SITUATION = ("to_beat", "to_beat_count", "to_come")
"""What a one-round game shows a seat that its chance of winning hangs on, beside its seat."""


def play_games(
    seated: SeatedStrategy,
    rivals: Sequence[SeatedStrategy],
    seats: Sequence[int],
    games: int,
    seed: Seed,
    costs: ChoiceCosts,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[float, list[float]]:
    """Play `games` games from each of `seats` (1 plays first), `costs` watching the strategy's
    choices: the best play's chance of winning, seats averaged, and each game's loss (its seats'
    losses averaged). ConfigError for a rival that is neither exact nor keyed."""
    rules, table = seated.rules, 1 + len(rivals)
    for one in rivals:
        refuse_inexact(one.name, one.exact, one.context_free, exact_key(one, table), rules, table)
    turns = [seat_turns(one, False, table) for one in rivals]
    played = [_Rival(one, table) for one in rivals]
    player = seated.player()
    watched = costs.watch(player)
    share, best, losses = 1 / len(seats), 0.0, [0.0] * games
    total, done = games * len(seats), 0
    for number in seats:
        index = number - 1
        situations = {key.values: (key, _best(rules, key)) for key in utilities(rules, SITUATION, turns, index)}
        best += share * math.fsum(key.chance * solution.value for key, solution in situations.values())
        for start in range(0, games, BATCH):
            met = {
                game: _before(rules, played[:index], table, seed, game)
                for game in range(start, min(games, start + BATCH))
            }
            contexts = {game: context for game, context in met.items() if context is not None}
            seated.prefetch(player, [(context, seed, game) for game, context in contexts.items()])
            for game, context in contexts.items():
                key = key_of(context, SITUATION)
                costs.situation((number, *key), situations[key][1])
                player.start_turn(context, seed, game)
                play_turn(rules, turn_rolls(seed, game, 0, index), watched)
                losses[game] += share * costs.turn_loss()
            done += len(met)
            if progress is not None:
                progress(done, total)
    return best, losses


def _best(rules: Rules, key: KeyUtility) -> Solution:
    """The best play for a situation: the highest chance of winning with its utility (cached by the solver)."""
    return solve_utility(rules.turn_rules, "win", key.utility)


def _before(rules: Rules, rivals: Sequence[_Rival], table: int, seed: Seed, game: int) -> TurnContext | None:
    """The context the strategy's turn of `game` starts in, after the rivals before it played theirs
    (None when one's shut box won at once)."""
    me = len(rivals)
    posted: list[int | None] = []
    for seat, rival in enumerate(rivals):
        context = _context(seat, posted, table)
        record = play_turn(rules, turn_rolls(seed, game, 0, seat), rival.chooser(context))
        if rules.instant_win and record.shut_box:
            return None
        posted.append(record.score)
    return _context(me, posted, table)


def _context(seat: int, posted: Sequence[int | None], table: int) -> TurnContext:
    """The first round's context of the player in `seat`, the scores before it posted."""
    scores = (*posted, *(None,) * (table - len(posted)))
    return TurnContext(seat, seat, 0, False, scores, (0,) * table, (True,) * table)


class _Rival:
    """A rival that plays from its table: an exact one's, a keyed one's for each key it sees."""

    def __init__(self, seated: SeatedStrategy, table: int) -> None:
        self.seated = seated
        self.features = () if seated.exact else exact_key(seated, table) or ()
        self.kept: dict[tuple[Any, ...], Chooser] = {}

    def chooser(self, context: TurnContext) -> Chooser:
        """What plays its turn in this context."""
        values = key_of(context, self.features)
        found = self.kept.get(values)
        if found is None:
            policy = self.seated.table if not self.features else keyed_policy(self.seated, self.features, values)
            found = self.kept[values] = _Table(policy) if isinstance(policy, PolicyTable) else policy
        return found


class _Table:
    """A policy table as a `Chooser`."""

    def __init__(self, table: PolicyTable) -> None:
        self.table = table

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll]) -> int:
        return self.table.dice_count(open_mask)

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll]
    ) -> Mask:
        return self.table.move(open_mask, tuple(sorted(dice)))
