"""`shutbox solve`: the value of a one-round game as a table, JSON, TOML and a report; bad input in
one sentence."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.perfect_pairs import pair_equilibrium
from tournaments import solve

from helpers.command import shutbox
from helpers.pages import block


def test_the_table_shows_each_seats_chance_and_fits_80_columns() -> None:
    done = shutbox("solve", "--tiles", "6", columns=80)
    assert done.returncode == 0, done.stderr
    found = solve(Rules(tiles=6), 2)
    assert "Rules: tiles = 6." in done.stdout
    row = next(line for line in done.stdout.splitlines() if line.startswith("perfect play"))
    assert row.split()[2:] == [f"{seat.win:.3%}" for seat in found.perfect.seats] + [
        f"{found.perfect.tie:.3%}",
        f"{found.perfect.advantage:+.3%}",
    ]
    assert max(map(len, done.stdout.splitlines())) <= 80


def test_json_holds_the_library_s_figures_whole() -> None:
    done = shutbox("solve", "--table", "3", "--ties", "playoff", "--tiles", "6", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    found = solve(Rules(tiles=6, ties="playoff"), 3)  # type: ignore[arg-type]
    assert (report["kind"], report["table"], report["rules"]["ties"]) == ("solution", 3, "playoff")
    assert [seat["win_rate"] for seat in report["perfect"]["seat"]] == [seat.win for seat in found.perfect.seats]
    assert [seat["win_rate"] for seat in report["optimal"]["seat"]] == [seat.win for seat in found.optimal.seats]
    assert report["perfect"]["last_seat_advantage"] == found.perfect.advantage
    assert sum(seat["win_rate"] for seat in report["perfect"]["seat"]) == pytest.approx(1.0, abs=1e-12)


def test_the_report_is_written_whole_and_reads_as_the_json(tmp_path: Path) -> None:
    path = tmp_path / "value.toml"
    done = shutbox("solve", "--tiles", "6", "--report", str(path))
    assert done.returncode == 0, done.stderr
    written = tomllib.loads(path.read_text())
    printed = json.loads(shutbox("solve", "--tiles", "6", "--format", "json").stdout)
    assert {key: value for key, value in written.items() if key != "rules"} == {
        key: value for key, value in printed.items() if key != "rules"
    }
    assert [entry.name for entry in tmp_path.iterdir()] == ["value.toml"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (("--rounds", "2", "--table", "3"), "solve works out a table of 2 seats, not 3"),
        (("--drop-out", "40", "--table", "4"), "solve works out a table of 2 seats, not 4"),
        (("--rounds", "3", "--ties", "playoff"), "not solved with playoffs"),
        (("--rounds", "90"), "past the limit of 180: up to 39 rounds fit"),
        (("--drop-out", "1000"), "a drop-out limit up to"),
        (("--table", "5"), "--table must be at most 4"),
        (("--table", "1"), "--table must be at least 2"),
        (("--tiles", "13"), "--tiles"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(options: tuple[str, ...], said: str) -> None:
    done = shutbox("solve", *options)
    assert done.returncode == 2
    assert said in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.slow  # a drop-out game's equilibrium and its walk: about half a second
@pytest.mark.parametrize(
    "options", [("--rounds", "2", "--tiles", "6"), ("--drop-out", "15", "--tiles", "5", "--ties", "playoff")]
)
def test_over_rounds_and_in_drop_out_it_walks_perfect_to_the_equilibrium_s_own_value(options: tuple[str, ...]) -> None:
    """At a table of two the exact walk of `perfect`'s turns, key by key, gives each seat the chance the
    backward induction found (`PairEquilibrium.value`)."""
    done = shutbox("solve", *options, "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rules = Rules.from_mapping(
        {key: value for key, value in report["rules"].items() if key != "drop_out"}
        | {"drop_out": report["rules"]["drop_out"] or None}
    )
    first, second = (seat["win_rate"] for seat in report["perfect"]["seat"])
    assert first == pytest.approx(pair_equilibrium(rules).value, abs=1e-12)
    assert first + second == pytest.approx(1.0, abs=1e-12)
    table = shutbox("solve", *options, columns=80)
    assert table.returncode == 0 and max(map(len, table.stdout.splitlines())) <= 80


def test_the_library_call_says_itself_in_one_line() -> None:
    said = repr(solve({"tiles": 6}, 3))
    assert said.startswith("<GameValue 3 seats; perfect play ") and "\n" not in said
    with pytest.raises(Exception, match="tables of 2 to 4 seats"):
        solve(None, 5)


@pytest.mark.slow
def test_the_exact_guide_shows_what_solve_prints() -> None:
    shown = block("exact", "console", "$ shutbox solve\n").splitlines()
    assert shown[0] == "$ shutbox solve"
    done = shutbox("solve", columns=None)
    assert done.stdout.splitlines()[: len(shown) - 1] == shown[1:]


@pytest.mark.slow
def test_the_exact_guide_shows_what_solve_prints_over_three_rounds() -> None:
    shown = block("exact", "console", "$ shutbox solve --rounds 3").splitlines()
    done = shutbox("solve", "--rounds", "3", columns=None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[: len(shown) - 1] == shown[1:]
