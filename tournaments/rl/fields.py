"""The seats around an agent: shutbox strategies seated as every command seats them
(`tournaments.referee.seated`: a built-in in this process, a user's in a host of its own, every
answer checked), each playing its turns on its seat's dice; and the rewards an agent may be paid."""

from __future__ import annotations

from collections.abc import Sequence

from shutbox_cli.game import GameRecord, Rules, TurnContext, TurnRecord, play_turn, turn_rolls
from shutbox_cli.game.terms import GameNumber, Seed

from ..field.config import SETTINGS
from ..referee.seated import STRATEGY_TIMEOUT, Given, Player, SeatedStrategy, seat_strategies

REWARDS = ("score", "shut", "win")
"""The rewards an agent may be paid: minus each turn's score (and `shut_bonus` for a shut box), 1
for each shut box, or at the game's end its share of the win (1 alone, 1/k shared by k)."""


def checked_reward(reward: str, shut_bonus: float) -> str:
    """The reward, if it is one of REWARDS; ValueError in one sentence if not."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, not {reward!r}.")
    if shut_bonus and reward != "score":
        raise ValueError(f'shut_bonus is paid with reward="score" only, not with reward={reward!r}.')
    return reward


def field_specs(setting: str, given: object) -> tuple[str, ...]:
    """The specs of a side of the field (`before`, `after`): one spec is one strategy, a sequence of
    specs several; ValueError in one sentence for anything else."""
    if isinstance(given, str):
        return (given,)
    if isinstance(given, Sequence) and all(isinstance(spec, str) for spec in given):
        return tuple(given)
    raise ValueError(f"{setting} must be a strategy spec or a sequence of specs, not {given!r}.")


def turn_reward(reward: str, shut_bonus: float, context: TurnContext, record: TurnRecord) -> float:
    """What a finished turn pays: minus its score (and the bonus for a shut box) with "score", 1 for
    a shut box with "shut"; nothing with "win", nor for a playoff's turn, whose score counts for no total."""
    if context.playoff or reward == "win":
        return 0.0
    if reward == "shut":
        return 1.0 if record.shut_box else 0.0
    return -float(record.score) + (shut_bonus if record.shut_box else 0.0)


def game_reward(reward: str, player: int, record: GameRecord) -> float:
    """What a finished game pays a player with "win": its share of the win (nothing otherwise)."""
    if reward != "win" or player not in record.winners:
        return 0.0
    return 1.0 / len(record.winners)


class Field:
    """Strategies seated around an agent under `rules` at a table of `players`, by player number
    (the agent's own number is left out), a user's given `timeout` seconds (ValueError in one
    sentence for a timeout not above 0). Close it to end the users' hosts."""

    def __init__(
        self,
        rules: Rules,
        specs: dict[int, str],
        players: int,
        timeout: float = STRATEGY_TIMEOUT,
    ) -> None:
        timeout = SETTINGS["timeout"].check("timeout", timeout)  # a tournament's own check, its words
        self.rules = rules
        numbers = sorted(specs)
        seated: Sequence[SeatedStrategy] = ()
        if numbers:
            given: list[Given] = [(specs[number], {}, None) for number in numbers]
            seated = seat_strategies(given, rules, timeout=timeout, table=players)
        self.seated = dict(zip(numbers, seated, strict=True))
        self.players: dict[int, Player] = {number: one.player() for number, one in self.seated.items()}

    def play(self, context: TurnContext, seed: Seed, game: GameNumber) -> TurnRecord:
        """The turn of the player the context names, played by its strategy on its seat's dice."""
        player = self.players[context.player].start_turn(context, seed, game)
        return play_turn(self.rules, turn_rolls(seed, game, context.round, context.seat), player)

    def close(self) -> None:
        """End the hosts of the users' strategies."""
        for one in self.seated.values():
            one.close()
