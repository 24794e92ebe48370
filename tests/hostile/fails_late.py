"""Context readers played game by game: `Reader` plays on, and `FailsLate` fails, on what it is
shown alone, late in some games and early in others (the failure a run stops on must be the
first game's to fail, whatever order the games are played in). Loaded by path,
`tests/hostile/fails_late.py:Name`."""

from __future__ import annotations

from strategies import Move, Strategy, View


class Reader(Strategy):
    """Takes the lowest tiles once a score is posted this round, else the first legal move."""

    name = "reader"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1 if view.context.score_to_beat is not None else 0]


class FailsLate(Reader):
    """Fails in the third round, or in the first on a double six."""

    name = "fails-late"

    def choose_move(self, view: View) -> Move:
        if view.context.round == 2 or (view.context.round == 0 and view.dice == (6, 6)):
            raise ZeroDivisionError(f"no luck in round {view.context.round}")
        return super().choose_move(view)
