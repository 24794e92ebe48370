"""How the box, the dice and the moves are written: plain text first, style only as a help."""

from __future__ import annotations

from rich.text import Text

from shutbox_cli.game.terms import Mask

from ...game import OneDie, Rules, ShutRule, score, tiles_of
from ...game.rules import HIGH_TILE, ONE_DIE_LOW_SUM

ROW_INDENT = "  "


def tile_rows(rules: Rules, open_mask: Mask, width: int | None = None) -> list[Text]:
    """The box as a row of tiles: open ones in brackets, shut ones as a dash, and the score now.

    Given a terminal's `width`, the row is broken between tiles into as many rows as it
    takes, every row indented alike, so each tile keeps its column.
    """
    digits = len(str(rules.tiles))
    cells = [
        Text(f"[{tile:>{digits}}]", style="bold")
        if open_mask >> (tile - 1) & 1
        else Text(f" {'-':>{digits}} ", style="dim")
        for tile in range(1, rules.tiles + 1)
    ]
    gaps = [""] + [" "] * (rules.tiles - 1) + ["   "]
    rows = [Text(ROW_INDENT)]
    for gap, cell in zip(gaps, [*cells, Text(f"score {score(rules, open_mask)}", style="cyan")], strict=True):
        if width is not None and gap and rows[-1].cell_len + len(gap) + cell.cell_len > width:
            rows[-1].rstrip()
            rows.append(Text(ROW_INDENT))
            gap = ""
        rows[-1].append(gap)
        rows[-1].append_text(cell)
    return rows


def move_text(tiles: tuple[int, ...] | list[int]) -> str:
    """Tiles to shut, written as a sum: `3 + 6`."""
    return " + ".join(map(str, tiles))


def mask_text(move: Mask) -> str:
    """A move (bitmask) written as a sum."""
    return move_text(tiles_of(move))


def tile_list(tiles: tuple[int, ...]) -> str:
    """Tiles as a list for a sentence: `1, 2, 9`."""
    return ", ".join(map(str, tiles))


def dice_text(dice: tuple[int, ...]) -> str:
    """A throw: `3 + 6 = 9`, or `one die: 4`."""
    if len(dice) == 1:
        return f"one die: {dice[0]}"
    return f"{move_text(dice)} = {sum(dice)}"


def roll_name(rules: Rules, dice: tuple[int, ...]) -> str:
    """What the tiles must match: the total under the standard rule, the dice otherwise."""
    if rules.shut_rule is ShutRule.ANY or len(dice) == 1:
        return str(sum(dice))
    return move_text(dice)


def dice_count(count: int) -> str:
    return "one die" if count == 1 else "two dice"


def one_die_reason(rules: Rules) -> str:
    """Why one die is allowed now, in the words of the rule in force."""
    if rules.one_die is OneDie.LOW_SUM:
        return f"The open tiles add up to {ONE_DIE_LOW_SUM} or less"
    high = tuple(range(HIGH_TILE, rules.tiles + 1))
    if not high:
        return f"This box has no tiles from {HIGH_TILE} up"
    if len(high) == 1:
        return f"The {high[0]} is shut"
    return f"{', '.join(map(str, high[:-1]))} and {high[-1]} are shut"


def one_die_refusal(rules: Rules) -> str:
    """Why one die may not be rolled now, for a player who asks too early (or under rules without it)."""
    if rules.one_die is OneDie.OFF:
        return "One die is never allowed: these rules always use two dice."
    if rules.one_die is OneDie.LOW_SUM:
        return f"One die is not allowed yet: it needs the open tiles to add up to {ONE_DIE_LOW_SUM} or less."
    return f"One die is not allowed yet: it needs every tile from {HIGH_TILE} up to be shut."


def possessive(name: str) -> str:
    return "Your" if name == "You" else f"{name}'s"


def verb(name: str, plain: str, third: str) -> str:
    """`You roll` but `Ann rolls`."""
    return f"{name} {plain if name == 'You' else third}"
