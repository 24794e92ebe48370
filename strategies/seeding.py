"""The global random generators a strategy might use in secret (`random`, and numpy's legacy
one when numpy is loaded), seeded from where a question is asked, so that even such a strategy
answers the same in every process and at any number of workers."""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Iterator

from shutbox_cli.game.terms import Seed


def seed_globals(seed: Seed) -> None:
    """Seed the module-level `random` generator, and numpy's legacy global one if numpy is loaded."""
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed & 0xFFFFFFFF)


@contextlib.contextmanager
def globals_kept() -> Iterator[None]:
    """Put the global generators back as they were once the block ends."""
    state = random.getstate()
    numpy = sys.modules.get("numpy")
    numpy_state = None if numpy is None else numpy.random.get_state()
    try:
        yield
    finally:
        random.setstate(state)
        if numpy is not None:
            numpy.random.set_state(numpy_state)
