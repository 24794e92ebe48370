"""How a knockout looks: the bracket drawn as a tree (each round a column, the winners meeting to
the right), then each round's ties with their figures, then the winner; plain text that fits the
terminal (a name too long for its column is cut, with an ellipsis: the ties below name it whole)."""

from __future__ import annotations

import textwrap

from shutbox_cli.face.console import results_console
from shutbox_cli.face.describe import rules_in_short
from tournaments import Knockout, Tie

SEEDED = {"order": "in the order given", "ratings": "by a report's ratings", "exact": "by their exact tournament"}
"""How the field was seeded, in words."""
MOST_COLUMN = 24
"""The widest a round's column is drawn."""
LEAST_COLUMN = 8
"""The narrowest: a bracket of more rounds than fit is drawn wider than the terminal."""


def knockout_lines(knockout: Knockout, width: int | None = None) -> list[str]:
    """The whole knockout as lines of text at most `width` wide (by default the results console's)."""
    width = results_console().width if width is None else width
    config = knockout.config
    seed = f"seed {config.seed}" + (f" (drawn; repeat with --seed {config.seed})" if knockout.seed_drawn else "")
    most = "at most " if knockout.sprt is not None else ""
    head = [
        f"Knockout: {len(config.strategies)} strategies, seeded {SEEDED.get(knockout.seeding, knockout.seeding)}; "
        f"{seed}; each tie {most}{config.games:,} games in pairs (each deal twice, the seats swapped).",
        f"Rules: {rules_in_short(config.rules)}.",
    ]
    lines = [part for line in head for part in _fitted(line, width)]
    lines += ["", *bracket_lines(knockout, width), ""]
    for name, ties in zip(knockout.round_names(), knockout.rounds, strict=True):
        lines.append(name[0].upper() + name[1:] + ":")
        lines += [part for tie in ties for part in _fitted("  " + tie_line(knockout, tie), width, "    ")]
    lines.append(f"Winner: {knockout.winner}.")
    return lines


def bracket_lines(knockout: Knockout, width: int) -> list[str]:
    """The bracket as a tree: the first round's places down the left, each tie's two places joined
    to its winner in the next column, the knockout's winner at the right."""
    rounds = knockout.rounds
    column = max(LEAST_COLUMN, min(MOST_COLUMN, width // (len(rounds) + 1)))
    places = 2 * len(rounds[0])
    grid = [[" "] * (column * (len(rounds) + 1)) for _ in range(2 * places - 1)]
    for depth, ties in enumerate(rounds):
        labels = [_label(knockout, seat) for tie in ties for seat in (tie.first, tie.second)]
        for index, label in enumerate(labels):
            row = index * 2 ** (depth + 1) + 2**depth - 1
            _write(grid[row], depth * column, (_cut(label, column - 4) + " ").ljust(column - 2, "─"))
            _join(grid, row, index, depth, column)
    last = len(rounds) * column
    _write(grid[2 ** len(rounds) - 1], last, _cut(_label(knockout, rounds[-1][0].winner), column))
    return ["".join(row).rstrip() for row in grid]


def tie_line(knockout: Knockout, tie: Tie) -> str:
    """A tie in words: who met whom, who went through, and on what figures."""
    names = knockout.names
    first = f"({tie.first + 1}) {names[tie.first]}"
    if tie.second is None:
        return f"{first}: a bye."
    second = f"({tie.second + 1}) {names[tie.second]}"
    if tie.decided == "seed":
        said = f"{first} and {second} drew"
    else:
        said = f"{first} beat {second}" if tie.winner == tie.first else f"{second} beat {first}"
    if tie.exact is not None:
        figures = f"{first.split(' ', 1)[1]} scores {100 * tie.exact:.3f}% computed exactly"
    else:
        figures = _played(tie, names[tie.first])
    through = "; the higher seed goes through" if tie.decided == "seed" else ""
    return f"{said}: {figures}{through}."


def _played(tie: Tie, first: str) -> str:
    """A played tie's figures, from the higher seed's side."""
    match = tie.match
    assert match is not None
    pairs, estimate = match.pairs, match.estimate
    low, high = pairs.score_interval()
    text = (
        f"{first} scores {100 * pairs.score:.2f}% (95% CI {100 * low:.2f}–{100 * high:.2f}%) in {pairs.pairs:,} "
        f"pairs, Elo {estimate.elo:+.1f}, nElo {match.nelo[0]:+.1f}"
    )
    if match.sprt is not None:
        text += f", SPRT {match.verdict.value} (LLR {match.llr:.2f})"
    return text


def _label(knockout: Knockout, seat: int | None) -> str:
    return "bye" if seat is None else f"({seat + 1}) {knockout.names[seat]}"


def _cut(text: str, width: int) -> str:
    """The text, cut with an ellipsis to fit `width` characters."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _write(row: list[str], at: int, text: str) -> None:
    row[at : at + len(text)] = list(text)


def _join(grid: list[list[str]], row: int, index: int, depth: int, column: int) -> None:
    """Join a place to its partner's: down from the upper one (even `index`), up from the lower, and
    across to the winner's place in the next column, halfway between them."""
    at = (depth + 1) * column - 2
    step = 2**depth
    if index % 2 == 0:
        grid[row][at] = "┐"
        for between in range(row + 1, row + 2 * step):
            grid[between][at] = "│"
        grid[row + step][at] = "├"
        grid[row + step][at + 1] = "─"
    else:
        grid[row][at] = "┘"


def _fitted(line: str, width: int, indent: str = "  ") -> list[str]:
    """A line broken between words to fit `width`, its later lines indented."""
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
