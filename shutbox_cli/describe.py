"""A rule set in plain words, one line per rule."""

from .game.rules import FirstRoll, OneDie, OneDieMode, Rules, Scoring, ShutRule, Ties

_SHUT = {
    ShutRule.ANY: "shut any set of open tiles that adds up to the roll",
    ShutRule.DICE_OR_TOTAL: "shut the tile equal to the total, or the two tiles equal to each die",
    ShutRule.ONE_TILE: "shut one tile, equal to either die or to the total",
}
_ONE_DIE = {
    OneDie.HIGH_TILES: "once every tile from 7 up is shut",
    OneDie.LOW_SUM: "once the open tiles add up to 6 or less",
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
    full = sum(range(1, rules.tiles + 1))
    lines = [
        f"Box: tiles 1 to {rules.tiles} (they add up to {full}), all open at the start of each turn.",
        f"Each roll: {_SHUT[rules.shut_rule]}; the first roll that cannot be used ends the turn.",
    ]
    if rules.one_die is OneDie.OFF:
        lines.append("Dice: always two.")
    else:
        how = "must" if rules.one_die_mode is OneDieMode.COMPULSORY else "may"
        lines.append(f"Dice: two; the player {how} roll one die {_ONE_DIE[rules.one_die]}.")
    if rules.first_roll is not FirstRoll.NONE:
        tile = 2 if rules.first_roll is FirstRoll.TWO_TO_GO else 3
        lines.append(f"First shut: must include the {tile}, or the turn ends at once ({rules.first_roll.value}).")
    lines.append(f"Score: {_SCORING[rules.scoring]}; lowest wins; a shut box scores 0.")
    if rules.drop_out is not None:
        lines.append(
            f"Format: scores add up round after round; a total of {rules.drop_out} or more is out; "
            "the last player left wins."
        )
    elif rules.rounds > 1:
        lines.append(f"Format: {rules.rounds} rounds; scores add up and the lowest total wins.")
    else:
        lines.append("Format: one turn each, in seat order.")
    if rules.instant_win:
        lines.append("Shutting the box wins the game at once; later seats do not play.")
    else:
        lines.append("Shutting the box scores 0 and play goes on.")
    lines.append(f"Ties: {_TIES[rules.ties]}.")
    return lines
