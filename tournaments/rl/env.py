"""Shut the Box as a Gymnasium environment of one player (docs/rl.md): an episode is one shutbox
game, played by the engine's own game (`match.GameInPlay`), the agent in its seat and a field of
shutbox strategies before and after it; the dice are shutbox's own, keyed by the seed and the game.

`reset(seed=s)` plays game 0 of seed `s`, each later `reset()` the next game (`options={"game": g}`:
game g): the same dice as every shutbox game g of seed s (`analyze --seed s` plays games 0 up, each
seat k of round r rolling `turn_rolls(s, g, r, k)`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .extra import needed

with needed():
    import gymnasium as gym
    from gymnasium import spaces

from shutbox_cli.game import GameInPlay, Rules, TurnContext
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.encoding import ActionMask, Encoding, Observation, encoding

from ..referee.seated import STRATEGY_TIMEOUT
from .fields import Field, checked_reward, field_specs, game_reward, turn_reward
from .turns import AgentTurn

SEEDS = 2**63
"""A seed drawn when none was given is below this."""


def rules_of(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    """The rules given, or those the options name (as a rules table spells them: `tiles=12`,
    `one_die="low-sum"`); RulesError (one sentence) for an option the rules do not accept."""
    if rules is not None:
        if options:
            raise ValueError("give either a Rules object or rule options, not both.")
        return rules
    return Rules.from_mapping(options)


def checked_action(space: spaces.Discrete, action: object) -> int:
    """An action of the space as a whole number; ValueError in one sentence for one outside it (not
    an integer, or out of range: the caller's error, as Gymnasium has it). Whether the question
    waiting allows it is the mask's to say."""
    if not (isinstance(action, (int, np.integer, np.ndarray)) and space.contains(action)):
        last = int(space.start) + int(space.n) - 1
        raise ValueError(
            f"action {action!r} is outside the action space, the whole numbers from {space.start} to {last}."
        )
    return int(action)


def shown_line(coded: Encoding, observation: Observation) -> str:
    """An observation's box and roll as a line of text: `box 1 2 - 4 ...  roll 3+6`."""
    shown = coded.describe(observation)
    box = " ".join(str(tile) if shown[f"tile_{tile}"] else "-" for tile in range(1, coded.rules.tiles + 1))
    dice = "+".join(str(shown[name]) for name in ("die_1", "die_2") if shown[name])
    return f"box {box}" + (f"  roll {dice}" if dice else "")


class ShutTheBoxEnv(gym.Env[Observation, np.int64]):
    """One player's game of Shut the Box under any rules, against a field of shutbox strategies
    seated `before` and `after` it (a spec, or a sequence of specs, as every command takes them), paid
    the `reward` it picks (`fields.REWARDS`). The action mask is `info["action_mask"]` and
    `action_masks()`; an action it does not allow is refused (the question stands, `illegal_reward`
    paid, `info["illegal_action"]`); an action outside the action space is a ValueError."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # Env declares it a plain attribute

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        reward: str = "score",
        shut_bonus: float = 0.0,
        illegal_reward: float = 0.0,
        before: str | Sequence[str] = (),
        after: str | Sequence[str] = (),
        timeout: float = STRATEGY_TIMEOUT,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.rules = rules_of(rules, options)
        self.reward = checked_reward(reward, shut_bonus)
        self.shut_bonus = float(shut_bonus)
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}.')
        self.render_mode = render_mode
        seated_before, seated_after = field_specs("before", before), field_specs("after", after)
        self.me = len(seated_before)
        self.table = self.me + 1 + len(seated_after)
        specs = {
            **dict(enumerate(seated_before)),
            **{self.me + 1 + index: spec for index, spec in enumerate(seated_after)},
        }
        self.field = Field(self.rules, specs, self.table, timeout)
        self.coded = encoding(self.rules, self.table)
        self.observation_space = spaces.Box(self.coded.low, self.coded.high, dtype=np.int64)
        self.action_space = self._actions = spaces.Discrete(self.coded.actions)
        self.seed_key: Seed | None = None
        self.game: GameNumber = 0
        self._game: GameInPlay | None = None
        self._turn: AgentTurn | None = None
        self._formality = False
        self._last: Observation = self.coded.observe(self.rules.full_box, None)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a game: game 0 of `seed`, else the next game of the seed in force (one drawn
        from `np_random` at first), or `options["game"]`; its first question to the agent."""
        super().reset(seed=seed)
        if seed is not None or self.seed_key is None:
            self.seed_key = seed if seed is not None else int(self.np_random.integers(SEEDS))
            self.game = 0
        else:
            self.game += 1
        if options and "game" in options:
            self.game = int(options["game"])
        self._game = GameInPlay(self.rules, self.table)
        self._turn = None
        self._play_field()
        self._formality = self._turn is None
        if self._formality:  # a seat before the agent's shut the box and won at once
            first = self._game.record.rounds[0]
            unplayed = TurnContext(self.me, self.me, 0, False, first.scores, (0,) * self.table, (True,) * self.table)
            self._last = self.coded.observe(self.rules.full_box, None, unplayed)
        return self._observed(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Answer the question waiting; play on to the agent's next question or the game's end."""
        game, turn = self._game, self._turn
        if game is None or (turn is None and not self._formality):
            raise RuntimeError("the game is over (or not started): call reset() first.")
        action = checked_action(self._actions, action)
        info: dict[str, Any] = {}
        reward = 0.0
        if not self._legal(action):  # refused: the question stands
            return self._observed(), self.illegal_reward, False, False, {**self._info(), "illegal_action": True}
        if turn is None:  # the formality: the agent's one step in a game it did not play
            self._formality = False
            info["played"] = False
        else:
            turn.answer(action)
            if turn.over:
                record = turn.record()
                reward += turn_reward(self.reward, self.shut_bonus, turn.context, record)
                info["score"] = record.score
                game.play(record)
                self._last = turn.observation()
                self._turn = None
                self._play_field()
        over = self._turn is None
        if over:
            reward += game_reward(self.reward, self.me, game.record)
            info["winners"], info["totals"] = game.record.winners, game.record.totals
        return self._observed(), reward, over, False, {**self._info(), **info}

    def action_masks(self) -> ActionMask:
        """The legal actions now (as sb3-contrib's MaskablePPO asks them), a new array each time:
        none once the game is over."""
        if self._turn is not None:
            return self._turn.action_mask().copy()
        mask = np.zeros(self.coded.actions, dtype=np.bool_)
        mask[self.coded.two_dice] = self._formality
        return mask

    def render(self) -> str | None:
        """The box and the roll as a line of text (with render_mode="ansi")."""
        return shown_line(self.coded, self._observed()) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """End the hosts of the field's users' strategies."""
        self.field.close()

    def _play_field(self) -> None:
        """Play the field's turns up to the agent's next turn (then wait for its first answer) or the game's end."""
        game = self._game
        assert game is not None and self.seed_key is not None
        while (context := game.next_turn) is not None and context.player != self.me:
            game.play(self.field.play(context, self.seed_key, self.game))
        if context is not None:
            self._turn = AgentTurn(self.rules, self.coded, context, self.seed_key, self.game)

    def _legal(self, action: int) -> bool:
        if self._turn is not None:
            return self._turn.legal(action)
        return bool(self.action_masks()[action])

    def _observed(self) -> Observation:
        """The observation now, a new array each time (a caller may keep or change what it was given)."""
        return self._turn.observation() if self._turn is not None else self._last.copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seed": self.seed_key, "game": self.game}
