"""A person's seat: each roll asked for, each shut typed, mistakes answered in one sentence."""

from __future__ import annotations

from functools import cached_property

from shutbox_cli.game.terms import GameNumber, Mask, Seed

from ...game import ShutRule, Turn, TurnContext, TurnRecord, tiles_of
from .aims import Aim, aim_for
from .board import dice_count, dice_text, mask_text, one_die_reason, one_die_refusal, roll_name, tile_rows, verb
from .coach import Decision, decide
from .entry import EntryError, extend_selection, read_tiles
from .hints import dice_hint, move_hint
from .screen import Screen

ROLL_HELP = "Enter (or r) rolls; after a roll type the tiles to shut; ? lists them, h hints, q quits."
ONE_DIE_DEFAULT = 2
"""What Enter rolls at the one-die question: two dice, as every roll of the turn so far."""


class HumanSeat:
    """A player at the keyboard; `decisions` lists the choices of the game in progress, for the coach."""

    computer = False

    def __init__(self, name: str) -> None:
        self.name = name
        self.decisions: list[Decision] = []

    def play_turn(self, screen: Screen, turn: Turn, context: TurnContext, seed: Seed, game: GameNumber) -> TurnRecord:
        """Play a turn from the keyboard (the dice are already in `turn`)."""
        _HumanTurn(screen, turn, self.name, context, self.decisions).play()
        return turn.record()


class _HumanTurn:
    """One turn at the keyboard, and the choice of dice that holds for the rest of it."""

    def __init__(self, screen: Screen, turn: Turn, name: str, context: TurnContext, decisions: list[Decision]) -> None:
        self.screen = screen
        self.turn = turn
        self.rules = turn.rules
        self.name = name
        self.context = context
        self.decisions = decisions
        self.dice_choice: int | None = None
        self.told_compulsory = False

    @cached_property
    def aim(self) -> Aim:
        """What this turn plays for, worked out when the first hint or choice needs it."""
        return aim_for(self.rules, self.context)

    def note_dice(self, count: int) -> int:
        """Count a choice of dice for the coach; return it."""
        open_mask = self.turn.open_mask
        where = (self.context.round, self.context.playoff, len(self.turn.history) + 1)
        self.decisions.append(decide(self.aim.ranked_dice(open_mask), count, where, open_mask, None))
        return count

    def note_move(self, move: Mask) -> int:
        """Count a choice of move for the coach; return it."""
        turn = self.turn
        assert turn.dice is not None
        where = (self.context.round, self.context.playoff, len(turn.history) + 1)
        ranked = self.aim.ranked_moves(turn.open_mask, turn.dice)
        self.decisions.append(decide(ranked, move, where, turn.open_mask, turn.dice))
        return move

    def play(self) -> None:
        turn, screen = self.turn, self.screen
        while not turn.over:
            screen.say_rows(tile_rows(self.rules, turn.open_mask, screen.width))
            dice = turn.roll(self.ask_dice())
            screen.say(f"{verb(self.name, 'roll', 'rolls')} {dice_text(dice)}.")
            if turn.over:
                break
            if len(turn.moves) == 1:
                how = "make" if self.rules.shut_rule is ShutRule.ANY else "use"
                screen.say(f"Only one way to {how} {roll_name(self.rules, dice)}: {mask_text(turn.moves[0])}, shut.")
                screen.pause()
                turn.shut(turn.moves[0])
            else:
                turn.shut(self.note_move(self.ask_move()))

    def ask_dice(self) -> int:
        """The number of dice for the next roll, asked when the one-die option first opens."""
        options = self.turn.dice_options
        if options == (1, 2) and self.dice_choice is None:
            self.screen.say(f"{one_die_reason(self.rules)}: you may roll one die from now on.")
            return self.note_dice(self.ask_one_die())
        if options == (1,) and not self.told_compulsory:
            self.screen.say(f"{one_die_reason(self.rules)}: from now on you must roll one die.")
            self.told_compulsory = True
        if options == (1, 2):
            chosen = self.dice_choice or 2
            other = 3 - chosen
            prompt = f"Roll {dice_count(chosen)} [Enter], or {other} for {dice_count(other)}: "
        else:
            chosen = options[0]
            prompt = "Roll one die [Enter]: " if chosen == 1 else "Roll [Enter]: "
        while True:
            answer = self.screen.ask(prompt).lower()
            if answer in ("", "r"):
                return self.note_dice(chosen) if len(options) > 1 else chosen
            if answer in ("1", "2") and int(answer) in options:
                if len(options) > 1:
                    self.dice_choice = int(answer)
                    return self.note_dice(int(answer))
                return int(answer)
            if answer == "1":
                self.screen.say(one_die_refusal(self.rules))
            elif answer == "2":
                self.screen.say("Two dice are not allowed now: one die is compulsory.")
            elif answer == "h":
                self.screen.say_lines(dice_hint(self.aim, self.turn.open_mask))
            elif answer == "?":
                self.screen.say(ROLL_HELP)
            else:
                self.screen.say("Press Enter to roll; ? shows the keys, q quits.")

    def ask_one_die(self) -> int:
        """The question asked once per turn when one die becomes a choice; the answer also rolls."""
        while True:
            answer = self.screen.ask(f"One die or two? [1/2, Enter: {ONE_DIE_DEFAULT}]: ").lower()
            if answer in ("", "r"):
                answer = str(ONE_DIE_DEFAULT)
            if answer in ("1", "2"):
                self.dice_choice = int(answer)
                return self.dice_choice
            if answer == "h":
                self.screen.say_lines(dice_hint(self.aim, self.turn.open_mask))
            elif answer == "?":
                self.screen.say(
                    f"Type 1 or 2 (Enter rolls {dice_count(ONE_DIE_DEFAULT)}); "
                    "the choice holds for the rest of the turn, until you type the other."
                )
            else:
                self.screen.say(f"Type 1 to roll one die or 2 to roll two (Enter rolls {dice_count(ONE_DIE_DEFAULT)}).")

    def ask_move(self) -> int:
        """The move to shut for the pending roll, typed in one go or a few tiles at a time."""
        turn, rules, screen = self.turn, self.rules, self.screen
        dice = turn.dice
        assert dice is not None
        roll = roll_name(rules, dice)
        label = f"Shut tiles for {roll}" if rules.shut_rule is ShutRule.ANY else f"Shut for {roll}"
        started = 0
        while True:
            answer = screen.ask(f"{label} ({mask_text(started)} so far): " if started else f"{label}: ")
            if answer == "?":
                screen.say(f"Combinations for {roll}: {', '.join(mask_text(move) for move in turn.moves)}.")
            elif answer.lower() == "h":
                screen.say_lines(move_hint(self.aim, turn.open_mask, dice))
            elif not answer and started:
                started = 0
                screen.say(f"Selection cleared; type the tiles for {roll} again.")
            elif not answer:
                example = " ".join(map(str, tiles_of(turn.moves[-1])))
                what = "tile" if rules.shut_rule is ShutRule.ONE_TILE else "tiles"
                screen.say(f"Type the {what} to shut, such as {example}; ? lists the combinations.")
            else:
                try:
                    selection = extend_selection(
                        rules, turn.open_mask, dice, turn.moves, started, read_tiles(answer, rules)
                    )
                except EntryError as error:
                    screen.say(str(error), style="yellow")
                    continue
                if selection.complete:
                    return selection.mask
                started = selection.mask
                needed = sum(dice) - selection.total
                screen.say(f"{selection.total} so far, {needed} still needed (Enter starts again).")
