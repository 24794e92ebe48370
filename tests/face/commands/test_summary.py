"""`shutbox summary REPORT`: the Markdown page of a report holds its figures (its tables parsed back)
and renders as tables; the command it gives repeats the run."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from helpers.command import shutbox
from helpers.paths import DATA, GOLDEN

EXPECTED = GOLDEN / "expected"
PCT, SCORE, RATING = 0.5001e-4, 0.5001e-3, 0.05001
"""Half the last place shown of a percentage (2 decimals), a mean score (3) and a rating (1)."""
SEPARATOR = re.compile(r"\|(?: *:?-{3,}:? *\|)+")


def tables(page: str) -> list[tuple[list[str], list[list[str]]]]:
    """Each Markdown table of a page, its header and rows; asserting that it renders as one: a header,
    a separator of as many columns, rows of as many cells, each line within pipes."""
    found = []
    lines = page.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("|") or (index and lines[index - 1].startswith("|")):
            continue
        block = [line]
        for after in lines[index + 1 :]:
            if not after.startswith("|"):
                break
            block.append(after)
        assert len(block) >= 3 and SEPARATOR.fullmatch(block[1]), block
        header, *rows = (cells(row) for row in [block[0], *block[2:]])
        assert cells(block[1]) and len(cells(block[1])) == len(header), block
        assert all(len(row) == len(header) for row in rows), block
        found.append((header, rows))
    return found


def cells(line: str) -> list[str]:
    assert line.startswith("|") and line.endswith("|"), line
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line[1:-1])]


def table_of(page: str, first: str) -> list[dict[str, str]]:
    """The rows, by column, of the page's table whose first column is headed `first`."""
    header, rows = next(table for table in tables(page) if table[0][0] == first)
    return [dict(zip(header, row, strict=True)) for row in rows]


def percent(text: str) -> float:
    assert text.endswith("%"), text
    return float(text[:-1]) / 100


def interval(text: str, read: Any = float) -> tuple[float, float]:
    low, high = text.split(" to ")
    return read(low), read(high)


def summary_of(path: Path, *gates: str) -> str:
    done = shutbox("summary", str(path), *(item for gate in gates for item in ("--fail-if", gate)))
    assert done.returncode == 0, done.stderr
    return done.stdout


def report(name: str) -> dict[str, Any]:
    path = EXPECTED / name
    return json.loads(path.read_text()) if path.suffix == ".json" else tomllib.loads(path.read_text())


@pytest.mark.parametrize("name", sorted(path.name for path in EXPECTED.iterdir()))
def test_every_golden_report_summarizes_as_markdown_tables(name: str) -> None:
    page = summary_of(EXPECTED / name)
    assert page.startswith("## shutbox ") and page.endswith("```\n")
    assert tables(page)
    assert "### Repeat" in page and "```sh\nshutbox " in page


def test_the_ranking_and_the_head_to_head_hold_the_reports_figures() -> None:
    page = summary_of(EXPECTED / "default.report.toml")
    held = report("default.report.toml")
    assert "simulated, seed 1" in page and "Seed 1, shutbox" in page
    rows = table_of(page, "rank")
    assert [row["strategy"] for row in rows] == [entry["name"] for entry in held["ranking"]]
    for row, entry in zip(rows, held["ranking"], strict=True):
        assert int(row["rank"]) == entry["rank"]
        assert percent(row["win rate"]) == pytest.approx(entry["win_rate"], abs=PCT)
        assert interval(row["95% CI"], percent) == pytest.approx(entry["win_rate_ci95"], abs=PCT)
        assert float(row["rating"]) == pytest.approx(entry["rating"], abs=RATING)
        assert interval(row["rating 95% CI"]) == pytest.approx(entry["rating_ci95"], abs=RATING)
        assert float(row["mean score"]) == pytest.approx(entry["mean_score"], abs=SCORE)
        assert percent(row["shut rate"]) == pytest.approx(entry["shut_rate"], abs=PCT)
        assert int(row["games"].replace(",", "")) == entry["games"]
    matrix = {row[""]: row for row in table_of(page, "")}
    assert len(held["head_to_head"]) == len(rows) * (len(rows) - 1)
    for pair in held["head_to_head"]:
        assert percent(matrix[pair["strategy"]][pair["opponent"]]) == pytest.approx(pair["win_rate"], abs=PCT)
    assert all(matrix[name][name] == "-" for name in matrix)


def test_an_exact_tournament_has_no_seed_and_no_intervals() -> None:
    page = summary_of(EXPECTED / "exact.report.toml")
    held = report("exact.report.toml")
    assert "every seating computed exactly; tables of 3" in page and "seed" not in page.lower()
    rows = table_of(page, "rank")
    assert list(rows[0]) == ["rank", "strategy", "win rate", "mean score", "shut rate", "seatings"]
    for row, entry in zip(rows, held["ranking"], strict=True):
        assert (row["strategy"], percent(row["win rate"])) == (
            entry["name"],
            pytest.approx(entry["win_rate"], abs=PCT),
        )
    assert "shutbox tournament -s optimal -s max-shut -s tips --exact --table 3 --tiles 10 --ties seat\n" in page


def test_solo_tables_rank_by_score_with_no_head_to_head() -> None:
    page = summary_of(EXPECTED / "solo.report.toml")
    assert "Head to head" not in page and "solo tables" in page
    assert list(table_of(page, "rank")[0]) == ["rank", "strategy", "mean score", "shut rate", "games"]


def test_an_analysis_holds_its_figures_and_its_distribution() -> None:
    for name in ("analysis_exact.report.toml", "analysis_simulated.report.toml"):
        page, held = summary_of(EXPECTED / name), report(name)
        figures = {row["figure"]: row for row in table_of(page, "figure")}
        assert float(figures["mean score"]["value"]) == pytest.approx(held["mean_score"], abs=SCORE)
        assert percent(figures["shut rate"]["value"]) == pytest.approx(held["shut_rate"], abs=PCT)
        if "mean_score_ci95" in held:
            assert interval(figures["mean score"]["95% CI"]) == pytest.approx(held["mean_score_ci95"], abs=SCORE)
        else:
            assert figures["mean score"]["95% CI"] == "exact"
        scores = {int(row["score"]): percent(row["chance"]) for row in table_of(page, "score")}
        likely = {int(score): chance for score, chance in held["distribution"].items() if chance >= 0.0005}
        assert scores == pytest.approx(likely, abs=PCT)
        assert "<details>\n<summary>Score distribution</summary>\n\n| score | chance |" in page
    assert "shutbox analyze optimal --tiles 10 --scoring count\n" in summary_of(EXPECTED / "analysis_exact.report.toml")


def test_a_duel_holds_each_seats_chances() -> None:
    page, held = summary_of(EXPECTED / "duel.report.toml"), report("duel.report.toml")
    rows = table_of(page, "optimal's seat")
    expected = [*held["seat"], held["average"]]
    assert [row["optimal's seat"] for row in rows] == ["seat 1", "seat 2", "both seats averaged"]
    for row, seat in zip(rows, expected, strict=True):
        assert percent(row["optimal wins"]) == pytest.approx(seat["win_rate"], abs=PCT)
        assert percent(row["tips wins"]) == pytest.approx(seat["opponent_win_rate"], abs=PCT)
        assert percent(row["tie settled"]) == pytest.approx(seat["tie_rate"], abs=PCT)
    assert "shutbox analyze optimal --against tips --no-instant-win --drop-out 30\n" in page


@pytest.mark.slow
def test_a_match_shows_its_pairs_and_its_sprt_as_a_gate(tmp_path: Path) -> None:
    played = shutbox(
        "match", "tips", "greedy-high", "-n", "400", "--seed", "1", "--sprt", "elo0=0 elo1=200", "-o", "m.toml", "-q",
        cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode in (0, 3, 4), played.stderr
    held = tomllib.loads((tmp_path / "m.toml").read_text())["match"]
    page = summary_of(tmp_path / "m.toml")
    assert page.startswith("## shutbox match: tips against greedy-high\n")
    figures = {row["figure"]: row for row in table_of(page, "figure")}
    assert percent(figures["score of tips"]["value"]) == pytest.approx(held["score"], abs=PCT)
    assert interval(figures["score of tips"]["95% CI"], percent) == pytest.approx(held["score_ci95"], abs=PCT)
    assert float(figures["Elo difference"]["value"]) == pytest.approx(held["elo"], abs=RATING)
    assert " / ".join(map(str, held["pentanomial"])) in page
    (gate,) = table_of(page, "gate")
    assert gate["gate"] == "SPRT `elo0=0 elo1=200 alpha=0.05 beta=0.05`"
    verdict = {"H1": "passed: H1 accepted", "H0": "**failed**: H0 accepted"}.get(
        held["sprt"]["verdict"], "**undecided**"
    )
    assert gate["result"].startswith(verdict) and f"LLR {held['sprt']['llr']:.3f}" in gate["result"]
    looks = held["sprt"]["path"]["games"]
    assert f"after 1 look at {looks[-1]:,} games" in gate["result"] and len(looks) == 1  # where the test stopped
    assert "shutbox match tips greedy-high -n 128 --seed 1 --sprt 'elo0=0 elo1=200 alpha=0.05 beta=0.05'\n" in page


@pytest.mark.slow
def test_a_gauntlet_shows_the_difference_against_each_opponent_and_over_the_field(tmp_path: Path) -> None:
    field = ("-s", "tips", "-s", "greedy-high", "-s", "optimal", "-s", "fewest-tiles")
    played = shutbox(
        "tournament", *field, "--gauntlet", "2", "-n", "40", "--seed", "2", "-o", "g.toml", "-q", cwd=tmp_path
    )
    assert played.returncode == 0, played.stderr
    held = tomllib.loads((tmp_path / "g.toml").read_text())["gauntlet"]
    page = summary_of(tmp_path / "g.toml")
    rows = table_of(page, "opponent")
    expected = [*((opponent["name"], opponent) for opponent in held["opponent"]), ("over the field", held)]
    assert [row["opponent"] for row in rows] == [name for name, _ in expected]
    for row, (_, figures) in zip(rows, expected, strict=True):
        assert float(row["difference"]) == pytest.approx(figures["score_difference"], abs=0.00005001)
        assert interval(row["95% CI"]) == pytest.approx(figures["score_difference_ci95"], abs=0.00005001)
    matrix = {row[""]: row for row in table_of(page, "")}
    assert matrix["optimal"]["fewest-tiles"] == ""  # the field did not meet among itself
    assert "-n 40 --seed 2 --gauntlet 2\n" in page


def test_fail_if_gates_are_shown_and_one_that_holds_exits_1(tmp_path: Path) -> None:
    page = summary_of(EXPECTED / "default.report.toml", "*.rank > 6")
    assert table_of(page, "gate") == [{"gate": "`*.rank > 6`", "result": "passed"}]
    done = shutbox("summary", str(EXPECTED / "default.report.toml"), "--fail-if", "random.win_rate < 0.5")
    assert done.returncode == 1
    (gate,) = table_of(done.stdout, "gate")
    assert gate["result"].startswith("**failed**: random.win_rate < 0.5 (it is 0.")
    assert done.stderr.startswith("gate failed: random.win_rate < 0.5 (it is 0.")


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "no report 'r.toml'."),
        ('schema = 1\nkind = "rules"\n', "'r.toml' is not a report of results: its kind is 'rules'"),
        ('kind = "tournament"\nmethod = "simulate"\n', "'r.toml' is not a tournament report shutbox can read"),
        ("kind = [1]\n", "'r.toml' is not a report of results: its kind is [1]"),
        ("not toml [", "report 'r.toml' is not valid TOML"),
    ],
)
def test_a_file_that_is_not_a_report_is_refused_in_one_sentence(tmp_path: Path, content: str | None, said: str) -> None:
    if content is not None:
        (tmp_path / "r.toml").write_text(content)
    done = shutbox("summary", "r.toml", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"shutbox: error: {said}") and done.stderr.count("\n") == 1, done.stderr


def test_a_gate_on_an_analysis_or_naming_no_strategy_is_refused() -> None:
    done = shutbox("summary", str(EXPECTED / "duel.report.toml"), "--fail-if", "optimal.rank > 1")
    assert done.returncode == 2 and "--fail-if tests a tournament's ranking" in done.stderr
    done = shutbox("summary", str(EXPECTED / "default.report.toml"), "--fail-if", "nobody.rank > 1")
    assert done.returncode == 2 and "names no strategy of this run" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["user_file.report.toml", "variants_four.report.toml"])
def test_the_command_it_gives_repeats_the_run(tmp_path: Path, name: str) -> None:
    """Run where the report lies (a strategy file's path is that folder's), its figures come again."""
    folder = shutil.copytree(GOLDEN, tmp_path / "golden")
    shutil.copy(EXPECTED / name, folder / name)
    page = summary_of(folder / name)
    command = shlex.split(page.split("```sh\n")[1].splitlines()[0])
    assert command[0] == "shutbox"
    again = shutbox(*command[1:], "-o", str(tmp_path / "again.toml"), "-q", "-j", "1")
    assert again.returncode == 0, again.stderr
    held, made = report(name), tomllib.loads((tmp_path / "again.toml").read_text())

    def figures(table: dict[str, Any]) -> list[dict[str, Any]]:  # a parameter given in the spec is recorded there
        return [{key: value for key, value in entry.items() if key != "spec"} for entry in table["ranking"]]

    assert figures(made) == figures(held)
    assert (made["head_to_head"], made["totals"]) == (held["head_to_head"], held["totals"])


# A tune report's page.


def tuned(folder: Path, *options: str) -> tuple[str, dict[str, Any]]:
    """The page of the tune `options` ask for, and its report."""
    done = shutbox("tune", *options, "-o", "t.toml", "-q", "-j", "1", cwd=folder)
    assert done.returncode == 0, done.stderr
    return summary_of(folder / "t.toml"), tomllib.loads((folder / "t.toml").read_text())


def candidates(held: dict[str, Any]) -> list[dict[str, Any]]:
    """Each candidate's trial of the furthest round it reached, best first."""
    latest = {tuple(sorted(trial["values"].items())): trial for trial in held["trial"]}
    sign = 1 if held["goal"] == "min" else -1
    return sorted(latest.values(), key=lambda trial: (-trial.get("round", 0), sign * trial["objective"]))


def figure(text: str, held: dict[str, Any]) -> float:
    """A figure of the tune's objective as the page shows it: a rate in percent, a mean score plain."""
    return float(text) if held["objective"] == "mean-score" else percent(text)


def repeated(page: str, folder: Path) -> dict[str, Any]:
    """The report of the page's first repeat command, run again."""
    command = shlex.split(page.split("```sh\n")[1].splitlines()[0])
    assert command[:2] == ["shutbox", "tune"]
    again = shutbox(*command[1:], "-o", "again.toml", "-q", "-j", "1", cwd=folder)
    assert again.returncode == 0, again.stderr
    return tomllib.loads((folder / "again.toml").read_text())


@pytest.mark.slow
def test_an_exact_tune_shows_every_candidate_best_first_and_the_true_optimum(tmp_path: Path) -> None:
    page, held = tuned(tmp_path, "below", "-p", "threshold=1..4", "-s", "optimal")
    assert page.startswith("## shutbox tune: below against optimal, for the highest win rate\n")
    assert "the true optimum over the ranges" in page and "seed" not in page.lower() and "Confirmation" not in page
    rows = table_of(page, "best")
    assert list(rows[0]) == ["best", "threshold", "win rate"]
    expected = candidates(held)
    assert [int(row["threshold"]) for row in rows] == [trial["values"]["threshold"] for trial in expected]
    for row, trial in zip(rows, expected, strict=True):
        assert percent(row["win rate"]) == pytest.approx(trial["objective"], abs=PCT)
    assert [int(row["threshold"]) for row in rows if row["best"] == "**best**"] == [held["best"]["values"]["threshold"]]
    best, start = table_of(page, "values")
    assert (best["values"], int(best["threshold"])) == ("best", held["best"]["values"]["threshold"])
    assert percent(best["win rate"]) == pytest.approx(held["best"]["objective"], abs=PCT)
    assert (start["values"], start["threshold"]) == ("start", "default")
    assert percent(start["win rate"]) == pytest.approx(held["start_objective"], abs=PCT)
    assert "```sh\nshutbox tune below -p threshold=1..4 -s optimal\n```" in page
    assert repeated(page, tmp_path)["trial"] == held["trial"]


@pytest.mark.slow
def test_a_simulated_tune_shows_the_best_20_candidates_with_intervals_and_its_confirmation(tmp_path: Path) -> None:
    options = ("below", "-p", "threshold=1..24", "-s", "optimal", "--method", "halving", "-n", "20")
    page, held = tuned(tmp_path, *options, "--confirm-games", "20", "--seed", "5")
    assert "simulated on common dice, seed 5, 20 games per matchup in the first round" in page.lower()
    assert "by successive halving" in page and "true optimum" not in page
    rows, expected = table_of(page, "best"), candidates(held)
    assert list(rows[0]) == ["best", "threshold", "win rate", "95% CI", "games", "round"]
    assert len(expected) == 24 and len(rows) == 20 and "\nAnd 4 more candidates: the report has them all.\n" in page
    for row, trial in zip(rows, expected[:20], strict=False):
        assert int(row["threshold"]) == trial["values"]["threshold"]
        assert percent(row["win rate"]) == pytest.approx(trial["objective"], abs=PCT)
        assert interval(row["95% CI"], percent) == pytest.approx(trial["objective_ci95"], abs=PCT)
        assert (int(row["games"].replace(",", "")), int(row["round"])) == (trial["games"], trial["round"])
    assert [int(row["threshold"]) for row in rows if row["best"] == "**best**"] == [held["best"]["values"]["threshold"]]
    confirmation = held["confirmation"]
    figures = {row["figure"]: row for row in table_of(page, "figure")}
    for title in ("best", "start"):
        assert percent(figures[title]["value"]) == pytest.approx(confirmation[title], abs=PCT)
        assert interval(figures[title]["95% CI"], percent) == pytest.approx(confirmation[f"{title}_ci95"], abs=PCT)
    difference = figures["best minus start"]
    assert percent(difference["value"]) == pytest.approx(confirmation["difference"], abs=PCT)
    assert interval(difference["95% CI"], percent) == pytest.approx(confirmation["difference_ci95"], abs=PCT)
    better = confirmation["difference_ci95"][0] > 0
    assert ("At 95%, the best is better than the start." in page) == better
    assert ("At 95%, the best is not shown better than the start." in page) != better
    command = "shutbox tune below -p threshold=1..24 -s optimal --method halving -n 20 --confirm-games 20 --seed 5"
    assert f"Seed 5, shutbox {held['shutbox_version']}:\n\n```sh\n{command}\n```" in page
    again = repeated(page, tmp_path)
    assert (again["trial"], again["confirmation"]) == (held["trial"], held["confirmation"])


@pytest.mark.slow
def test_a_tune_alone_shows_mean_scores_plain_and_no_paired_difference(tmp_path: Path) -> None:
    options = (
        "below(threshold=3)",
        "-p",
        "threshold=2..3",
        "--method",
        "grid",
        "-n",
        "40",
        "--confirm-games",
        "40",
        "--seed",
        "1",
    )
    page, held = tuned(tmp_path, *options, "--tiles", "10")
    assert page.startswith("## shutbox tune: below(threshold=3) alone, for the lowest mean score\n")
    rows = table_of(page, "best")
    assert [int(row["threshold"]) for row in rows] == [trial["values"]["threshold"] for trial in candidates(held)]
    for row, trial in zip(rows, candidates(held), strict=True):
        assert float(row["mean score"]) == pytest.approx(trial["objective"], abs=SCORE)
        assert interval(row["95% CI"]) == pytest.approx(trial["objective_ci95"], abs=SCORE)
    figures = {row["figure"]: row for row in table_of(page, "figure")}
    assert list(figures) == ["best", "start"] and "no paired difference" in page
    assert float(figures["best"]["value"]) == pytest.approx(held["confirmation"]["best"], abs=SCORE)
    (_, start) = table_of(page, "values")
    assert start == {"values": "start", "threshold": "3"}
    command = "shutbox tune 'below(threshold=3)' -p threshold=2..3 --method grid -n 40 --confirm-games 40 --seed 1"
    assert f"{command} --tiles 10\n" in page


def test_a_stopped_tune_says_so_with_the_command_that_finishes_it() -> None:
    path = DATA / "tune_stopped.toml"
    page, held = summary_of(path), tomllib.loads(path.read_text())
    assert page.startswith("## shutbox tune: knobs.py:Knobs against optimal, for the highest win rate\n")
    resume = f"shutbox tune --resume {shlex.quote(str(path))}"
    assert f"**Stopped** after 3 trials, before its end: no best yet. Finish it with `{resume}`." in page
    assert f"\n{resume}    # finishes the stopped tune\n```" in page
    assert "true optimum" not in page and "### Best" not in page and "Confirmation" not in page
    rows = table_of(page, "best")
    assert [(row["margin"], row["lean"], percent(row["win rate"])) for row in rows] == [
        ("2", "1", 0.75),
        ("3", "0", 0.5),
        ("2", "0", 0.25),
    ]
    assert all(row["best"] == "" for row in rows) and len(rows) == len(held["trial"])
    command = shlex.split(page.split("```sh\n")[1].splitlines()[0])
    assert command == [
        "shutbox",
        "tune",
        f"{DATA / 'knobs.py'}:Knobs",
        "-p",
        "margin=2..3",
        "-p",
        "lean=0..1",
        "-s",
        "optimal",
    ]


def test_a_gate_on_a_tune_report_is_refused_in_one_sentence() -> None:
    done = shutbox("summary", str(DATA / "tune_stopped.toml"), "--fail-if", "knobs.rank > 1")
    assert done.returncode == 2 and done.stdout == ""
    assert "--fail-if tests a tournament's ranking;" in done.stderr and "is a tune report." in done.stderr
    assert done.stderr.count("\n") == 1


def crafted(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """The default report with each of `changes` (old text, new) made once: a crafted report."""
    text = (EXPECTED / "default.report.toml").read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "crafted.toml"
    path.write_text(text)
    return path


FIRST = 'name = "optimal"\nspec = "optimal"\ngames'
"""The first entry of the default report's ranking, by its name."""


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("win_rate = 0.577\n", "win_rate = inf\n"), "ranking[0].win_rate is inf, not a finite number."),
        (("win_rate = 0.577\n", "win_rate = 1.5\n"), "ranking[0].win_rate is 1.5, not a rate from 0 to 1."),
        ((FIRST, "name = nan\nspec = 'optimal'\ngames"), "ranking[0].name is nan, not a name."),
        (("games = 6000\n", f"games = {10**100}\n"), "totals.games is a number of 101 digits, more than any count."),
        (('ties = "share"', 'ties = "inf"'), "its config.rules are no rule set (ties must be one of"),
        ((FIRST, 'name = "a\\u001b]52;c;aGk=\\u0007"\nspec = "optimal"\ngames'), "ranking[0].name holds control"),
    ],
)
def test_a_crafted_report_out_of_range_is_refused_in_one_sentence(
    tmp_path: Path, change: tuple[str, str], said: str
) -> None:
    done = shutbox("summary", str(crafted(tmp_path, change)))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"shutbox: error: {str(tmp_path / 'crafted.toml')!r} is not a report shutbox wrote: ")
    assert said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr


def test_a_name_is_text_on_the_page_not_html_or_markdown(tmp_path: Path) -> None:
    name = "<img src=x onerror=alert(1)> **bold** [link](x) `code` & _it_"
    page = summary_of(crafted(tmp_path, (FIRST, f"name = {json.dumps(name)}\nspec = 'optimal'\ngames")))
    assert "<img" not in page and "**bold**" not in page and "[link](x)" not in page and "`code`" not in page
    shown = table_of(page, "rank")[0]["strategy"]
    assert shown == r"&lt;img src=x onerror=alert\(1\)&gt; \*\*bold\*\* \[link\]\(x\) \`code\` &amp; \_it\_"
    assert page.startswith(f"## shutbox tournament: {shown} first of 6\n")


@pytest.mark.parametrize(
    ("made", "kind"),
    [
        (("diff", "tips", "optimal"), "diff"),
        (("explain", "tips"), "explanation"),
        (("solve",), "solution"),
        (("fair",), "fairness"),
    ],
)
def test_a_report_of_the_exact_commands_is_refused_naming_the_kinds_summary_reads(
    made: tuple[str, ...], kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "made.json"
    assert shutbox(*made, "--tiles", "4", "--report", str(path)).returncode == 0
    done = shutbox("summary", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"shutbox: error: '{path}' is not a report of results: its kind is '{kind}', "
        "not tournament, analysis, duel, tune or knockout.\n"
    )
