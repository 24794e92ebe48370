"""docs/values.md is what docs/values.py writes: a part of it regenerated here (9 tiles, the default
one-die rule, every tie rule and table) matches the page line for line, and the page holds a row for
every variant the script lists."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from shutbox_cli.game import Rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def values_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("values_page", DOCS / "values.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("table", [2, 3, 4])
@pytest.mark.parametrize("ties", ["share", "seat", "playoff"])
def test_the_page_holds_the_rows_the_script_writes(ties: str, table: int) -> None:
    script = values_script()
    lines = (DOCS / "values.md").read_text().splitlines()
    section = lines[lines.index("## 9 tiles") : lines.index("## 10 tiles")]
    assert script.row(Rules(tiles=9, one_die="high-tiles", ties=ties), table) in section  # type: ignore[arg-type]


def test_the_page_has_a_row_for_every_variant() -> None:
    script = values_script()
    text = (DOCS / "values.md").read_text()
    assert text.startswith(script.HEAD)
    for tiles in script.TILES:
        part = text.split(f"## {tiles} tiles\n", 1)[1].split("\n## ", 1)[0]
        keys = [tuple(cell.strip() for cell in line.split("|")[1:4]) for line in part.splitlines()[3:] if line]
        expected = [
            (one, ties, str(table)) for one in script.ONE_DIE for ties in script.TIES for table in script.TABLES
        ]
        assert keys == expected


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["share", "seat"])
def test_the_two_seats_table_holds_the_rows_the_script_writes(ties: str) -> None:
    script = values_script()
    lines = (DOCS / "values.md").read_text().splitlines()
    section = lines[lines.index(script.PAIRS_HEADING) :]
    assert script.pair_row(Rules(tiles=9, rounds=2, ties=ties)) in section  # type: ignore[arg-type]


def test_the_two_seats_table_has_a_row_for_every_game() -> None:
    script = values_script()
    text = (DOCS / "values.md").read_text()
    part = text.split(f"{script.PAIRS_HEADING}\n", 1)[1]
    assert part.startswith("\n" + script.PAIRS_HEAD)
    rows = [line for line in part.splitlines() if line.startswith("| ") and not line.startswith("| game")]
    keys = [tuple(cell.strip() for cell in row.split("|")[1:3]) for row in rows]
    expected = [
        (f"drop-out at {game['drop_out']}" if "drop_out" in game else f"{game['rounds']} rounds", tie)
        for game, ties in script.PAIRS
        for tie in ties
    ]
    assert keys == expected
