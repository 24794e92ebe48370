"""The table: games one after another, each turn announced and scored, the result, the rematch.

`play_table` is what `shutbox play` runs. Exit statuses: 0 when the player stops (q, or no
rematch, or input ending at the rematch question); 1 when input ends in the middle of a
game; 130 on Ctrl-C.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..describe import describe_changes
from ..errors import FAILURE, INTERRUPTED
from ..game import GameRecord, Rules, ShutRule, Turn, TurnContext, TurnRecord, play_game, turn_rolls
from .best import BestScores, keeps_best
from .board import possessive, roll_name, tile_list, verb
from .entry import how_to_type
from .result import join_names, outcome_lines, score_table, scores_line
from .screen import EndOfInput, Quit, Screen
from .seats import Seat

QUIT_STATUS = 0


class Table:
    """Seats around one box under one rule set, with the dice of one seed."""

    def __init__(self, screen: Screen, rules: Rules, seats: Sequence[Seat], seed: int, best: BestScores | None) -> None:
        self.screen = screen
        self.rules = rules
        self.seats = list(seats)
        self.names = [seat.name for seat in seats]
        self.seed = seed
        self.best = best if len(seats) == 1 and keeps_best(rules) else None
        self.game = 0
        self._round: int | None = None
        self._active: tuple[bool, ...] = ()

    @property
    def solo(self) -> bool:
        return len(self.seats) == 1

    def run(self) -> None:
        """Play games until the players stop."""
        self.header()
        first = 0
        while True:
            if self.game:
                self.screen.say()
                self.screen.say(f"Game {self.game + 1}." + ("" if self.solo else f" {self.names[first]} goes first."))
            self._round, self._active = None, ()
            record = play_game(self.rules, len(self.seats), self.play_turn, first_seat=first)
            self.finish(record)
            if not self.ask_rematch():
                return
            self.game += 1
            first = (first + 1) % len(self.seats)

    def header(self) -> None:
        say = self.screen.say
        say(f"Shut the Box: tiles 1 to {self.rules.tiles}. Seed {self.seed}.", style="bold")
        for line in describe_changes(self.rules):
            say(line)
        if not self.solo:
            names = [seat.name + (" (computer)" if seat.computer else "") for seat in self.seats]
            say(f"Players: {join_names(names)}.")
        if self.best is not None:
            problem = self.best.load()
            if problem:
                say(problem, style="yellow")
            known = self.best.get(self.rules)
            if known is not None:
                say(f"Your best with these rules: {self.best_text(known)}.")
        say("Enter rolls; ? lists the combinations; h hints; q quits.")
        say(f"Type the tiles to shut as {how_to_type(self.rules.tiles)}.")

    def play_turn(self, context: TurnContext) -> TurnRecord:
        """The engine's turn callback: announce, let the seat play on this turn's dice, score."""
        self.announce(context)
        seat = self.seats[context.player]
        turn = Turn(self.rules, turn_rolls(self.seed, self.game, context.round, context.seat))
        record = seat.play_turn(self.screen, turn, context, self.seed, self.game)
        self.turn_end(seat.name, record)
        return record

    def announce(self, context: TurnContext) -> None:
        """Name the round when it changes (with totals and who is out) and the player whose turn it is."""
        say = self.screen.say
        new_round = context.round != self._round
        if new_round or not self.solo:
            say()
        if new_round and context.playoff:
            tied = [self.names[player] for player, active in enumerate(context.active) if active]
            say(f"Playoff: {join_names(tied)} play again.", style="bold")
        elif new_round and self.rules.multi_round:
            of = f" of {self.rules.rounds}" if self.rules.drop_out is None else ""
            totals = ", ".join(f"{name} {total}" for name, total in zip(self.names, context.totals, strict=True))
            so_far = f"; totals so far: {totals}." if context.round else "."
            say(f"Round {context.round + 1}{of}{so_far}", style="bold")
            for player, active in enumerate(context.active):
                if self._active and self._active[player] and not active:
                    say(f"{verb(self.names[player], 'are', 'is')} out, with a total of {context.totals[player]}.")
            self._active = context.active
        self._round = context.round
        if not self.solo:
            say(f"{possessive(self.names[context.player])} turn.", style="bold")

    def turn_end(self, name: str, record: TurnRecord) -> None:
        say = self.screen.say
        if record.shut_box:
            say(f"{verb(name, 'shut', 'shuts')} the box!", style="bold green")
            return
        say(self.no_move_sentence(record))
        say(f"{verb(name, 'score', 'scores')} {record.score} (open tiles {tile_list(record.open_tiles)}).")

    def no_move_sentence(self, record: TurnRecord) -> str:
        """Why the last roll ended the turn."""
        rules = self.rules
        dice = record.rolls[-1].dice
        tile = rules.first_roll.tile
        if tile is not None and len(record.rolls) == 1:
            roll = roll_name(rules, dice)
            return f"The first shut must include the {tile} ({rules.first_roll.value}), and {roll} cannot."
        if rules.shut_rule is ShutRule.ANY:
            return f"No tiles add up to {sum(dice)}."
        return f"No open tile fits {roll_name(rules, dice)}."

    def finish(self, record: GameRecord) -> None:
        """The result of a finished game: the table of scores where there is one, the winner, the best."""
        say = self.screen.say
        say()
        if self.rules.multi_round or any(game_round.playoff for game_round in record.rounds):
            for line in score_table(self.rules, record, self.names):
                say(line)
        elif not self.solo:
            say(scores_line(record, self.names))
        if self.solo:
            self.solo_result(record)
        else:
            for line in outcome_lines(self.rules, record, self.names):
                say(line, style="bold")

    def best_text(self, value: int) -> str:
        """A solo result as the best is measured: a score or total, or rounds lasted in a drop-out game."""
        if self.rules.drop_out is None:
            return str(value)
        return f"{value} round{'' if value == 1 else 's'}"

    def solo_result(self, record: GameRecord) -> None:
        """The solo result line: the result, and whether it is a new best (or why none is kept)."""
        say = self.screen.say
        if self.rules.drop_out is not None:
            result = len(record.rounds)
            if record.shut_box_win:
                line = f"Result: a win, by shutting the box in round {result}."
            else:
                line = f"Result: {self.best_text(result)}, out with a total of {record.totals[0]}."
        else:
            result = record.totals[0]  # the score of a one-round game, the total of several
            line = f"Result: {result}."
        if not keeps_best(self.rules):
            line += " Drop-out games with instant win keep no best."
        elif self.best is not None:
            submitted = self.best.submit(self.rules, result)
            if submitted.new_best:
                was = "" if submitted.previous is None else f" (was {self.best_text(submitted.previous)})"
                line += f" New best!{was}"
            else:
                line += f" Your best is {self.best_text(submitted.previous)}."  # type: ignore[arg-type]
            if submitted.problem:
                say(submitted.problem, style="yellow")
        say(line, style="bold")

    def ask_rematch(self) -> bool:
        question = "Play again? [y/N]: " if self.solo else "Rematch? [y/N]: "
        while True:
            try:
                answer = self.screen.ask(question).lower()
            except EndOfInput:
                return False
            if answer in ("y", "yes"):
                return True
            if answer in ("", "n", "no"):
                return False
            self.screen.say("Type y to play again, or n (or Enter) to stop.")


def play_table(screen: Screen, rules: Rules, seats: Sequence[Seat], seed: int, best: BestScores | None) -> int:
    """Run the table; return the exit status. Quitting and interrupting end with a one-line goodbye."""
    try:
        Table(screen, rules, seats, seed, best).run()
    except Quit:
        screen.say("Goodbye.")
        return QUIT_STATUS
    except EndOfInput:
        screen.say()
        screen.say("Input ended in the middle of the game. Goodbye.")
        return FAILURE
    except KeyboardInterrupt:
        screen.say()
        screen.say("Interrupted. Goodbye.")
        return INTERRUPTED
    screen.say("Goodbye.")
    return QUIT_STATUS
