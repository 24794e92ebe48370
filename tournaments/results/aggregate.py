"""From tallies to statistics: per-strategy standings, the ranking and the head-to-head table.

Everything is computed from whole-number counts, so the figures do not depend on how
the run was spread over workers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from shutbox_cli.game.terms import Seed

from ..field.config import TournamentConfig
from ..playing.plan import Plan
from ..playing.tally import Tally, share_unit
from ..statistics.ratings import bradley_terry
from ..statistics.standings import HeadToHead, SeatStanding, Standing
from ..statistics.stats import mean_interval, wilson

if TYPE_CHECKING:  # the exact games' module (and its solver) only where an exact run loads it, a
    # match's pairs and Elo (`elo`, `pairs`) only where a match or a gauntlet is played
    from shutbox_cli.game.exact_odds import Arithmetic

    from ..exact.beside import Beside
    from ..playing.units import Forfeit
    from ..statistics.elo import Match
    from ..statistics.pairs import Versus


@dataclasses.dataclass(frozen=True)
class Summary:
    """A finished tournament: what was played (`plan`, and its `config` with the seed it ran
    under), the counts per matchup (`tallies[m][p]` for player `p` of `plan.matchups[m]`), and
    the statistics, best strategy first. `seed_drawn` says the seed was drawn for this run."""

    plan: Plan
    tallies: tuple[tuple[Tally, ...], ...]
    ranking: tuple[Standing, ...]
    head_to_head: tuple[HeadToHead, ...]
    seed_drawn: bool = False
    match: Match | None = None
    """A match of two (`shutbox match`): its pairs, Elo and SPRT."""
    versus: tuple[Versus, ...] = ()
    """A gauntlet of two at a table of two: the two players against each opponent of the field."""
    exactly: Beside | None = None
    """The exact tournament of the same field, where it can be computed: estimated, and where quick
    its exact win rates (`tournaments.exact.beside`)."""
    fingerprints: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each exact strategy's policy fingerprint under the rules, by name (`strategies.fingerprint`)."""
    forfeits: tuple[Forfeit, ...] = ()
    """The failures the run went on after (`running.forfeits`): a forfeited game is not played, a
    disqualified strategy is not in the field summed up."""

    @property
    def config(self) -> TournamentConfig:
        return self.plan.config

    def __repr__(self) -> str:
        from ..briefly import brief, counted, ranked

        played = f"{counted(len(self.ranking), 'strategy', 'strategies')}, {counted(self.games, 'game')}"
        match = "" if self.match is None else f"a match, score {self.match.pairs.score:.2%}"
        kept = [forfeit for forfeit in self.forfeits if not forfeit.disqualified]
        out = ", ".join(forfeit.strategy for forfeit in self.forfeits if forfeit.disqualified)
        lost = counted(len(kept), "forfeit") + f" ({counted(self.forfeited, 'game')})" if kept else ""
        gone = f"{out} disqualified" if out else ""
        seed = f"seed {self.config.seed}"
        return brief("Summary", f"of {played}, {seed}", match, lost, gone, ranked(self.ranking, self.solo))

    @property
    def games(self) -> int:
        """The games played: those dealt, but the forfeited ones."""
        return self.plan.total_games - self.forfeited

    @property
    def forfeited(self) -> int:
        """The games forfeited, not played (a disqualified strategy's are not in the plan summed up)."""
        return sum(forfeit.games for forfeit in self.forfeits if not forfeit.disqualified)

    @property
    def solo(self) -> bool:
        """Whether each table seats one strategy (score statistics, no wins)."""
        return self.plan.table == 1

    @property
    def exact(self) -> bool:
        return False

    @property
    def matchups(self) -> int:
        return len(self.plan.matchups)

    @property
    def games_per_matchup(self) -> int:
        return self.plan.games_per_matchup

    @property
    def seed(self) -> Seed | None:
        return self.config.seed

    @property
    def seats(self) -> tuple[SeatStanding, ...]:
        """Figures by seat: exact tournaments only."""
        return ()

    @property
    def arithmetic(self) -> None:
        """Simulated figures are floats, estimated."""
        return None


class TournamentResults(Protocol):
    """What any finished tournament shows, simulated (`Summary`) or computed exactly
    (`ExactSummary`): a view or a gate reads these and never asks which it has.

    `exact` says the figures are chances, with no intervals (a standing's intervals are its value,
    twice); `games_per_matchup` counts the seatings of a matchup when exact; `seed` is None when
    exact (nothing is dealt), and `arithmetic` None when simulated; `seats` holds the figures by
    seat, which only an exact tournament computes."""

    @property
    def config(self) -> TournamentConfig: ...
    @property
    def ranking(self) -> tuple[Standing, ...]: ...
    @property
    def head_to_head(self) -> tuple[HeadToHead, ...]: ...
    @property
    def seats(self) -> tuple[SeatStanding, ...]: ...
    @property
    def games(self) -> int: ...
    @property
    def solo(self) -> bool: ...
    @property
    def exact(self) -> bool: ...
    @property
    def matchups(self) -> int: ...
    @property
    def games_per_matchup(self) -> int: ...
    @property
    def seed(self) -> Seed | None: ...
    @property
    def seed_drawn(self) -> bool: ...
    @property
    def arithmetic(self) -> Arithmetic | None: ...


def _rank_key(name: str, tally: Tally, solo: bool) -> tuple[object, ...]:
    """Exact sort key: solo tables by lowest mean score, then most shut boxes; matches by
    highest win rate, then lowest mean score; the name last."""
    score = (tally.turns == 0, Fraction(tally.score_sum, tally.turns) if tally.turns else 0)
    if solo:
        return (*score, -Fraction(tally.shut_boxes, max(tally.turns, 1)), name)
    return (-Fraction(tally.win_shares, max(tally.games, 1)), *score, name)


def _standing(name: str, spec: str, tally: Tally, unit: int, drop_out: bool, matchups: int) -> Standing:
    wins = Fraction(tally.win_shares, unit)
    rate = wins / tally.games if tally.games else Fraction(0)
    score = Fraction(tally.score_sum, tally.turns) if tally.turns else None
    return Standing(
        name=name,
        spec=spec,
        games=tally.games,
        wins=float(wins),
        win_rate=float(rate),
        win_interval=wilson(float(wins), tally.games, independent=tally.games / matchups),
        turns=tally.turns,
        mean_score=None if score is None else float(score),
        score_interval=(
            mean_interval(
                tally.score_sum, tally.score_squares, tally.turns, independent=tally.turns / matchups, floor=0
            )
            if tally.turns
            else None
        ),
        mean_total=tally.total_sum / tally.played if tally.played else None,
        shut_rate=tally.shut_boxes / tally.turns if tally.turns else None,
        shut_interval=(
            wilson(tally.shut_boxes, tally.turns, independent=tally.turns / matchups) if tally.turns else None
        ),
        mean_rounds=tally.turns / tally.games if drop_out and tally.games else None,
    )


def _versus(plan: Plan, tallies: Sequence[Sequence[Tally]]) -> tuple[Versus, ...]:
    """The two players of a gauntlet of two at a table of two against each opponent (none otherwise)."""
    if plan.config.gauntlet != 2 or plan.table != 2:
        return ()
    from ..statistics.pairs import Pentanomial, Versus, pentanomial

    against: dict[int, list[Pentanomial]] = {}
    for matchup, counted in zip(plan.matchups, tallies, strict=True):
        player, opponent = matchup.players
        if opponent >= 2:  # not the players' own matchup
            against.setdefault(opponent, [Pentanomial((0, 0, 0, 0, 0))] * 2)[player] = pentanomial(counted[0])
    names = plan.config.names
    return tuple(Versus(names[opponent], *found) for opponent, found in sorted(against.items()))


def summarise(
    plan: Plan, tallies: Sequence[Sequence[Tally]], seed_drawn: bool = False, match: Match | None = None
) -> Summary:
    """Standings, ranking and head-to-head table of a finished run, from its tallies per matchup."""
    config = plan.config
    count = len(config.strategies)
    totals = [Tally() for _ in range(count)]
    matchups = [0] * count
    pair_games = [[0] * count for _ in range(count)]
    pair_shares = [[0] * count for _ in range(count)]
    pair_ahead = [[0] * count for _ in range(count)]
    pair_tied = [[0] * count for _ in range(count)]
    for matchup, counted in zip(plan.matchups, tallies, strict=True):
        for index, tally in zip(matchup.players, counted, strict=True):
            totals[index].add(tally)
            matchups[index] += 1
            for position, other in enumerate(matchup.players):
                if other != index and tally.games:
                    pair_games[index][other] += tally.games
                    pair_shares[index][other] += tally.win_shares
                    pair_ahead[index][other] += tally.ahead[position]
                    pair_tied[index][other] += tally.tied[position]
    unit = share_unit(plan.table)
    solo = plan.table == 1
    drop_out = config.rules.drop_out is not None
    order = sorted(range(count), key=lambda index: _rank_key(config.names[index], totals[index], solo))
    ranking = tuple(
        _standing(
            config.strategies[index].name,
            config.strategies[index].spec,
            totals[index],
            unit,
            drop_out,
            matchups[index],
        )
        for index in order
    )
    if not solo:
        scores = [
            [ahead + tied / 2 for ahead, tied in zip(*rows, strict=True)]
            for rows in zip(pair_ahead, pair_tied, strict=True)
        ]
        rated = bradley_terry(scores, pair_games, order)
        ranking = tuple(
            dataclasses.replace(
                standing, rating=rating.rating, rating_interval=rating.interval, superiority=rating.superiority
            )
            for standing, rating in zip(ranking, rated, strict=True)
        )
    head_to_head = tuple(
        HeadToHead(
            strategy=config.names[a],
            opponent=config.names[b],
            games=pair_games[a][b],
            wins=float(Fraction(pair_shares[a][b], unit)),
            win_rate=float(Fraction(pair_shares[a][b], unit * pair_games[a][b])),
            ahead=pair_ahead[a][b],
            tied=pair_tied[a][b],
            behind=pair_ahead[b][a],
            ahead_rate=float(Fraction(2 * pair_ahead[a][b] + pair_tied[a][b], 2 * pair_games[a][b])),
        )
        for a in order
        for b in order
        if a != b and pair_games[a][b]
    )
    kept = tuple(tuple(counted) for counted in tallies)
    return Summary(plan, kept, ranking, head_to_head, seed_drawn, match, _versus(plan, kept))
