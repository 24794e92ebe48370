"""`shutbox explain SPEC --sheet`, through the real command: the page of a 4-tile box worked out by
hand, the page written whole to FILE.md, the report, the page of docs/sheet.md made again, and bad
input in one sentence with exit status 2."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from helpers.command import real_shutbox, shutbox
from helpers.paths import ROOT

COUNT_4 = ("--tiles", "4", "--scoring", "count")
"""A 4-tile box scored by the tiles left open: its sheet has one exception, worked out below."""

PAGE_4 = """\
# Cheat sheet: Shut the Box, 4 tiles

A rule of thumb to play a turn by, and the few exceptions where leaving it for
the play of optimal gains most. Made by `shutbox explain optimal --sheet`; every
figure is exact.

## The rules

- Box: tiles 1 to 4 (they add up to 10), all open at the start of each turn.
- Each roll: shut any set of open tiles that adds up to the roll; the first roll
  that cannot be used ends the turn.
- Dice: two, or one if the player likes, from the start: this box has no tiles
  from 7 up.
- Score: the number of tiles left open; lowest wins; a shut box scores 0.

## The rule

1. Shut the set with the lower tiles (compare the highest, then the next).
2. Roll one die when the rules allow it and the open tiles add up to 6 or less.

This is how the built-in strategy lowest-first plays.

## The exceptions

Where these tiles are open and you roll this, play as the row says, not by the
rule:

| Open tiles | Roll | Do     | Not      |  Saves | Met in |
|------------|------|--------|----------|-------:|-------:|
| 1 2 3 4    | 4    | shut 4 | shut 1+3 | 0.0363 |  8.33% |

Saves: how much lower a turn's expected score is with the exception (and those
above it) than without. Met in: the share of turns that meet it, played by this
page.

## What it is worth

| Playing by                 | Expected score | Shuts the box |
|----------------------------|---------------:|--------------:|
| the rule alone             |         1.1757 |        23.56% |
| the rule and its exception |         1.1394 |        24.40% |
| optimal                    |         1.1145 |        24.43% |

The exceptions close 59.2% of the gap between the rule and optimal (0.0612
points a turn).

The built-in heuristics' expected scores: most-tiles 1.1757, lowest-first
1.1757, fewest-tiles 1.2903, tips 1.2903, greedy-high 1.3056.
"""

SUBSETS = {
    total: [move for move in range(1, 16) if sum(t + 1 for t in range(4) if move >> t & 1) == total]
    for total in range(1, 13)
}
"""Each total's sets of tiles on a 4-tile box (masks), for the hand's recursion."""


def _tiles(mask: int) -> list[int]:
    return [tile for tile in range(1, 5) if mask >> (tile - 1) & 1]


def _lowest_first(mask: int, total: int, exception: bool) -> int | None:
    """The rule's move (the set whose highest tile is lowest: the lowest mask), or the exception's."""
    legal = [move for move in SUBSETS.get(total, []) if move & mask == move]
    if not legal:
        return None
    if exception and mask == 0b1111 and total == 4:
        return 0b1000  # the 4, not 1+3
    return min(legal)


@cache
def by_hand(mask: int, exception: bool, best: bool) -> Fraction:
    """A turn's expected count of open tiles from a box: the rule's (with its exception), or the
    best play's, over every throw of two dice or one (one die at an open total of 6 or less, or
    where it is better for the best play)."""
    if not mask:
        return Fraction(0)

    def rolled(dice: int) -> Fraction:
        throws = [(a,) for a in range(1, 7)] if dice == 1 else [(a, b) for a in range(1, 7) for b in range(1, 7)]
        total = Fraction(0)
        for throw in throws:
            legal = [move for move in SUBSETS.get(sum(throw), []) if move & mask == move]
            if not legal:
                total += len(_tiles(mask))
            elif best:
                total += min(by_hand(mask & ~move, exception, best) for move in legal)
            else:
                move = _lowest_first(mask, sum(throw), exception)
                assert move is not None
                total += by_hand(mask & ~move, exception, best)
        return total / len(throws)

    if best:
        return min(rolled(1), rolled(2))
    return rolled(1 if sum(_tiles(mask)) <= 6 else 2)


def test_the_page_of_a_four_tile_box_is_the_one_worked_out_by_hand() -> None:
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == PAGE_4
    full = 0b1111
    rule, sheet, best = by_hand(full, False, False), by_hand(full, True, False), by_hand(full, False, True)
    assert f"{float(rule):.4f}" == "1.1757" and f"{float(sheet):.4f}" == "1.1394" and f"{float(best):.4f}" == "1.1145"
    assert rule - sheet == Fraction(47, 1296)  # the exception's saving: 0.0363
    assert f"{float((rule - sheet) / (rule - best)):.1%}" == "59.2%"
    assert f"{float(rule - best):.4f}" == "0.0612"


def test_the_page_is_written_whole_to_a_markdown_file_and_the_report_beside_it(tmp_path: Path) -> None:
    page = tmp_path / "sheet.md"
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4, "-o", str(page))
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == f"Cheat sheet written to {page}.\n"
    assert page.read_text() == PAGE_4
    report = tmp_path / "sheet.toml"
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4, "--exceptions", "0", "--report", str(report))
    assert done.returncode == 0 and done.stdout.startswith("# Cheat sheet")
    table = tomllib.loads(report.read_text())
    assert (table["kind"], table["exceptions_asked"], table["exception"]) == ("sheet", 0, [])
    assert "None: none was asked for." in done.stdout


def test_with_the_report_on_stdout_the_page_goes_to_stderr() -> None:
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4, "--report", "-")
    assert done.returncode == 0
    assert tomllib.loads(done.stdout)["kind"] == "sheet"
    assert done.stderr == PAGE_4


def test_the_report_on_stdout_is_one_document_for_jq() -> None:
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4, "--format", "json")
    table = json.loads(done.stdout)
    assert table["rule"]["words"][0] == "Shut the set with the lower tiles (compare the highest, then the next)."
    assert table["exception"][0]["shut"] == [4]
    assert table["figures"]["optimal"]["mean_score"] == pytest.approx(float(by_hand(0b1111, False, True)))


@pytest.mark.slow
def test_the_sheet_in_the_docs_is_the_one_the_command_makes_today(tmp_path: Path) -> None:
    """docs/sheet.md is made by `shutbox explain optimal --sheet -o docs/sheet.md`: run it again if this fails."""
    page = tmp_path / "sheet.md"
    done = real_shutbox("explain", "optimal", "--sheet", "-o", str(page))
    assert done.returncode == 0, done.stderr
    assert page.read_text() == (ROOT / "docs" / "sheet.md").read_text()
    assert max(map(len, page.read_text().splitlines())) <= 80


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--exceptions", "3"), "--exceptions applies to a cheat sheet: add --sheet."),
        (
            ("--sheet", "-s", "tips"),
            "a cheat sheet is played alone or against one opponent (--against SPEC): -s and --seat apply without it.",
        ),
        (
            ("--sheet", "--against", "tips", "--seat", "1"),
            "a cheat sheet is played alone or against one opponent (--against SPEC): -s and --seat apply without it.",
        ),
        (
            ("--sheet", "--rounds", "3", "--ties", "seat"),
            "a cheat sheet alone is of a single turn; --ties and --rounds shape a game: "
            "add --against SPEC to play one.",
        ),
        (
            ("--sheet", "--against", "tips", "--drop-out", "45"),
            "a cheat sheet against an opponent is of a game of one round whose ties are shared or settled by seat; "
            "over several rounds, in drop-out or with playoffs a turn's worth depends on more than its box.",
        ),
        (("--sheet", "--exceptions", "101"), "--exceptions must be at most 100 (see `shutbox explain --help`)."),
        (("--sheet", "--tiles", "13"), "--tiles must be a whole number from 2 to 12, not 13."),
    ],
)
def test_bad_input_is_one_sentence_and_exit_status_2(arguments: tuple[str, ...], message: str) -> None:
    done = shutbox("explain", "optimal", *arguments)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"shutbox: error: {message}\n"


def test_against_an_opponent_the_page_gives_the_chance_of_winning() -> None:
    done = shutbox("explain", "optimal", "--sheet", "--against", "greedy-high", *COUNT_4, "--ties", "seat")
    assert (done.returncode, done.stderr) == (0, "")
    page = done.stdout
    assert "to beat greedy-high in one game" in page
    assert "`shutbox explain optimal --sheet --against greedy-high`" in " ".join(page.split())
    assert "- Ties: of equal lowest scores, the earlier seat wins." in page
    assert "| Playing by" in page and "|   Wins |" in page
    assert "Wins: the chance of beating greedy-high in one game, each seat half the games." in page
    assert max(map(len, page.splitlines())) <= 80


def test_the_help_gives_the_librarys_default_count() -> None:
    from tournaments.exact.sheet import DEFAULT_EXCEPTIONS

    help_text = " ".join(shutbox("explain", "--help").stdout.split())
    assert f"--exceptions N With --sheet: at most N [default: {DEFAULT_EXCEPTIONS}]." in help_text


def test_a_strategy_a_sheet_cannot_follow_is_named() -> None:
    done = shutbox("explain", "random", "--sheet", "--tiles", "4")
    assert done.returncode == 2
    assert done.stderr == (
        "shutbox: error: a cheat sheet follows strategies that play from the box and the dice alone; 'random' "
        "does not (it is stochastic): ask for the sheet of optimal, or of an exact strategy.\n"
    )


def test_a_page_that_cannot_be_written_is_refused_before_the_work(tmp_path: Path) -> None:
    done = shutbox("explain", "optimal", "--sheet", *COUNT_4, "-o", str(tmp_path / "missing" / "sheet.md"))
    assert done.returncode == 2
    assert (
        done.stderr
        == f"shutbox: error: cannot write '{tmp_path}/missing/sheet.md': there is no folder '{tmp_path}/missing'.\n"
    )
    assert not (tmp_path / "missing").exists()


def test_its_report_is_no_tournament_file(tmp_path: Path) -> None:
    report = tmp_path / "sheet.toml"
    assert shutbox("explain", "optimal", "--sheet", *COUNT_4, "--report", str(report)).returncode == 0
    done = shutbox("tournament", str(report))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"shutbox: error: {report} is a sheet report, not a tournament file.\n"
