"""Write docs/values.md: the value of a game under perfect play, across variants (one round at tables
of 2 to 4; two seats over several rounds and in drop-out).

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
PAIRS: tuple[tuple[dict[str, int], tuple[str, ...]], ...] = (
    ({"rounds": 2}, ("share", "seat")),
    ({"rounds": 3}, ("share", "seat")),
    ({"rounds": 4}, ("share", "seat")),
    ({"rounds": 5}, ("share", "seat")),
    ({"drop_out": 45}, ("share", "seat", "playoff")),
    ({"drop_out": 100}, ("share", "seat")),
)
"""Games of two seats on 9 tiles, each with the tie rules of its rows (playoffs over fixed rounds are
not solved)."""
PAIRS_HEADING = "## Two seats over several rounds and in drop-out (9 tiles)"
PAIRS_HEAD = """Two seats, 9 tiles, every other rule at its default (instant win off: a shut box scores 0 for the
round). Each seat plays to win the game knowing the other does too, by backward induction over the
rounds and both totals (`shutbox solve --rounds N`, `--drop-out L`); seat 1 plays first each round.
**tie** is the chance that the final totals (or, in drop-out, the totals of two seats out in the same
round) tie."""

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


def pair_row(rules: Rules) -> str:
    """One line of the two seats' table: a game over several rounds or in drop-out."""
    found = solve(rules, 2)
    game = f"drop-out at {rules.drop_out}" if rules.drop_out is not None else f"{rules.rounds} rounds"
    cells = [
        game,
        rules.ties.value,
        " / ".join(f"{seat.win:.6f}" for seat in found.perfect.seats),
        f"{found.perfect.tie:.6f}",
        f"{found.perfect.advantage:+.6f}",
        f"{found.optimal.advantage:+.6f}",
    ]
    return "| " + " | ".join(cells) + " |"


def pairs() -> Iterator[str]:
    """The two seats' table."""
    yield PAIRS_HEADING
    yield ""
    yield PAIRS_HEAD
    yield ""
    yield "| game | ties | perfect play: each seat's chance | tie | last - first | all optimal: last - first |"
    yield "|---|---|---|---:|---:|---:|"
    for game, ties in PAIRS:
        for tie in ties:
            yield pair_row(Rules(tiles=9, ties=tie, **game))  # type: ignore[arg-type]
    yield ""


def page() -> str:
    """The whole page."""
    lines = [HEAD]
    for tiles in TILES:
        lines.extend(section(tiles))
    lines.extend(pairs())
    return "\n".join(lines)


def main(arguments: list[str]) -> None:
    text = page()
    if arguments == ["-"]:
        sys.stdout.write(text)
    else:
        Path(__file__).with_name("values.md").write_text(text)


if __name__ == "__main__":
    main(sys.argv[1:])
