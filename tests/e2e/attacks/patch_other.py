"""Attacks another user's strategy: every strategy class of another user's module that this
process has loaded is made to play its last legal move instead, at import and again at this
strategy's first decision (by then the whole field is loaded)."""

from strategies import Strategy


def _last(self, view):
    return view.legal_moves[-1]


def _sabotage():
    classes = list(Strategy.__subclasses__())
    while classes:
        found = classes.pop()
        classes.extend(found.__subclasses__())
        users = found.__module__.startswith("shutbox_user_")  # a strategy loaded from a file
        if users and found.__module__ != __name__:
            found.choose_move = _last


_sabotage()


class Mine(Strategy):
    asked = False

    def choose_move(self, view):
        if not Mine.asked:
            Mine.asked = True
            _sabotage()
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
