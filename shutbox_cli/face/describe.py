"""A rule set in words: in full, one sentence per rule, and in short, what differs from the defaults.

Defaults are docs/rules.md's, on a box of the same size and in the same game format: a 12-tile box
rolls one die by the low-sum rule, and a game of rounds plays on after a shut box, unless told otherwise.
"""

from collections.abc import Collection
from typing import Any

from ..game import one_die_allowed
from ..game.rules import HIGH_TILE, ONE_DIE_LOW_SUM, SHUT_PAYS, OneDie, OneDieMode, Rules, Scoring, ShutRule, Ties

TURN_OPTIONS = ("tiles", "shut_rule", "one_die", "one_die_mode", "scoring", "first_roll")
"""The options that shape a single turn (the rest shape a game: rounds, drop-out, instant win, ties)."""

_SHUT = {
    ShutRule.ANY: "shut any set of open tiles that adds up to the roll",
    ShutRule.DICE_OR_TOTAL: "shut the tile equal to the total, or the two tiles equal to each die",
    ShutRule.ONE_TILE: "shut one tile, equal to either die or to the total",
}
_ONE_DIE = {
    OneDie.HIGH_TILES: f"once every tile from {HIGH_TILE} up is shut",
    OneDie.LOW_SUM: f"once the open tiles add up to {ONE_DIE_LOW_SUM} or less",
}
_ONE_DIE_AT_ONCE = {
    OneDie.HIGH_TILES: f"this box has no tiles from {HIGH_TILE} up",
    OneDie.LOW_SUM: f"this box's tiles add up to {ONE_DIE_LOW_SUM} or less",
}
_SCORING = {
    Scoring.SUM: "the sum of the tiles left open",
    Scoring.COUNT: "the number of tiles left open",
    Scoring.DIGITS: "the open tiles read lowest first as one number (1, 2, 9 scores 129)",
}
_TIES = {
    Ties.SHARE: "equal lowest scores share the win",
    Ties.SEAT: "of equal lowest scores, the earlier seat wins",
    Ties.PLAYOFF: "players with equal lowest scores play further rounds until one wins",
}


def describe_rules(rules: Rules) -> list[str]:
    """The rules as short sentences a player can read."""
    lines = [
        f"Box: tiles 1 to {rules.tiles} (they add up to {rules.tiles * (rules.tiles + 1) // 2}), "
        "all open at the start of each turn.",
        f"Each roll: {_SHUT[rules.shut_rule]}; the first roll that cannot be used ends the turn.",
        _dice(rules),
    ]
    tile = rules.first_roll.tile
    if tile is not None:
        lines.append(f"First shut: must include the {tile}, or the turn ends at once ({rules.first_roll.value}).")
    lines.append(f"Score: {_SCORING[rules.scoring]}; lowest wins; a shut box scores 0.")
    if rules.drop_out is not None:
        lines.append(
            f"Format: scores add up round after round; a total of {rules.drop_out} or more is out; "
            "the last player left wins. If everyone left goes out in the same round, the lowest total wins, "
            "ties settled by the tie rule."
        )
    elif rules.rounds > 1:
        lines.append(f"Format: {rules.rounds} rounds; scores add up and the lowest total wins.")
    else:
        lines.append("Format: one turn each, in seat order.")
    lines.append(_instant_win(rules))
    lines.append(f"Ties: {_TIES[rules.ties]}.")
    if rules.shut_pays != SHUT_PAYS:
        lines.append(
            f"Stakes: each loser pays the winner one stake (shared by joint winners), "
            f"{rules.shut_pays:g} if the winner shut the box."
        )
    return lines


def _dice(rules: Rules) -> str:
    """When the player rolls one die or two; on a small box the one-die rule may hold from the start."""
    if rules.one_die is OneDie.OFF:
        return "Dice: always two."
    compulsory = rules.one_die_mode is OneDieMode.COMPULSORY
    if one_die_allowed(rules, rules.full_box):
        if compulsory:
            return f"Dice: always one, as {_ONE_DIE_AT_ONCE[rules.one_die]} ({rules.one_die.value}, compulsory)."
        return f"Dice: two, or one if the player likes, from the start: {_ONE_DIE_AT_ONCE[rules.one_die]}."
    return f"Dice: two; the player {'must' if compulsory else 'may'} roll one die {_ONE_DIE[rules.one_die]}."


def _instant_win(rules: Rules) -> str:
    if rules.instant_win:
        return "Shutting the box wins the game at once; later seats do not play."
    return "Shutting the box scores 0 and play goes on."


def describe_changes(rules: Rules) -> list[str]:
    """The sentences of `describe_rules` that a player used to the standard game on a box of this
    size needs told; in a game of rounds, what a shut box does too (its default differs there)."""
    standard = describe_rules(Rules(tiles=rules.tiles))
    told = _instant_win(rules) if rules.multi_round else None
    return [line for line in describe_rules(rules) if line not in standard or line == told]


def rules_in_short(rules: Rules, options: Collection[str] | None = None) -> str:
    """The options that differ from their defaults, as `option = value` in the words of docs/rules.md
    (`tiles = 12, ties = playoff`), or `standard`; only those of `options` when given."""
    standard = Rules().to_mapping()
    defaults = Rules(tiles=rules.tiles, rounds=rules.rounds, drop_out=rules.drop_out).to_mapping()
    defaults |= {option: standard.get(option) for option in ("tiles", "rounds", "drop_out")}
    changed = [
        _option_in_short(option, value)
        for option, value in rules.to_mapping().items()
        if value != defaults.get(option) and (options is None or option in options)
    ]
    return ", ".join(changed) if changed else "standard"


def _option_in_short(option: str, value: Any) -> str:
    """One option as `option = value`; a stake in words (`a shut box pays 2 stakes`)."""
    if option == "shut_pays":
        return f"a shut box pays {value:g} stake{'' if value == 1 else 's'}"
    return f"{option} = {str(value).lower() if isinstance(value, bool) else value}"
