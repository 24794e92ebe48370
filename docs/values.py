"""Write docs/values.md: the value of a one-round game under perfect play, across variants.

    python docs/values.py            # writes docs/values.md beside this file
    python docs/values.py -          # prints it instead

Every figure comes from `tournaments.solve` (what `shutbox solve` prints); tests/docs check a part of
the page against it. The whole page takes a few minutes of CPU (12 tiles with playoffs the most).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from shutbox_cli.game import Rules
from tournaments import solve

TILES = (9, 10, 12)
ONE_DIE = ("high-tiles", "low-sum", "off")
TIES = ("share", "seat", "playoff")
TABLES = (2, 3, 4)

HEADINGS = (
    "| one die | ties | seats | perfect play: each seat's chance | tie | last - first | all optimal: last - first |"
)
HEAD = """# The value of the game

Each seat's chance to win a one-round game when every seat plays perfectly (`perfect`: each plays
to win, knowing that every later seat does too), for the variants below; every other rule at its
default (shut rule `any`, one die optional, scores summed, no first-roll rule, instant win on). Seat
1 plays first. A shared win counts as its part; **tie** is the chance that the lowest scores tie
(shared, won by the earlier seat, or played off, as the tie rule says); **last - first** is the last
seat's chance less the first's, under perfect play and, beside it, when every seat plays `optimal`.
Chances to 6 decimals, computed exactly in floats (`shutbox solve`); this page is written by
`python docs/values.py`, and a test holds part of it to what `shutbox solve` finds.
"""


def row(rules: Rules, table: int) -> str:
    """One line of the page: a rule set at a table."""
    found = solve(rules, table)
    chances = " / ".join(f"{seat.win:.6f}" for seat in found.perfect.seats)
    cells = [
        rules.one_die.value,
        rules.ties.value,
        str(table),
        chances,
        f"{found.perfect.tie:.6f}",
        f"{found.perfect.advantage:+.6f}",
        f"{found.optimal.advantage:+.6f}",
    ]
    return "| " + " | ".join(cells) + " |"


def section(tiles: int) -> Iterator[str]:
    """A box size's table."""
    yield f"## {tiles} tiles"
    yield ""
    yield HEADINGS
    yield "|---|---|---:|---|---:|---:|---:|"
    for one_die in ONE_DIE:
        for ties in TIES:
            rules = Rules(tiles=tiles, one_die=one_die, ties=ties)  # type: ignore[arg-type]
            for table in TABLES:
                yield row(rules, table)
    yield ""


def page() -> str:
    """The whole page."""
    lines = [HEAD]
    for tiles in TILES:
        lines.extend(section(tiles))
    return "\n".join(lines)


def main(arguments: list[str]) -> None:
    text = page()
    if arguments == ["-"]:
        sys.stdout.write(text)
    else:
        Path(__file__).with_name("values.md").write_text(text)


if __name__ == "__main__":
    main(sys.argv[1:])
