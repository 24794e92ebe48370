"""The tournament view rendered in-process (a rich Console on a StringIO, 80 columns, no colour,
the ends of lines trimmed):
a simulated and an exact tournament through the same `TournamentResults` protocol."""

from __future__ import annotations

import dataclasses
import io

import pytest
from rich.console import Console

from shutbox_cli.face import tournament_view as view
from tournaments import ExactSummary, InProcess, Options, Summary, TournamentResults, load_config, report_table, run
from tournaments.exact.beside import Beside

WIDTH = 80
SMALL = {"tiles": 6}
"""Rules small enough that playing and solving cost little."""


def _rendered(summary: TournamentResults, width: int = WIDTH) -> str:
    out = io.StringIO()
    view.show(Console(file=out, width=width, color_system=None, force_terminal=False), summary)
    return "".join(f"{line.rstrip()}\n" for line in out.getvalue().splitlines())


@pytest.fixture(scope="module")
def simulated() -> Summary:
    summary = run(
        load_config(None, Options(strategies=["optimal", "tips"], games=40, seed=7, rules=SMALL)), backend=InProcess()
    )
    assert isinstance(summary, Summary)
    return summary


@pytest.fixture(scope="module")
def exact() -> ExactSummary:
    summary = run(load_config(None, Options(strategies=["optimal", "tips"], method="exact", rules=SMALL)))
    assert isinstance(summary, ExactSummary)
    return summary


SIMULATED = """\
Tournament: 2 strategies, 2 players per table, duplicate deals; 1 matchup × 40
games = 40 games; seed 7.
Rules: tiles = 6.
#  strategy      win rate      95% CI    exact  score   shut  rating    LOS
───────────────────────────────────────────────────────────────────────────
1  tips             51.2%  36.3–65.9%  48.584%   4.43  16.2%  +4 ±53  56.2%
2  optimal          48.8%  34.1–63.7%  51.416%   4.97  11.1%  -4 ±53      –
each strategy played 40 games; a shared win counts as a fraction; exact: its win
rate computed exactly, over every game the dice can deal (as --exact does);
score: mean score per turn; shut: how often it shut the box; rating:
Bradley-Terry Elo from who finished ahead of whom (mean 0) ± its 95% interval;
LOS: the likelihood it is truly stronger than the next.
Within noise (a likelihood of superiority under 95% between neighbours): tips,
optimal. This run cannot tell their order: the exact win rates give their true
order.

Head to head: the row's win rate in games against the column (by rank).
               1      2
───────────────────────
1 tips         ·  51.2%
2 optimal  48.8%      ·
"""

EXACT = """\
Exact tournament: 2 strategies, 2 players per table; 1 matchup × 2 seatings = 2
seatings, every game of each computed exactly, in fractions.
Rules: tiles = 6.
#  strategy      win rate   score     shut
──────────────────────────────────────────
1  optimal        51.416%  3.6985  21.740%
2  tips           48.584%  3.9053  21.875%
each strategy sat in 2 seatings, each computed exactly; win rate: its chance of
winning, averaged over them; a shared win counts as a fraction; score: expected
score per turn; shut: chance of shutting the box in a turn.

Head to head: the row's win rate in games against the column (by rank).
                1       2
─────────────────────────
1 optimal       ·  51.42%
2 tips     48.58%       ·

By seat: each strategy's chance of winning from each seat (seat 1 plays first).
strategy       seat 1   seat 2
──────────────────────────────
1 optimal     53.794%  49.038%
2 tips        50.962%  46.206%
"""


def test_a_simulated_tournament_shows_estimates_with_intervals(simulated: Summary) -> None:
    assert _rendered(simulated) == SIMULATED
    assert view.quiet_line(simulated) == "winner: tips, win rate 51.2% (95% CI 36.3–65.9%); 40 games; seed 7"


def test_an_exact_tournament_shows_chances_and_a_table_by_seat(exact: ExactSummary) -> None:
    assert _rendered(exact) == EXACT
    assert view.quiet_line(exact) == "winner: optimal, win rate 51.416%; 2 seatings computed exactly, in fractions"


def test_a_drawn_seed_says_how_to_repeat_the_run(simulated: Summary) -> None:
    drawn = dataclasses.replace(simulated, seed_drawn=True)
    assert view.header(drawn)[0].endswith("seed 7 (drawn; repeat with --seed 7).")


@pytest.mark.parametrize("kind", ["simulated", "exact"])
def test_a_narrow_console_gets_the_ranking_without_wins_and_every_row(
    kind: str, request: pytest.FixtureRequest
) -> None:
    summary: TournamentResults = request.getfixturevalue(kind)
    text = _rendered(summary, width=40)
    assert "wins" not in text.split("\n\n")[0]
    assert all(standing.name in text for standing in summary.ranking)


def test_a_console_too_narrow_for_the_exact_column_says_the_exact_win_rates_below_the_ranking(
    simulated: Summary,
) -> None:
    """At 60 columns the exact column would squeeze the win rates into '52.…': the ranking goes
    without it, and the exact win rates follow as a sentence, every digit kept."""
    text = _rendered(simulated, width=60)
    ranking = text.split("\n\n")[0]
    assert "…" not in ranking and "exact" not in ranking.splitlines()[3]
    said = " ".join(text.split())
    assert "Computed exactly (every game the dice can deal): optimal 51.416%, tips 48.584%." in said
    assert "exact:" not in said  # the legend explains no column that is not shown
    assert "Computed exactly" not in _rendered(simulated)  # at 80 columns it is a column


def test_neighbours_the_games_cannot_tell_apart_are_named_and_those_they_can_are_not(simulated: Summary) -> None:
    tips, optimal = simulated.ranking
    sure = dataclasses.replace(simulated, ranking=(dataclasses.replace(tips, superiority=0.95), optimal))
    assert view.within_noise(sure) is None
    three = dataclasses.replace(
        simulated,
        ranking=(
            dataclasses.replace(tips, superiority=0.99),
            dataclasses.replace(optimal, superiority=0.6),
            dataclasses.replace(optimal, name="third", superiority=None),
        ),
    )
    said = view.within_noise(three)
    assert said is not None and said.startswith("Within noise (a likelihood of superiority under 95% between ")
    assert "neighbours): optimal, third. " in said


def test_without_ratings_overlapping_intervals_are_within_noise(simulated: Summary) -> None:
    tips, optimal = (dataclasses.replace(one, superiority=None) for one in simulated.ranking)
    apart = dataclasses.replace(tips, win_interval=(0.66, 0.7))
    assert view.within_noise(dataclasses.replace(simulated, ranking=(apart, optimal))) is None
    said = view.within_noise(dataclasses.replace(simulated, ranking=(tips, optimal)))
    assert said is not None and "(overlapping 95% intervals between neighbours): tips, optimal." in said


def test_exact_figures_are_never_within_noise(exact: ExactSummary) -> None:
    assert view.within_noise(exact) is None


def test_the_exact_win_rates_stand_beside_the_simulated_ones_where_quick(simulated: Summary) -> None:
    # optimal against tips on 6 tiles: 40 games put tips ahead, 51.2% to 48.8%; exactly, optimal wins 51.416%
    assert simulated.exactly is not None and simulated.exactly.win_rates is not None
    assert simulated.exactly.win_rates["optimal"] == pytest.approx(0.514162, abs=1e-6)
    table = report_table(simulated)
    assert [entry.get("exact_win_rate") for entry in table["ranking"]] == [0.485838, 0.514162]
    assert view.exact_hint(simulated) is None
    slow = dataclasses.replace(simulated, exactly=Beside(12.0, None))
    assert view.exact_hint(slow) == (
        "Every strategy here can be computed exactly: --exact would give the exact win rates (estimated at 12 s)."
    )
    assert "exact" not in _rendered(slow).splitlines()[3]  # no column
    assert "exact_win_rate" not in report_table(slow)["ranking"][0]


def test_a_field_that_cannot_be_computed_exactly_has_no_exact_figures() -> None:
    summary = run(
        load_config(None, Options(strategies=["optimal", "random"], games=40, seed=7, rules=SMALL)), backend=InProcess()
    )
    assert isinstance(summary, Summary) and summary.exactly is None
    assert "exact" not in _rendered(summary) and view.exact_hint(summary) is None
