"""`highest_move.onnx`'s play as a plain strategy and as a policy function (`act`), for the tests."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import mask_of
from strategies import Move, Strategy, View


class HighestMove(Strategy):
    """Shuts the legal move of the highest mask; one die once the open tiles add up to 6 or less."""

    name = "highest-move"
    description = "Shuts the legal move of the highest mask (tile k is bit k-1)."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=mask_of)


def act(observation: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> int:
    """The same play from the observation (9 tiles: the score is its 15th entry) and the mask."""
    one_die, two_dice = len(mask) - 2, len(mask) - 1
    if mask[one_die] or mask[two_dice]:
        return one_die if mask[one_die] and observation[14] <= 6 else two_dice
    return int(np.flatnonzero(mask[:one_die])[-1])


def illegal(observation: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> int:
    """The first action that is not legal: a policy that breaks the rules."""
    return int(np.flatnonzero(~mask)[0])


def drawing(observation: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> int:
    """A legal action drawn from the global random generator: not the exact policy it is taken for."""
    return int(random.choice(list(np.flatnonzero(mask))))
