"""Exact tournaments: for a field of exact strategies (their play depends only on the open tiles
and the dice) and keyed ones where their key allows it (`target` in a one-round game: each turn
played from its table for the key it sees, `shutbox_cli.game.exact_keyed`), every seating of every
matchup is one exact game, so the ranking, the head-to-head table and the per-seat figures are
chances, not estimates.

A matchup's seatings are the rotations a simulated tournament deals (seat `s` of rotation `r` holds
player `(r + s) % table`), so the figures are what a simulated tournament tends to as its games
grow. Nothing is dealt: there is no seed, `games` does not apply, and neither do duplicate deals
(sharing dice only lowers a simulation's noise). Chances are fractions in a one-round game (about
as costly as tabulating the strategies) and floats over several rounds or in drop-out, where the
totals' convolutions make fractions slow; `arithmetic` says which.

Who finished ahead of whom (`tally.finished_ahead`) is computed exactly at a table of two, where it
is winning outright (level: sharing the win). At a larger table it needs the joint outcome of every
pair of seats, which the seat-by-seat walk of an exact game does not give: there the head-to-head
table keeps its win rates, and `ahead`, `tied`, `behind` and `ahead_rate` are None.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import THROWS, GameOdds, Rules, Solution, Ties, TurnOdds, distribution, exact_turn_odds
from shutbox_cli.game.exact_cost import games_cost, pairs_cost
from shutbox_cli.game.exact_games import Arithmetic
from shutbox_cli.game.exact_keyed import KeyedTurns, TurnStart, changes, keyed_game_odds, unsupported
from shutbox_cli.game.solver import layered_distribution, walk_by_layers
from strategies.base import Strategy
from strategies.keys import KeyedContext, checked_key, declared_key
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import PolicyTable

from ..errors import ConfigError, TournamentFailure, marked, setting
from ..field.config import TournamentConfig
from ..field.entries import StrategyEntry
from ..statistics.standings import HeadToHead, SeatStanding, Standing

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

Chance = Fraction | float
"""An exact chance: a fraction, or a float where fractions cost too much."""
Turns = TurnOdds[Any] | KeyedTurns[Any]
"""A strategy's turns in exact games: one turn distribution, or one per key (`exact_keyed`)."""
KEY_DIGITS = 12
"""Float figures are ranked on this many decimals, so rounding noise never orders equal strategies."""
STEPS_PER_SECOND = 3_000_000
"""About how many steps of an exact game's walk (`exact_cost`) one core takes a second, in floats
(measured: 250-700 ns a step); a step in fractions costs about `FRACTION_STEPS` of them."""
FRACTION_STEPS = 10
MOST_SECONDS = 180
"""The longest an exact tournament or duel is estimated to take, or it is refused (the longest of
them shows no progress while one game is computed)."""
MOST_TOTALS = 1_000_000
"""The most totals one seat's walk may hold at once (about 100 bytes each, a few seats' at a time)."""


def uses_fractions(rules: Rules) -> bool:
    """Whether exact games under these rules are computed in fractions: one-round games are."""
    return rules.drop_out is None and rules.rounds == 1


def refuse_inexact(
    name: str, exact: bool, context_free: bool, key: tuple[str, ...] | None, rules: Rules, table: int
) -> None:
    """A ConfigError naming a strategy whose games at a table of `table` cannot be computed exactly
    under these rules, and why: an exact strategy's can, and a keyed one's where its key is known
    at the start of every turn (`exact_keyed.unsupported`)."""
    if exact:
        return
    if key is not None:
        keyed = unsupported(rules, key, table)
        if keyed is None:
            return
        raise ConfigError(
            f"{name!r} cannot be computed exactly under these rules ({keyed}): "
            "its games can be simulated, not computed exactly."
        )
    if context_free:
        why = "it is stochastic"
    elif rules.drop_out is not None and table != 2:
        rivals = "its own total" if table == 1 else "the totals of several rivals"
        why = (
            f"it reads the game context, which in drop-out at a table of {table} follows {rivals}; exact games "
            "follow a context that a strategy's key names in drop-out at a table of two"
        )
    elif rules.multi_round and rules.drop_out is None and table != 2:
        rivals = "its own total" if table == 1 else "the totals of several rivals"
        why = (
            f"it reads the game context, which in a game of several rounds at a table of {table} follows {rivals}; "
            "exact games follow a context that a strategy's key names over several rounds at a table of two"
        )
    else:
        why = "it reads the game context without a key"
    raise ConfigError(f"{name!r} is not an exact strategy ({why}): its games can be simulated, not computed exactly.")


def turn_odds(seated: SeatedStrategy, fractions: bool) -> TurnOdds[Any]:
    """An exact strategy's turn distribution from a full box, from its table: its answers for
    every box and roll, made in its host for a user's strategy and checked here (a built-in's is
    kept in this process for the next run); a strategy that fails while answering is a
    TournamentFailure."""
    return _odds(seated.rules, lambda: seated.table, fractions)


def seat_turns(seated: SeatedStrategy, fractions: bool, table: int) -> Turns:
    """A strategy's turns in exact games at a table of `table`: an exact one's turn distribution
    (`turn_odds`), a keyed one's (`exact_key`) for each key it meets, each made once: a built-in
    that plays a solver's policy, from that policy; any other from its table for that key (made in
    its host for a user's strategy and checked here)."""
    key = exact_key(seated, table)
    if key is None:
        return turn_odds(seated, fractions)
    rules = seated.rules
    strategy = _instance(seated)
    solved = getattr(type(strategy), "_solved_for", None) if strategy is not None else None
    found: dict[tuple[Any, ...], TurnOdds[Any]] = {}
    alike: dict[Any, tuple[Any, TurnOdds[Any]]] = {}  # keys played alike (many are): one distribution

    def policy(values: tuple[Any, ...]) -> tuple[Any, Any, Callable[[], PolicyTable | Solution]]:
        """The policy a key is played with: what tells it apart, itself, and how to play it."""
        if solved is not None:
            solution = solved(strategy, rules, KeyedContext(key, values))
            return id(solution), solution, lambda: solution
        try:
            table = seated.keyed_table(values)
        except (StrategyError, StrategyLoadError) as error:
            raise TournamentFailure(marked(error)) from None
        return table.next_mask.tobytes() + table.dice, table, lambda: table

    def odds(values: tuple[Any, ...]) -> TurnOdds[Any]:
        known = found.get(values)
        if known is None:
            played, kept, play = policy(values)
            same = alike.get(played)
            if same is None:
                same = alike[played] = (kept, _odds(rules, play, fractions, keyed=True))
            known = same[1]
            if solved is None:  # a built-in's policy is asked quickly again (over many rounds, of many keys)
                found[values] = known
        return known

    return KeyedTurns(key, odds)


def exact_key(seated: SeatedStrategy, table: int) -> tuple[str, ...] | None:
    """The features a strategy is keyed on in exact games at a table of `table`: a built-in's
    `key_at(rules, table)` where it has one (target's key in drop-out at a table of two), else
    its declared key."""
    strategy = _instance(seated)
    if strategy is None:
        return seated.key
    return _key_at(type(strategy), seated.rules, table, seated.name, seated.key)


def _instance(seated: SeatedStrategy) -> Strategy | None:
    """A built-in's instance (None for a user's strategy, which runs in its host)."""
    if not seated.builtin:
        return None
    player = seated.player()
    return player.strategy if isinstance(player, StrategyPlayer) else None


def _key_at(
    cls: type[Any], rules: Rules, table: int, name: str, declared: tuple[str, ...] | None
) -> tuple[str, ...] | None:
    at = getattr(cls, "key_at", None)
    return declared if at is None else checked_key(at(rules, table), name)


def _odds(
    rules: Rules, policy: Callable[[], PolicyTable | Solution], fractions: bool, keyed: bool = False
) -> TurnOdds[Any]:
    """A policy's turn odds; in floats, a keyed seat's (thousands of them, target's) walked a layer
    of boxes at a time, alike for a built-in's solution and a host's table of the same policy."""
    try:
        played = policy()
        move, dice = (
            (played.move, played.dice_count)
            if isinstance(played, PolicyTable)
            else (played.best_move, played.best_dice)
        )
        if fractions:
            return exact_turn_odds(rules, move, dice)
        if keyed:
            if isinstance(played, Solution):
                return TurnOdds.of(layered_distribution(played))
            return TurnOdds.of(walk_by_layers(rules, list(played.dice), _after(played)))
        return TurnOdds.of(distribution(rules, move, dice))
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None


def _after(table: PolicyTable) -> list[list[int]]:
    """The box each throw leaves from each box, by a policy table (anything where it is not rolled)."""
    width = len(THROWS)
    return [list(table.next_mask[start : start + width]) for start in range(0, len(table.next_mask), width)]


def first_turn(seat: Turns, table: int) -> TurnOdds[Any]:
    """A seat's turn odds as seat 0 of a table of `table` sees them at the start of a game."""
    if isinstance(seat, TurnOdds):
        return seat
    return seat.odds(seat.key(TurnStart(0, 0, False, 0, None, 0, table - 1, 0 if table > 1 else None)))


@dataclasses.dataclass(frozen=True)
class Walked:
    """The games walked over both totals (games of two seats over several rounds or drop-out, one
    keyed on what changes: `exact_pairs`), and by strategy whether its turns are asked of its host."""

    pairs: tuple[tuple[int, ...], ...] = ()
    hosted: tuple[bool, ...] = ()


def refuse_costly(
    rules: Rules,
    turns: Sequence[TurnOdds[Any]],
    games: Sequence[Sequence[int]],
    copies: int,
    what: str,
    instead: str,
    margins: bool = False,
    walked: Walked = Walked(),
    most_seconds: float = MOST_SECONDS,
) -> None:
    """A ConfigError, before anything is computed, if `copies` of each of `games` (`exact_cost`)
    would take longer than `most_seconds` or hold more than `MOST_TOTALS` totals per seat; it says
    what would take that long (`what`), what fits (fewer rounds, a lower drop-out limit, fewer
    strategies) and what to do `instead`. The games of `walked.pairs` are walked over both totals
    (`exact_pairs`), the others seat by seat."""
    work = _Work(turns, games, copies, margins, walked)
    if work.fits(rules, most_seconds):
        return
    seconds, totals = work.seconds(rules)
    held = f" and hold {totals:,} totals per seat at once" if totals > MOST_TOTALS else ""
    raise ConfigError(
        f"{what} would take about {_duration(seconds)}{held}, past the limits of about {_duration(most_seconds)} "
        f"and {MOST_TOTALS:,} totals: {_what_fits(rules, work, most_seconds)}; or {instead}."
    )


@dataclasses.dataclass(frozen=True)
class _Work:
    """What an exact run would compute: `copies` of each of `games` of these turns, the games of
    `walked.pairs` walked over both totals and the others seat by seat."""

    turns: Sequence[TurnOdds[Any]]
    games: Sequence[Sequence[int]]
    copies: int
    margins: bool
    walked: Walked

    def seconds(self, rules: Rules) -> tuple[float, int]:
        """About how long the work takes under `rules`, and the most totals a seat holds."""
        pairs = set(self.walked.pairs)
        cost = games_cost(rules, self.turns, [game for game in self.games if tuple(game) not in pairs], self.margins)
        if pairs:
            walked = [game for game in self.games if tuple(game) in pairs]
            cost += pairs_cost(rules, self.turns, walked, self.walked.hosted)
        steps = cost.steps * self.copies * (FRACTION_STEPS if uses_fractions(rules) else 1)
        return steps / STEPS_PER_SECOND, cost.totals

    def fits(self, rules: Rules, most_seconds: float = MOST_SECONDS) -> bool:
        """Whether the work stays within the limits of time and totals under `rules`."""
        seconds, totals = self.seconds(rules)
        return seconds <= most_seconds and totals <= MOST_TOTALS


def _what_fits(rules: Rules, work: _Work, most_seconds: float = MOST_SECONDS) -> str:
    """The most rounds, or the highest drop-out limit, that fits (found by halving), or fewer strategies."""
    key, most = ("rounds", rules.rounds) if rules.drop_out is None else ("drop_out", rules.drop_out)
    low, high = 0, most  # low fits (0: nothing does), high does not
    while high - low > 1:
        middle = (low + high) // 2
        fewer = (
            dataclasses.replace(rules, rounds=middle)
            if key == "rounds"
            else dataclasses.replace(rules, drop_out=middle)
        )
        if work.fits(fewer, most_seconds):
            low = middle
        else:
            high = middle
    if low == 0:
        return "enter fewer strategies"
    if key == "rounds":
        return f"up to {low:,} round{'s' if low > 1 else ''} fit{'' if low > 1 else 's'}"
    return f"a drop-out limit up to {low:,} fits"


def walked_pairs(
    rules: Rules, turns: Sequence[Turns], games: Sequence[Sequence[int]], hosted: Sequence[bool]
) -> Walked:
    """Which of `games` are walked over both totals: games of two seats over several rounds or
    drop-out, one of them keyed on a feature that changes during the game."""
    if not rules.multi_round:
        return Walked()
    changing = [isinstance(seat, KeyedTurns) and changes(rules, seat.features, 2) for seat in turns]
    pairs = tuple(tuple(game) for game in games if len(game) == 2 and any(changing[player] for player in game))
    return Walked(pairs, tuple(hosted))


def _duration(seconds: float) -> str:
    """Seconds in the unit a person would say them in."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size)
            return f"{count:,} {unit}{'s' if count > 1 else ''}"
    count = max(1, round(seconds))
    return f"{count} second{'s' if count > 1 else ''}"


def game(rules: Rules, turns: Sequence[Turns]) -> GameOdds[Any]:
    """One exact game; a game these rules never end (a playoff of seats that always score alike)
    is a ConfigError."""
    try:
        return keyed_game_odds(rules, turns)
    except ValueError as error:
        raise ConfigError(f"these rules cannot be computed exactly: {error}") from None


@dataclasses.dataclass(frozen=True)
class Seating:
    """One game of a matchup: the strategies in seat order (indices into the field) and its exact odds."""

    players: tuple[int, ...]
    odds: GameOdds[Any]


@dataclasses.dataclass(frozen=True)
class ExactSummary:
    """A finished exact tournament: the same ranking and head-to-head figures as a `Summary`, with
    chances in place of estimates and no intervals (a standing's intervals are its value, twice),
    and figures per seat.

    A "game" here is one seating computed exactly: a standing's `games` counts its seatings,
    `wins` its expected wins over them, `turns` its expected turns. `seatings[m][r]` is rotation
    `r` of matchup `m`; `arithmetic` says whether the chances were fractions or floats.
    """

    config: TournamentConfig
    seatings: tuple[tuple[Seating, ...], ...]
    ranking: tuple[Standing, ...]
    head_to_head: tuple[HeadToHead, ...]
    seats: tuple[SeatStanding, ...]
    arithmetic: Arithmetic

    @property
    def games(self) -> int:
        """The seatings computed: one exact game each."""
        return sum(len(matchup) for matchup in self.seatings)

    def __repr__(self) -> str:
        from ..briefly import brief, counted, ranked

        computed = (
            f"of {counted(len(self.ranking), 'strategy', 'strategies')}, {counted(self.games, 'seating')} computed"
        )
        return brief("ExactSummary", computed, ranked(self.ranking, self.solo))

    @property
    def solo(self) -> bool:
        return self.config.table == 1

    @property
    def exact(self) -> bool:
        return True

    @property
    def matchups(self) -> int:
        return len(self.seatings)

    @property
    def games_per_matchup(self) -> int:
        """The seatings of a matchup: one per rotation."""
        return self.config.table

    @property
    def seed(self) -> None:
        """Nothing is dealt: no seed."""
        return None

    @property
    def seed_drawn(self) -> bool:
        return False

    @property
    def unresolved(self) -> float:
        """The largest chance left unfollowed in any game (0 unless a drop-out game may last for ever)."""
        return max((float(seating.odds.unresolved) for matchup in self.seatings for seating in matchup), default=0.0)


@dataclasses.dataclass
class _Sums:
    """Expected figures added up over some seatings of one strategy."""

    games: int = 0
    wins: Chance = 0
    played: Chance = 0
    turns: Chance = 0
    total: Chance = 0
    ahead: Chance = 0
    tied: Chance = 0
    score: Chance = 0
    shuts: Chance = 0

    def add(self, odds: GameOdds[Any], seat: int) -> None:
        figures = odds.seats[seat]
        self.games += 1
        self.wins += figures.win
        self.played += figures.played
        self.turns += figures.turns
        self.total += figures.expected_total
        self.score += figures.turns * figures.expected_score
        self.shuts += figures.turns * figures.shut_probability
        if len(odds.seats) == 2:
            tied = odds.tie if odds.rules.ties is Ties.SHARE else 0
            self.ahead += figures.win - tied / 2
            self.tied += tied

    @property
    def win_rate(self) -> Chance:
        return self.wins / self.games if self.games else 0

    @property
    def mean_total(self) -> float | None:
        return float(self.total / self.played) if self.played else None

    def mean_rounds(self, rules: Rules) -> float | None:
        return float(self.turns / self.games) if rules.drop_out is not None and self.games else None


def _key(value: Chance) -> Chance:
    return round(value, KEY_DIGITS) if isinstance(value, float) else value


def run_exact(
    config: TournamentConfig,
    progress: Callable[[int, int], None] | None = None,
    *,
    gauntlet: int = 0,
    kept: KeptTurns | None = None,
) -> ExactSummary:
    """Compute an exact tournament in this process; `progress` is told the seatings done and their
    total. Given a `gauntlet`, only the matchups that seat one of its first `gauntlet` strategies are
    computed (the rest's figures are then of those games alone: a tune reads its candidate's). Given
    `kept`, the turns of the strategies after the first `gauntlet` (the field) are taken from it, or
    made and kept there for the next run (a tune's next candidate). Raises ConfigError for a
    strategy that cannot be computed exactly (or rules whose games never end) and TournamentFailure
    for a strategy that fails while answering."""
    rules, table = config.rules, config.table
    for entry in config.strategies:
        refuse_inexact(entry.name, entry.exact, entry.context_free, entry_key(entry, rules, table), rules, table)
    fractions = uses_fractions(rules)
    matchups = [
        one for one in itertools.combinations(range(len(config.strategies)), table) if not gauntlet or one[0] < gauntlet
    ]
    total = len(matchups) * table
    with contextlib.ExitStack() as stack:
        turns = _turns(config, fractions, stack, gauntlet, kept)
        refuse_costly(
            rules,
            [first_turn(seat, table) for seat in turns],
            matchups,
            table,
            f"computing these {total:,} games exactly",
            f"simulate them (without {setting('method', 'exact')})",
            walked=walked_pairs(rules, turns, matchups, [not entry.builtin for entry in config.strategies]),
        )
        if progress is not None:
            progress(0, total)
        seatings: list[tuple[Seating, ...]] = []
        for players in matchups:
            found = []
            for rotation in range(table):
                order = tuple(players[(rotation + seat) % table] for seat in range(table))
                found.append(Seating(order, game(rules, [turns[player] for player in order])))
                if progress is not None:
                    progress(len(seatings) * table + rotation + 1, total)
            seatings.append(tuple(found))
    return _summarise(config, tuple(seatings), turns, "fraction" if fractions else "float")


def entry_key(entry: StrategyEntry, rules: Rules, table: int | None = None) -> tuple[str, ...] | None:
    """The features a strategy is keyed on under these rules (a user's, as its host said), in exact
    games at a table of `table` where given (`exact_key`)."""
    if entry.context_free or not entry.builtin:
        return entry.key
    cls = entry.load().cls
    declared = declared_key(cls, rules, entry.name)
    return declared if table is None else _key_at(cls, rules, table, entry.name, declared)


class KeptTurns:
    """The field's turns kept across the exact runs of one tune (`run_exact`'s `kept`), so that only
    each candidate's own are made again: a strategy's turns are kept under its spec, parameters and
    name, the rules, the arithmetic and the table. A keyed one's are made as the games meet its keys,
    so a user's keyed strategy keeps its host (asked for the tables of the keys met) until this closes."""

    def __init__(self) -> None:
        self._turns: dict[tuple[Any, ...], Turns] = {}
        self._hosts = contextlib.ExitStack()

    @staticmethod
    def key(entry: StrategyEntry, config: TournamentConfig, fractions: bool) -> tuple[Any, ...]:
        """What a strategy's turns are kept under in this tournament."""
        given = json.dumps(dict(entry.params), sort_keys=True, default=repr)
        return (entry.spec.strip(), given, entry.name, config.rules, fractions, config.table, config.timeout)

    def get(self, key: tuple[Any, ...]) -> Turns | None:
        """The turns kept under `key`, if any."""
        return self._turns.get(key)

    def keep(self, key: tuple[Any, ...], turns: Turns) -> None:
        """Keep a strategy's turns under `key`."""
        self._turns[key] = turns

    def hold(self, seated: SeatedStrategy) -> None:
        """Keep a strategy's host until this closes."""
        self._hosts.callback(seated.close)

    def __enter__(self) -> KeptTurns:
        return self

    def __exit__(self, *raised: object) -> None:
        self.close()

    def close(self) -> None:
        """Forget the turns kept and end the hosts kept."""
        self._turns.clear()
        self._hosts.close()


def _turns(
    config: TournamentConfig,
    fractions: bool,
    stack: contextlib.ExitStack,
    gauntlet: int = 0,
    kept: KeptTurns | None = None,
) -> list[Turns]:
    """Every strategy's turns (`seat_turns`), a user's from the tables its host makes; with `kept`,
    those of the strategies after the first `gauntlet` are taken from it where it holds them, and
    kept there when made. The hosts load side by side, each within the run's time limit; an exact
    strategy's ends once its table is in, a keyed one's when `stack` closes, or `kept` for one kept
    there (its tables are made as the games meet its keys)."""
    from ..referee.seated import seat_strategies

    entries = config.strategies
    keys = {
        index: KeptTurns.key(entries[index], config, fractions)
        for index in range(gauntlet if kept is not None else len(entries), len(entries))
    }
    found = {index: turns for index, key in keys.items() if kept is not None and (turns := kept.get(key)) is not None}
    missing = [index for index in range(len(entries)) if index not in found]
    given = [(entries[index].spec, entries[index].params, entries[index].name) for index in missing]
    try:
        seated = seat_strategies(given, config.rules, timeout=config.timeout, memory_limit_mib=config.memory_limit)
    except StrategyLoadError as error:
        raise TournamentFailure(marked(error)) from None
    for index, one in zip(missing, seated, strict=True):
        if kept is not None and index in keys:
            kept.hold(one)
        else:
            stack.callback(one.close)
    for index, one in zip(missing, seated, strict=True):
        turns = found[index] = seat_turns(one, fractions, config.table)
        if kept is not None and index in keys:
            kept.keep(keys[index], turns)
        if one.key is None:
            one.close()
    return [found[index] for index in range(len(entries))]


def _summarise(
    config: TournamentConfig,
    seatings: tuple[tuple[Seating, ...], ...],
    turns: Sequence[Turns],
    arithmetic: Arithmetic,
) -> ExactSummary:
    """Standings, ranking, head-to-head and per-seat figures from every seating's odds."""
    count, table, rules = len(config.strategies), config.table, config.rules
    sums = [_Sums() for _ in range(count)]
    by_seat = [[_Sums() for _ in range(table)] for _ in range(count)]
    pairs = [[[_Sums() for _ in range(table)] for _ in range(count)] for _ in range(count)]
    for matchup in seatings:
        for seating in matchup:
            for seat, player in enumerate(seating.players):
                sums[player].add(seating.odds, seat)
                by_seat[player][seat].add(seating.odds, seat)
                for other in seating.players:
                    if other != player:
                        pairs[player][other][seat].add(seating.odds, seat)
    solo = table == 1
    names = config.names
    per_turn = [_per_turn(seat, figures) for seat, figures in zip(turns, sums, strict=True)]

    def rank_key(index: int) -> tuple[Any, ...]:
        score, shut = per_turn[index]
        if solo:
            return (_key(score), -_key(shut), names[index])
        return (-_key(sums[index].win_rate), _key(score), names[index])

    order = sorted(range(count), key=rank_key)
    ranking = tuple(_standing(config.strategies[index], sums[index], per_turn[index], rules) for index in order)
    head_to_head = tuple(
        _head_to_head(names[a], names[b], pairs[a][b], pairs[b][a], table == 2)
        for a in order
        for b in order
        if a != b and pairs[a][b][0].games
    )
    seats = tuple(
        SeatStanding(
            names[index],
            seat + 1,
            figures.games,
            float(figures.wins),
            float(figures.win_rate),
            figures.mean_total,
            figures.mean_rounds(rules),
        )
        for index in order
        for seat, figures in enumerate(by_seat[index])
    )
    return ExactSummary(config, seatings, ranking, head_to_head, seats, arithmetic)


def _per_turn(seat: Turns, sums: _Sums) -> tuple[Chance, Chance]:
    """A strategy's expected score and shut-box chance per regular turn: an exact strategy's turn's,
    a keyed one's over the turns of its seatings (its keys' turns in proportion)."""
    if isinstance(seat, TurnOdds):
        return seat.expected_score, seat.shut_probability
    if not sums.turns:
        return 0, 0
    return sums.score / sums.turns, sums.shuts / sums.turns


def _standing(entry: StrategyEntry, sums: _Sums, per_turn: tuple[Chance, Chance], rules: Rules) -> Standing:
    rate, score, shut = float(sums.win_rate), float(per_turn[0]), float(per_turn[1])
    return Standing(
        name=entry.name,
        spec=entry.spec,
        games=sums.games,
        wins=float(sums.wins),
        win_rate=rate,
        win_interval=(rate, rate),
        turns=float(sums.turns),
        mean_score=score,
        score_interval=(score, score),
        mean_total=sums.mean_total,
        shut_rate=shut,
        shut_interval=(shut, shut),
        mean_rounds=sums.mean_rounds(rules),
    )


def _head_to_head(
    strategy: str, opponent: str, seats: Sequence[_Sums], against: Sequence[_Sums], finishes: bool
) -> HeadToHead:
    """The pair's figures from the sums of `strategy` (`seats`) and of `opponent` (`against`) over
    their seatings together; `finishes`: who finished ahead is known (a table of two)."""
    games = sum(figures.games for figures in seats)
    wins = sum(figures.wins for figures in seats)
    ahead = sum(figures.ahead for figures in seats)
    tied = sum(figures.tied for figures in seats)
    return HeadToHead(
        strategy=strategy,
        opponent=opponent,
        games=games,
        wins=float(wins),
        win_rate=float(wins / games),
        ahead=float(ahead) if finishes else None,
        tied=float(tied) if finishes else None,
        behind=float(sum(figures.ahead for figures in against)) if finishes else None,
        ahead_rate=float((ahead + tied / 2) / games) if finishes else None,
        by_seat=tuple(float(figures.win_rate) for figures in seats),
    )
