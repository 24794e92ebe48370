"""The tables of `explain`, `diff`, `solve` and `fair` in narrow terminals, through the real command:
no figure is cut short ("…"), no line is wider than the terminal, a table keeps a row a line where
it fits and otherwise stacks each row whole (its state, then its figures by name), the header keys
stay explained; explain and diff draw a box and a dice choice alike."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from helpers.command import shutbox

WIN = ("target", "optimal", "--measure", "win")
FEATURES = ("to_beat", "to_beat_count", "to_come")


def shown(*arguments: str, columns: int) -> str:
    done = shutbox(*arguments, columns=columns)
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout, done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) <= columns, done.stdout
    return done.stdout


def report(*arguments: str) -> Any:
    done = shutbox(*arguments, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def words(text: str) -> list[str]:
    return text.split()


def row_at(text: str, figure: str) -> list[str]:
    """The words of the row that holds `figure`: its line, or where the row is stacked, its lines
    from the state's (the last line not indented above it) to the figure's."""
    lines = text.splitlines()
    end = next(number for number, line in enumerate(lines) if figure in line.split())
    start = next(number for number in range(end, -1, -1) if not lines[number].startswith(" "))
    return words("\n".join(lines[start : end + 1]))


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_diff_keeps_every_figure_of_its_rows_whole(columns: int) -> None:
    text = shown("diff", "greedy-high", "optimal", columns=columns)
    rows = report("diff", "greedy-high", "optimal")["row"][:10]
    for row in rows:
        assert f"{row['loss']:+.6g}" in words(text)
    figures = [f"{rows[0]['cost']:+.6g}", f"{rows[0]['reach']:.4%}", f"{rows[0]['loss']:+.6g}"]
    first = row_at(text, figures[-1])
    if columns == 80:  # room for the whole table: a row a line
        assert first == ["··3456···", "dice?", "1", "die", "2", "dice", *figures]
    else:
        stacked = ["cost", figures[0], "reach", figures[1], "loss", figures[2]]
        assert first == ["··3456···", "dice?", "1", "die", "2", "dice", *stacked]
    assert any(words(line)[:4] == ["box", "roll", "greedy-high", "optimal"] for line in text.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_diff_by_win_keeps_the_seat_and_the_key_its_caption_explains(columns: int) -> None:
    text = shown("diff", *WIN, columns=columns)
    assert "key: to_beat, to_beat_count, to_come" in " ".join(words(text))
    for row in report("diff", *WIN)["row"][:10]:
        key = ",".join(str(row["key"].get(name, "-")) for name in FEATURES)
        found = row_at(text, f"{row['loss'] * 100:+.4g}%")
        assert found[:3] == [
            str(row["seat"]),
            key,
            "".join(str(tile) if tile in row["box"] else "·" for tile in range(1, 10)),
        ]
        assert f"{row['cost'] * 100:+.4g}%" in found and f"{row['reach']:.4%}" in found


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 60, 80])
@pytest.mark.parametrize("pays", [None, "2"])
def test_solve_keeps_every_seats_figures_whole(columns: int, pays: str | None) -> None:
    arguments = ("solve", "--table", "4", *(() if pays is None else ("--shut-pays", pays)))
    text = shown(*arguments, columns=columns)
    found = report(*arguments)
    for play in ("perfect", "optimal"):
        assert {f"{seat['win_rate']:.3%}" for seat in found[play]["seat"]} <= set(words(text))
        if pays is not None:
            assert {f"{seat['winnings']:+.5f}" for seat in found[play]["seat"]} <= set(words(text))
    assert {"perfect", "all", "tie", "last-first"} <= set(words(text))


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_fair_keeps_its_column_titles_and_figures_whole(columns: int) -> None:
    text = shown("fair", "--tiles", "4", "--table", "3", columns=columns)
    found = report("fair", "--tiles", "4", "--table", "3")
    assert {f"{variant['last_seat_advantage']:+.5f}" for variant in found["variant"]} <= set(words(text))
    assert re.search(r"last-\s*first", text) and re.search(r"fair\s*payout", text)


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_explain_draws_a_row_a_line_or_stacks_it_whole(columns: int) -> None:
    text = shown("explain", "greedy-high", columns=columns)
    legend = "cost: its loss there; reach: how often it gets there; weighted: cost x reach."
    assert legend in " ".join(words(text))
    first = row_at(text, "0.09649")
    if columns >= 60:
        assert first == ["··3456···", "dice?", "1", "die", "2", "dice", "3.706", "2.60%", "0.09649"]
    else:
        assert first[:2] == ["··3456···", "dice?"] and {"cost", "3.706", "reach", "2.60%", "weighted"} <= set(first)


@pytest.mark.slow
@pytest.mark.parametrize("columns", [60, 80])
def test_explain_against_a_rival_keeps_its_dice_choices_on_one_line(columns: int) -> None:
    text = shown("explain", "target", "--against", "greedy-high", columns=columns)
    assert "key: to_beat, to_beat_count, to_come (a dash: none)." in " ".join(words(text))
    first = row_at(text, "0.00212%")
    if columns == 80:
        assert first == ["1", "-,0,1", "1·3·5····", "dice?", "2", "dice", "1", "die", "0.46%", "0.46%", "0.00212%"]
    else:
        stacked = ["cost", "0.46%", "reach", "0.46%", "weighted", "0.00212%"]
        assert first == ["1", "-,0,1", "1·3·5····", "dice?", "2", "dice", "1", "die", *stacked]


def test_explain_and_diff_draw_the_same_state_alike() -> None:
    explained = shutbox("explain", "greedy-high", "--top", "1", columns=None).stdout
    differed = shutbox("diff", "greedy-high", "optimal", "--top", "1", columns=None).stdout
    for text in (explained, differed):
        assert re.search(r"\n··3456··· +dice\? +1 die +2 dice +", text), text


@pytest.mark.slow
@pytest.mark.parametrize("command", ["explain", "diff"])
def test_a_twelve_tile_box_fits_sixty_columns(command: str) -> None:
    arguments = ("explain", "greedy-high") if command == "explain" else ("diff", "greedy-high", "optimal")
    text = shown(*arguments, "--tiles", "12", columns=60)
    assert re.search(r"\n[1·][2·][3·][4·][5·][6·][7·][8·][9·] (10| ·) (11| ·) (12| ·)  ", text), text
