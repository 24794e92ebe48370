"""What a notebook shows of a result: one short line naming what was run and what came of it,
however many tallies, seatings or trials stand behind it."""

from __future__ import annotations

from strategies import Rules
from tournaments import (
    InProcess,
    Options,
    TuneSettings,
    analyze,
    duel_exactly,
    parse_parameters,
    play_match,
    run,
    seat_strategy,
    tune,
)

FIELD = ["optimal", "tips", "greedy-high", "fewest-tiles", "random", "below(threshold=5)", "target"]


def test_a_tournament_of_many_tallies_is_one_short_line_naming_its_leaders() -> None:
    options = Options(strategies=FIELD, games=6, table=3, seed=4, rules={"tiles": 6})
    summary = run(None, options, backend=InProcess())
    assert sum(len(matchup) for matchup in summary.tallies) == 105  # 35 matchups of 3
    shown = repr(summary)
    assert len(shown) < 200 and "\n" not in shown
    first = summary.ranking[0]
    assert shown.startswith(f"<Summary of 7 strategies, {summary.games} games, seed 4; win rates {first.name} ")
    assert shown.endswith(", ... (7 in all)>")


def test_an_exact_tournament_a_match_an_analysis_a_duel_and_a_tune_each_say_what_matters() -> None:
    rules = {"tiles": 4}
    exact = run(None, Options(strategies=["optimal", "tips"], method="exact", rules=rules))
    assert repr(exact).startswith("<ExactSummary of 2 strategies, 2 seatings computed; win rates optimal ")
    match = play_match(Options(strategies=["optimal", "tips"], games=10, seed=3, rules=rules), backend=InProcess())
    assert f"; a match, score {match.match.pairs.score:.2%}; " in repr(match)  # type: ignore[union-attr]
    with seat_strategy("tips", Rules(tiles=4)) as tips, seat_strategy("optimal", Rules(tiles=4)) as optimal:
        analysis = analyze(tips)
        duel = duel_exactly(tips, optimal)
    assert repr(analysis) == (
        f"<Analysis of tips; exact; expected score {analysis.expected_score:.4f}, "
        f"shuts {analysis.shut_probability:.2%}>"
    )
    assert repr(duel).startswith("<ExactDuel tips against optimal; seat 1: wins ")
    tuning = tune(TuneSettings("below", parse_parameters(["threshold=2..3"]), field=("tips",), rules=rules))
    assert tuning.best is not None
    assert repr(tuning).startswith(
        f"<Tuning of below against tips, for win-rate; exact, 2 trials; best threshold={tuning.best['threshold']} "
    )
