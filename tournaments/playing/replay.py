"""One game of a tournament found again, to be watched turn by turn (`shutbox replay`): its matchup,
its seating and its dice, and the command that replays it (as settings: the face writes its line).

A game's dice depend only on the tournament's seed and the game's number (and on `duplicate`),
never on the rest of the field, so a tournament of the matchup's strategies alone, in the same
order, with the same seed, table and rules, deals that game the same dice and seats: the replay
command names just those.
"""

from __future__ import annotations

import dataclasses
import shlex

from shutbox_cli.game import Rules
from strategies.loading import split_spec
from strategies.shown import did_you_mean

from ..errors import Command, ConfigError, Setting, command, setting
from ..field.config import DEFAULT_GAMES, DEFAULT_TABLE, TournamentConfig
from ..field.entries import StrategyEntry
from .plan import GameSlot, Matchup, Plan, WorkUnit, make_plan

FORMAT_OPTIONS = ("tiles", "rounds", "drop_out")
"""The rules whose standard value is the plain default; the others default by these (see docs/rules.md)."""


@dataclasses.dataclass(frozen=True)
class TournamentGame:
    """Game `slot.number` of a matchup: the strategies by player, seated from `slot.first_seat`,
    each seat `s` of round `r` rolling `turn_rolls(plan.deal_seed, slot.dice_game, r, s)`."""

    plan: Plan
    matchup: Matchup
    slot: GameSlot

    @property
    def strategies(self) -> tuple[StrategyEntry, ...]:
        return tuple(self.plan.config.strategies[index] for index in self.matchup.players)

    @property
    def title(self) -> str:
        return f"game {self.slot.number} of {matchup_name(self.plan, self.matchup)}"

    @property
    def command(self) -> Command:
        """The command that replays this game (`shutbox replay` on the command line)."""
        return replay_settings(self.plan.config, self.matchup, self.slot)


def matchup_name(plan: Plan, matchup: Matchup) -> str:
    """`optimal vs tips`: the strategies of a matchup by name, as tournament messages write them."""
    return " vs ".join(plan.config.names[index] for index in matchup.players)


def find_game(config: TournamentConfig, number: int, matchup: str | None = None) -> TournamentGame:
    """Game `number` of the matchup named `matchup` (`a vs b`; needed only when there are several)."""
    if config.seed is None:
        raise ConfigError(f"a replay needs the tournament's seed: give {setting('seed')} (a report holds it).")
    plan = make_plan(config)
    found = _matchup(plan, matchup)
    if not 0 <= number < plan.games_per_matchup:
        raise ConfigError(
            f"{setting('game')} must be from 0 to {plan.games_per_matchup - 1}: each matchup plays "
            f"{plan.games_per_matchup} games, not {number}."
        )
    deal = WorkUnit(0, (found.index,), number // plan.table, 1)
    slot = next(slot for slot in plan.games(deal) if slot.number == number)
    return TournamentGame(plan, found, slot)


def _matchup(plan: Plan, name: str | None) -> Matchup:
    names = [matchup_name(plan, matchup) for matchup in plan.matchups]
    if name is None:
        if len(plan.matchups) == 1:
            return plan.matchups[0]
        raise ConfigError(
            f"the tournament has {len(names)} matchups; name one, such as {setting('matchup', names[0])}."
        )
    wanted = " ".join(name.split()).casefold()
    for matchup, title in zip(plan.matchups, names, strict=True):
        if title.casefold() == wanted:
            return matchup
    shown = ", ".join(repr(title) for title in names[:6]) + (", ..." if len(names) > 6 else "")
    raise ConfigError(
        f"{setting('matchup')} {name!r} is not a matchup of the tournament{did_you_mean(name, names)}; "
        f"its matchups are {shown}."
    )


def replay_command(config: TournamentConfig, matchup: Matchup, slot: GameSlot) -> str:
    """The command that shows this game, as a message names it (`command`): the face writes the
    `shutbox replay` command line, the library its `find_game` call (`Command`), a report the
    command line (`replay_line`)."""
    return command(replay_settings(config, matchup, slot))


def replay_line(said: Command) -> str:
    """A replay as a report names it for a reader at a shell, the `shutbox replay` command line
    the face writes on stderr (`shutbox replay -s a -s b --seed 5 --game 9`); another command as
    the library names it."""
    if said.name != "replay":
        return str(said)
    words = ["shutbox", "replay"]
    for one in said.settings:
        flag = "--" + one.name.replace("_", "-")
        if isinstance(one.value, bool):
            words.append(flag if one.value else "--no-" + flag[2:])
        elif isinstance(one.value, tuple):
            words += [word for spec in one.value for word in ("-s", spec)]
        else:
            words += [flag, str(one.value)]
    return shlex.join(words)


def replay_settings(config: TournamentConfig, matchup: Matchup, slot: GameSlot) -> Command:
    """The `replay` command that shows this game: the matchup's strategies alone, in order, with
    the tournament's seed, table, rules and game number (each setting left out at its default)."""
    given = [Setting("strategies", tuple(_spec(config.strategies[index]) for index in matchup.players))]
    if config.table != DEFAULT_TABLE:
        given.append(Setting("table", config.table))
    if not config.duplicate:
        given.append(Setting("duplicate", False))
    if config.games != DEFAULT_GAMES:
        given.append(Setting("games", config.games))
    given += rule_settings(config.rules)
    given += [Setting("seed", config.seed), Setting("game", slot.number)]
    return Command("replay", settings=tuple(given))


def _spec(entry: StrategyEntry) -> str:
    """A strategy as a field's entry gives it: its spec with its parameters, `NAME=` when named otherwise."""
    target, _ = split_spec(entry.spec)
    spec = target
    if entry.params:
        spec += "(" + ", ".join(f"{key}={value!r}" for key, value in entry.params.items()) + ")"
    return spec if entry.name == spec else f"{entry.name}={spec}"


def rule_settings(rules: Rules) -> list[Setting]:
    """The rules that make these rules, as settings, leaving out every rule at its default."""
    standard = Rules().to_mapping()
    defaults = Rules(tiles=rules.tiles, rounds=rules.rounds, drop_out=rules.drop_out).to_mapping()
    return [
        Setting(name, value)
        for name, value in rules.to_mapping().items()
        if value != (standard if name in FORMAT_OPTIONS else defaults).get(name)
    ]
