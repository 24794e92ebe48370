"""Shut the Box as a PettingZoo AEC environment: a table of agents (`player_0` ...), each deciding
its own turns, under any rules (docs/rl.md). The game is the engine's own (`match.GameInPlay`: seat
order, rounds, drop-out, instant wins, ties and playoffs as the rules say), each turn on shutbox's
dice of its seat (`turn_rolls(seed, game, round, seat)`); the seed and game as in the Gymnasium
environment (`env`). An agent observes a dict: `observation` (the encoding's array) and
`action_mask` (1 for each legal action; all 0 while another agent decides)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .extra import needed

with needed():
    from gymnasium import spaces
    from pettingzoo import AECEnv

from shutbox_cli.game import GameInPlay, Rules, TurnContext
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.encoding import Observation, encoding

from .env import SEEDS, checked_action, rules_of, shown_line
from .fields import checked_reward, game_reward, turn_reward
from .turns import AgentTurn

AgentObservation = dict[str, Any]
"""What an agent observes: {"observation": the encoding's array, "action_mask": int8 0/1 per action}."""


class ShutTheBoxAEC(AECEnv[str, AgentObservation, int]):  # type: ignore[misc]  # AECEnv is untyped
    """A game of `players` agents (2 or more) under `rules` (or the rule options given), each paid
    the `reward` it picks (`fields.REWARDS`, the win by default). `options={"first_seat": k}` at
    `reset` seats player k first (the rematch's rotation); an illegal action is refused, and one
    outside the action space is a ValueError, as in `env`."""

    metadata = {"name": "shutbox_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        players: int = 2,
        reward: str = "win",
        shut_bonus: float = 0.0,
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}.')
        self.render_mode = render_mode
        if isinstance(players, bool) or not isinstance(players, int) or players < 2:
            raise ValueError(f"players must be a whole number of at least 2, not {players!r}.")
        self.rules = rules_of(rules, options)
        self.reward = checked_reward(reward, shut_bonus)
        self.shut_bonus = float(shut_bonus)
        self.illegal_reward = float(illegal_reward)
        self.table = players
        self.coded = encoding(self.rules, players)
        self.possible_agents = [f"player_{number}" for number in range(players)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(self.coded.low, self.coded.high, dtype=np.int64),
                "action_mask": spaces.Box(0, 1, (self.coded.actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.coded.actions)
        self.seed_key: Seed | None = None
        self.game: GameNumber = 0
        self._rng = np.random.default_rng()
        self._game: GameInPlay | None = None
        self._turn: AgentTurn | None = None
        self._last: list[Observation] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: game 0 of `seed`, else the next game of the seed in force (or `options["game"]`)."""
        if seed is not None or self.seed_key is None:
            self._rng = np.random.default_rng(seed)
            self.seed_key = seed if seed is not None else int(self._rng.integers(SEEDS))
            self.game = 0
        else:
            self.game += 1
        options = options or {}
        self.game = int(options.get("game", self.game))
        first = int(options.get("first_seat", 0))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._game = game = GameInPlay(self.rules, self.table, first)
        everyone = (True,) * self.table
        self._last = [
            self.coded.observe(
                self.rules.full_box,
                None,
                TurnContext(
                    number, (number - first) % self.table, 0, False, (None,) * self.table, (0,) * self.table, everyone
                ),
            )
            for number in range(self.table)
        ]
        assert game.next_turn is not None
        self._start(game.next_turn)

    def observe(self, agent: str) -> AgentObservation:
        number = self.possible_agents.index(agent)
        turn = self._turn
        if turn is not None and turn.context.player == number:
            return {"observation": turn.observation(), "action_mask": turn.action_mask().astype(np.int8)}
        return {"observation": self._last[number], "action_mask": np.zeros(self.coded.actions, dtype=np.int8)}

    def step(self, action: int | None) -> None:
        """The agent selected answers its question; the game plays on to the next question (the
        agent deciding is then selected) or its end (every agent terminated, paid its share of the win)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, turn = self._game, self._turn
        assert game is not None and turn is not None
        action = checked_action(self._action_space, action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not turn.legal(action):  # refused: the question stands
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.infos[agent] = {}
        turn.answer(action)
        if turn.over:
            record = turn.record()
            self.rewards[agent] += turn_reward(self.reward, self.shut_bonus, turn.context, record)
            self.infos[agent]["score"] = record.score
            self._last[turn.context.player] = turn.observation()
            game.play(record)
            if game.next_turn is not None:
                self._start(game.next_turn)
            else:
                self._turn = None
                winners = game.record.winners
                for number, each in enumerate(self.possible_agents):
                    self.rewards[each] += game_reward(self.reward, number, game.record)
                    self.terminations[each] = True
                    self.infos[each]["winners"] = tuple(self.possible_agents[one] for one in winners)
                    self.infos[each]["totals"] = game.record.totals
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The agent deciding, its box and its roll as a line of text (with render_mode="ansi")."""
        if self.render_mode != "ansi" or self._turn is None:
            return None
        return f"{self.agent_selection}: {shown_line(self.coded, self._turn.observation())}"

    def close(self) -> None:
        """Nothing to end: a table of agents starts no process."""

    def _before(self, number: int, first: int) -> TurnContext:
        """The context of player `number`'s first turn as it stands before anyone has played."""
        table = self.table
        return TurnContext(number, (number - first) % table, 0, False, (None,) * table, (0,) * table, (True,) * table)

    def _start(self, context: TurnContext) -> None:
        """The turn the game waits for: its player selected, its first question waiting."""
        assert self.seed_key is not None
        self._turn = AgentTurn(self.rules, self.coded, context, self.seed_key, self.game)
        self.agent_selection = self.possible_agents[context.player]
