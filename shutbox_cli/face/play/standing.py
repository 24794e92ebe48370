"""Where a game stands as a turn starts: the score to beat, everyone's running total, the drop-out limit."""

from __future__ import annotations

from collections.abc import Sequence

from ...game import Rules, TurnContext, score
from .aims import keeps_in, settled_chance
from .result import join_names


def standing_lines(rules: Rules, context: TurnContext, names: Sequence[str]) -> list[str]:
    """What the player about to play needs to know of the game so far, in a line or two: the score to
    beat (one round), the running totals once someone has played this round, the drop-out limit."""
    if context.playoff or not rules.multi_round:
        best = context.score_to_beat
        if best is None:
            return []
        holders = [names[player] for player, posted in enumerate(context.scores) if posted == best]
        return [f"Score to beat: {best} ({join_names(holders)})."]
    lines = []
    running = [
        (names[player], total + (posted or 0), posted is None)
        for player, (total, posted, active) in enumerate(
            zip(context.totals, context.scores, context.active, strict=True)
        )
        if active and player != context.player
    ]
    if running and context.score_to_beat is not None:
        own = f"{names[context.player]} {context.totals[context.player]}"
        limit = rules.drop_out

        def tagged(total: int, to_play: bool) -> str:
            return " (to play)" if to_play else " (out)" if limit is not None and total >= limit else ""

        others = [f"{name} {total}{tagged(total, to_play)}" for name, total, to_play in running]
        lines.append(f"Totals: {', '.join([own, *others])}.")
    highest = keeps_in(rules, context)
    if highest is not None:
        who = "you" if names[context.player] == "You" else names[context.player]
        if highest >= score(rules, rules.full_box):
            stays = "stay" if who == "you" else "stays"
            lines.append(f"Out at {rules.drop_out}: {who} {stays} in this round whatever the score.")
        elif highest == 0:
            lines.append(f"Out at {rules.drop_out}: only a shut box keeps {who} in.")
        else:
            lines.append(f"Out at {rules.drop_out}: a score of {highest} or less keeps {who} in.")
    return lines


def settled_line(rules: Rules, context: TurnContext, name: str) -> str | None:
    """Whether the game is already decided, whatever this turn scores; the rules still play the turn
    (every player still in plays each round), so the player is told it counts only for the totals."""
    chance = settled_chance(rules, context)
    if chance is None:
        return None
    who = "you" if name == "You" else name
    if chance > 0.5:
        what = f"The game is decided: {who} {'win' if who == 'you' else 'wins'} whatever this turn scores"
    else:
        what = f"Nothing this turn can win the game for {who}"
    return f"{what}. The rules play the round out, so the turn still counts for the totals."
