"""The table: games one after another, each turn announced and scored, the result, the rematch.

`play_table` is what `shutbox play` runs. Exit statuses: 0 when the player stops (q, or no
rematch, or input ending at the rematch question); 1 when input ends in the middle of a
game; 130 on Ctrl-C, 143 on SIGTERM, 129 on SIGHUP.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from shutbox_cli.game.terms import GameNumber, Seed

from ...game import GameRecord, Rules, ShutRule, Turn, TurnContext, TurnRecord, play_game, turn_rolls
from ..describe import describe_changes
from ..errors import FAILURE
from ..signals import stopped_status
from .best import BestScores, best_text, keeps_best
from .board import possessive, roll_name, tile_list, verb
from .coach import Coaching, costs_by_goal, detail_lines, record_lines, summary_lines, turn_lines
from .entry import how_to_type
from .human import HumanSeat
from .record import SoloRecord
from .result import join_names, outcome_lines, score_table, scores_line, tally_line
from .screen import EndOfInput, Quit, Screen
from .seats import Seat
from .standing import settled_line, standing_lines

QUIT_STATUS = 0
QUIT_QUESTION = "The game is not over. Quit anyway? [y/N]: "


class Table:
    """Seats around one box under one rule set, with the dice of one seed.

    A solo person's best and running record are kept in `best` and `record` (None: not kept);
    `coaching` says when the coach speaks: never, after each game, or after each turn too.
    """

    def __init__(
        self,
        screen: Screen,
        rules: Rules,
        seats: Sequence[Seat],
        seed: Seed,
        best: BestScores | None = None,
        record: SoloRecord | None = None,
        coaching: Coaching = Coaching.GAME,
    ) -> None:
        self.screen = screen
        self.rules = rules
        self.seats = list(seats)
        self.names = [seat.name for seat in seats]
        self.people = [seat for seat in self.seats if isinstance(seat, HumanSeat)]
        self.seed = seed
        kept = self.solo and bool(self.people) and keeps_best(rules)
        self.best = best if kept else None
        self.record = record if kept else None
        self.coaching = coaching
        self.wins = [0.0] * len(self.seats)
        self.outcome: list[str] = []
        """The last game's result in a sentence or two, shown again after the coach's detail."""
        self.game = 0
        self.dice_game = 0
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
            self.finish(self.play(self.game, first))
            if not self.ask_rematch():
                return
            self.game += 1
            first = (first + 1) % len(self.seats)

    def play(self, dice_game: GameNumber, first: int) -> GameRecord:
        """Play one game on the dice of game `dice_game` of the seed, `first` in the first seat."""
        self.dice_game = dice_game
        self._round, self._active = None, ()
        for person in self.people:
            person.decisions.clear()
        self.screen.quit_question = QUIT_QUESTION
        try:
            return play_game(self.rules, len(self.seats), self.play_turn, first_seat=first)
        finally:
            self.screen.quit_question = None

    def header(self, title: str | None = None) -> None:
        say = self.screen.say
        say(title or f"Shut the Box: tiles 1 to {self.rules.tiles}. Seed {self.seed}.", style="bold")
        for line in describe_changes(self.rules):
            say(line)
        if not self.solo or not self.people:
            names = [seat.name + (" (computer)" if seat.computer else "") for seat in self.seats]
            say(f"{'Players' if len(names) > 1 else 'Player'}: {join_names(names)}.")
        for store in (self.best, self.record):
            problem = None if store is None else store.load()
            if problem:
                say(problem, style="yellow")
        if self.best is not None:
            known = self.best.get(self.rules)
            if known is not None:
                say(f"Your best with these rules: {self.best_text(known)}.")
        if self.people:
            say("Enter rolls; ? lists the combinations; h hints; q quits.")
            say(how_to_type(self.rules))

    def play_turn(self, context: TurnContext) -> TurnRecord:
        """The engine's turn callback: announce, let the seat play on this turn's dice, score."""
        self.announce(context)
        seat = self.seats[context.player]
        turn = Turn(self.rules, turn_rolls(self.seed, self.dice_game, context.round, context.seat))
        earlier = len(seat.decisions) if isinstance(seat, HumanSeat) else 0
        record = seat.play_turn(self.screen, turn, context, self.seed, self.dice_game)
        self.turn_end(seat.name, record)
        if self.coaching is Coaching.TURN and isinstance(seat, HumanSeat):
            self.screen.say_lines(turn_lines(seat.decisions[earlier:], self.rules.multi_round))
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
        self.screen.say_lines(standing_lines(self.rules, context, self.names))
        decided = settled_line(self.rules, context, self.names[context.player])
        if decided:
            self.screen.say(decided, style="bold")

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
        """The result of a finished game: the table of scores where there is one, the winner, the wins
        so far over rematches, the best, the coach's summary for each person and a solo person's running
        record; the coach's detail waits for `c` at the next question."""
        say = self.screen.say
        say()
        if self.rules.multi_round or any(game_round.playoff for game_round in record.rounds):
            for line in score_table(self.rules, record, self.names):
                say(line)
        elif not self.solo:
            say(scores_line(record, self.names))
        result = self.solo_result(record) if self.solo else None
        if not self.solo:
            self.outcome = outcome_lines(self.rules, record, self.names)
            for line in self.outcome:
                say(line, style="bold")
            self.count_wins(record)
        if self.coaching is not Coaching.OFF and self.people:
            say()
            for person in self.people:
                self.screen.say_lines(summary_lines(person.name, person.decisions, self.rules.multi_round))
        if self.record is not None and result is not None:
            self.count_in_record(result)
        if self.detail_waiting:
            say("Type c at the question below for each choice, the best one and what it cost.")

    @property
    def detail_waiting(self) -> bool:
        """Whether the coach has a detail to show for the game just played."""
        return self.coaching is not Coaching.OFF and any(person.decisions for person in self.people)

    def show_detail(self) -> None:
        """The coach's detail: each person's choices, the best and what each cost; then the result again,
        which the detail may have scrolled away."""
        for person in self.people:
            self.screen.say()
            self.screen.say_lines(detail_lines(person.name, person.decisions, self.rules.multi_round))
        self.screen.say()
        self.screen.say_lines(self.outcome, style="bold")

    def count_wins(self, record: GameRecord) -> None:
        """Count the game's win (a shared one in equal parts) and, from the second game on, show the wins so far."""
        for player in record.winners:
            self.wins[player] += 1 / len(record.winners)
        if self.game:
            self.screen.say(tally_line(self.names, self.wins, self.game + 1))

    def result_measure(self) -> str:
        """What a solo result counts: a score, a total, or rounds lasted."""
        if self.rules.drop_out is not None:
            return "rounds lasted"
        return "total" if self.rules.multi_round else "score"

    def best_text(self, value: int) -> str:
        return best_text(self.rules, value)

    def solo_result(self, record: GameRecord) -> int:
        """The solo result line: the result, and whether it is a new best (or why none is kept); return the result."""
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
        self.outcome = [line]
        return result

    def count_in_record(self, result: int) -> None:
        """Add a solo game to the running record and show it."""
        assert self.record is not None
        kept, problem = self.record.add(self.rules, result, costs_by_goal(self.people[0].decisions))
        if problem:
            self.screen.say(problem, style="yellow")
        self.screen.say_lines(record_lines(kept, self.result_measure(), self.screen.unicode))

    def ask_rematch(self) -> bool:
        if not self.people:
            question = "Watch another game? [y/N]: "
        else:
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
            if answer == "c" and self.detail_waiting:
                self.show_detail()
                continue
            more = ", c for the coach's detail" if self.detail_waiting else ""
            self.screen.say(f"Type y to play again, or n (or Enter) to stop{more}.")


def play_table(table: Table, run: Callable[[], object] | None = None) -> int:
    """Run the table (or `run`, something else at it); return the exit status. Quitting and
    interrupting end with a one-line goodbye."""
    screen = table.screen
    try:
        with screen.keys.hidden():
            (run or table.run)()
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
        return stopped_status()  # 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP
    screen.say("Goodbye.")
    return QUIT_STATUS
