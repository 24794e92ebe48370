"""A strategy whose module starts a thread that is not a daemon when it is imported (in the
main process, which loads the config, and in every worker): it sleeps for five minutes."""

import threading
import time

from strategies import Strategy

threading.Thread(target=time.sleep, args=(300,)).start()


class Plain(Strategy):
    """Plays the first legal move."""

    def choose_move(self, view):
        return view.legal_moves[0]
