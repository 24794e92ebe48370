"""Takes a gibibyte at import and holds it (written to, so really used): with --memory-limit 512,
the referee's process, which had no limit, grew to 2 GiB."""

from strategies import Strategy

HOARD = [b"x" * (1 << 24) for _ in range(64)]


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
