"""`target` computed exactly where its key allows it (one-round games, playoffs included, and
drop-out at a table of two): within a simulated tournament's 99.9% intervals, in a report of the
real command equal to the library's, a user's keyed strategy through its host, and a refusal of one
sentence where it is not keyed."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.exact_keyed import keyed_duel
from tournaments import ConfigError, ExactSummary, InProcess, Options, Summary, load_config, run, seat_strategy
from tournaments.exact.tournament import seat_turns
from tournaments.playing.tally import Tally, share_unit
from tournaments.statistics.stats import mean_interval, wilson

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # exact tournaments with target, and a simulation of them

Z999 = 3.2905
"""The normal quantile of a two-sided 99.9% interval."""
FIELD = ("target", "optimal", "greedy-high")

MINE = '''
from strategies.solved import Target


class Mine(Target):
    """target under another name, in a host of its own: keyed the same way."""

    name = "mine"


class Lost(Target):
    """Keyed on the score to beat alone, which over several rounds needs every seat's total."""

    name = "lost"
    key = ("to_beat",)

    @classmethod
    def key_under(cls, rules):
        return cls.key


class Pair(Target):
    """target keyed, in drop-out, on what shows its one rival at a table of two (and only there)."""

    name = "pair"

    @classmethod
    def key_under(cls, rules):
        return ("playoff", "total", "leader_total", "to_beat") if rules.drop_out else super().key_under(rules)


class Rounds(Target):
    """target keyed over fixed rounds on what shows its one rival at a table of two, and the round."""

    name = "rounds"

    @classmethod
    def key_under(cls, rules):
        return ("round", "playoff", "total", "leader_total", "to_beat") if rules.rounds > 1 else None
'''


def exact(strategies: tuple[str, ...] = FIELD, **given: object) -> ExactSummary:
    summary = run(load_config(None, Options(strategies=strategies, method="exact", **given)))  # type: ignore[arg-type]
    assert isinstance(summary, ExactSummary)
    return summary


def shutbox(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = real_shutbox(*arguments, cwd=cwd, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize(
    ("rules", "table"),
    [
        ({}, 2),
        ({"tiles": 6, "ties": "playoff", "instant_win": False}, 3),
        ({"tiles": 6, "drop_out": 20}, 2),
        ({"tiles": 6, "rounds": 3}, 2),
    ],
    ids=["two", "three-playoff", "drop-out", "rounds"],
)
def test_exact_target_lies_within_a_simulated_tournaments_intervals(rules: dict[str, object], table: int) -> None:
    """The bulk engine plays target from one table per key; seed fixed, 60,000 games a matchup."""
    options = Options(strategies=FIELD, games=60_000, seed=11, rules=rules, table=table)
    simulated = run(load_config(None, options), backend=InProcess())
    assert isinstance(simulated, Summary)
    computed = exact(rules=rules, table=table)
    if "drop_out" in rules or "rounds" in rules:
        assert computed.arithmetic == "float" and computed.unresolved < 1e-15
    else:
        assert computed.arithmetic == "fraction"
        assert all(sum(seating.odds.wins) == 1 for matchup in computed.seatings for seating in matchup)
    found = {standing.name: standing for standing in computed.ranking}
    for standing in simulated.ranking:
        figures = found[standing.name]
        (win_low, win_high), (score_low, score_high) = intervals(simulated, FIELD.index(standing.name))
        assert win_low <= figures.win_rate <= win_high, standing.name
        assert score_low <= (figures.mean_score or 0) <= score_high, standing.name
        assert figures.shut_rate == pytest.approx(standing.shut_rate, abs=0.005)
        assert figures.turns / figures.games == pytest.approx(standing.turns / standing.games, rel=0.01)


def intervals(summary: Summary, index: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Strategy `index`'s 99.9% intervals of its win rate and mean score (every matchup plays the same deals)."""
    total, matchups = Tally(), 0
    for matchup, counted in zip(summary.plan.matchups, summary.tallies, strict=True):
        if index in matchup.players:
            total.add(counted[matchup.players.index(index)])
            matchups += 1
    wins = total.win_shares / share_unit(summary.plan.table)
    win = wilson(wins, total.games, z=Z999, independent=total.games / matchups)
    score = mean_interval(total.score_sum, total.score_squares, total.turns, z=Z999, independent=total.turns / matchups)
    return win, score


def test_an_exact_report_with_target_through_the_command(tmp_path: Path) -> None:
    shutbox(
        "tournament",
        "--exact",
        "-s",
        "target",
        "-s",
        "optimal",
        "--ties",
        "playoff",
        "--tiles",
        "6",
        "--report",
        "t.toml",
        "-q",
        cwd=tmp_path,
    )
    report = tomllib.loads((tmp_path / "t.toml").read_text())
    assert (report["method"], report["arithmetic"]) == ("exact", "fraction")
    computed = exact(("target", "optimal"), rules={"ties": "playoff", "tiles": 6})
    assert [(row["name"], row["win_rate"], row["mean_score"]) for row in report["ranking"]] == [
        (standing.name, round(standing.win_rate, 6), round(standing.mean_score or 0, 6))
        for standing in computed.ranking
    ]
    shutbox(
        "analyze", "target", "--against", "optimal", "--seat", "2", "--tiles", "6", "--report", "d.toml", cwd=tmp_path
    )
    duel = tomllib.loads((tmp_path / "d.toml").read_text())
    assert (duel["method"], duel["arithmetic"], duel["strategy"]) == ("exact", "fraction", "target")
    rules = Rules(tiles=6)
    a, b = (seat_turns(seat_strategy(spec, rules), fractions=True, table=2) for spec in ("target", "optimal"))
    engine = keyed_duel(rules, a, b, 1)
    assert duel["seat"][0]["win_rate"] == float(engine.a_wins)
    assert {int(margin): chance for margin, chance in duel["seat"][0]["margins"].items()} == {
        margin: float(chance) for margin, chance in (engine.margins or {}).items()
    }


def test_a_users_keyed_strategy_is_tabulated_in_its_host_per_key(tmp_path: Path) -> None:
    """target under another name, in a host: the same chances, to the last fraction digit."""
    (tmp_path / "mine.py").write_text(MINE)
    mine = exact((f"{tmp_path / 'mine.py'}:Mine", "optimal", "greedy-high"), table=3, rules={"tiles": 6})
    builtin = exact(table=3, rules={"tiles": 6})
    assert [seating.odds.wins for matchup in mine.seatings for seating in matchup] == [
        seating.odds.wins for matchup in builtin.seatings for seating in matchup
    ]
    with pytest.raises(
        ConfigError, match=r"^'lost' cannot be computed exactly under these rules \(its key reads to_beat"
    ):
        exact((f"{tmp_path / 'mine.py'}:Lost", "optimal", "greedy-high"), rules={"drop_out": 40}, table=3)
    rules = {"drop_out": 8, "tiles": 4}
    pair = exact((f"{tmp_path / 'mine.py'}:Pair", "optimal"), rules=rules)  # its tables per key from its host
    assert [seating.odds.wins for matchup in pair.seatings for seating in matchup] == [
        seating.odds.wins for matchup in exact(("target", "optimal"), rules=rules).seatings for seating in matchup
    ]
    rules = {"rounds": 2, "tiles": 4}
    with pytest.raises(
        ConfigError,
        match=r"^'rounds' cannot be computed exactly under these rules \(its key reads round, total, leader_total, "
        r"to_beat, which in a game of several rounds of 3 seats follows the totals of several rivals; exact games "
        r"follow such a key in drop-out and over several rounds at a table of two\): its games can be simulated",
    ):
        exact((f"{tmp_path / 'mine.py'}:Rounds", "optimal", "greedy-high"), rules=rules, table=3)
    rounds = exact((f"{tmp_path / 'mine.py'}:Rounds", "optimal"), rules=rules)
    assert [seating.odds.wins for matchup in rounds.seatings for seating in matchup] == [
        seating.odds.wins for matchup in exact(("target", "optimal"), rules=rules).seatings for seating in matchup
    ]


def test_target_over_several_rounds_through_the_command(tmp_path: Path) -> None:
    """Exact at a table of two (the tournament and analyze agree); refused in one sentence at three,
    with playoffs (its key reads the round) and where the walk would take too long."""
    shutbox(
        "tournament", "--exact", "-s", "target", "-s", "optimal", "--rounds", "3", "--tiles", "6",
        "--report", "t.toml", "-q", cwd=tmp_path,
    )  # fmt: skip
    report = tomllib.loads((tmp_path / "t.toml").read_text())
    assert (report["method"], report["arithmetic"]) == ("exact", "float")
    shutbox(
        "analyze", "target", "--against", "optimal", "--rounds", "3", "--tiles", "6", "--report", "d.toml",
        cwd=tmp_path,
    )  # fmt: skip
    duel = tomllib.loads((tmp_path / "d.toml").read_text())
    target = next(row for row in report["ranking"] if row["name"] == "target")
    assert duel["average"]["win_rate"] == pytest.approx(target["win_rate"], abs=1e-6)
    assert sum(float(chance) for chance in duel["seat"][0]["margins"].values()) == pytest.approx(1)
    three = "'target' is not an exact strategy (it reads the game context, which in a game of several rounds at a "
    playoff = "'target' cannot be computed exactly under these rules (its key reads the round, and a playoff may last "
    refusals = [
        (
            ("--rounds", "3", "--table", "3", "-s", "max-shut"),
            three + "table of 3 follows the totals of several rivals",
        ),
        (("--rounds", "3", "--ties", "playoff"), playoff + "any number of rounds)"),
        (("--rounds", "40"), "round"),
    ]
    for given, said in refusals:
        done = real_shutbox("tournament", "--exact", "-s", "target", "-s", "optimal", *given,
                            cwd=tmp_path)  # fmt: skip
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert "computing these 2 games exactly would take about" in done.stderr and "rounds fit" in done.stderr


def test_target_in_drop_out_through_the_command(tmp_path: Path) -> None:
    """Exact at a table of two (the tournament and analyze agree), refused at three in one sentence."""
    shutbox(
        "tournament", "--exact", "-s", "target", "-s", "optimal", "--drop-out", "15", "--tiles", "6",
        "--report", "t.toml", "-q", cwd=tmp_path,
    )  # fmt: skip
    report = tomllib.loads((tmp_path / "t.toml").read_text())
    assert (report["method"], report["arithmetic"]) == ("exact", "float")
    shutbox(
        "analyze", "target", "--against", "optimal", "--drop-out", "15", "--tiles", "6", "--report", "d.toml",
        cwd=tmp_path,
    )  # fmt: skip
    duel = tomllib.loads((tmp_path / "d.toml").read_text())
    target = next(row for row in report["ranking"] if row["name"] == "target")
    assert duel["average"]["win_rate"] == pytest.approx(target["win_rate"], abs=1e-6)
    done = real_shutbox(
        "tournament", "--exact", "-s", "target", "-s", "optimal", "-s", "max-shut", "--table", "3",
        "--drop-out", "15", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert (
        "'target' is not an exact strategy (it reads the game context, which in drop-out at a table of 3 "
        in done.stderr
    )
    assert "the totals of several rivals" in done.stderr
    done = real_shutbox("tournament", "--exact", "-s", "target", "-s", "optimal", "--drop-out", "1000", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1  # refused before it starts: the walk's cost
    assert "computing these 2 games exactly would take about" in done.stderr and "a drop-out limit up to" in done.stderr


ROUND_SWITCH = '''
from strategies import Strategy


class RoundSwitch(Strategy):
    """Keyed on the round and both totals: over fixed rounds nearly every state is a key of its own."""

    key = ("round", "total", "leader_total", "to_beat")

    def choose_move(self, view):
        return view.legal_moves[0 if view.context.round else -1]
'''


@pytest.mark.slow  # starts the strategy's host to probe it
def test_a_users_key_new_at_every_state_is_counted_at_its_tables_cost(tmp_path: Path) -> None:
    """Each key it meets costs a table made in its host and checked here (a box of tiles at a
    time): over three rounds of 9 tiles that is refused before anything is asked (its estimate had
    counted a millisecond a key, and the run went on for many minutes)."""
    (tmp_path / "mine.py").write_text(ROUND_SWITCH)
    done = real_shutbox("tournament", "--exact", "-s", "mine.py:RoundSwitch", "-s", "optimal", "--rounds", "3",
                        cwd=tmp_path, timeout=120)  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "computing these 2 games exactly would take about" in done.stderr and "hour" in done.stderr
