"""The global random generators a strategy might use in secret (`random`, and numpy's legacy
one when numpy is loaded), seeded from where a question is asked, so that even such a strategy
answers the same in every process and at any number of workers.

In a process that runs one strategy's code (its host), seeding `random` waits for its first use
(`defer_global_seeds`): the module's functions seed the generator as it would have been seeded,
then draw, so a strategy that never draws from it costs no seeding, and one that does meets the
same numbers."""

from __future__ import annotations

import contextlib
import functools
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

from shutbox_cli.game import derive_seed
from shutbox_cli.game.terms import Seed

_pending: Seed | tuple[Any, ...] | None = None
"""The seed `random` is due (or the key `derive_seed` makes it from), once `defer_global_seeds`
holds its seeding back until the generator is used."""
_seed_random: Callable[[Seed], None] | None = None
"""The global generator's own `seed`, once seeding it is deferred."""


def seed_globals(seed: Seed) -> None:
    """Seed the module-level `random` generator, and numpy's legacy global one if numpy is loaded."""
    global _pending
    if _seed_random is None:
        random.seed(seed)
    else:
        _pending = seed
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed & 0xFFFFFFFF)


def seed_globals_for(*key: Any) -> None:
    """`seed_globals(derive_seed(*key))`, the seed worked out only if a generator is used."""
    global _pending
    if _seed_random is None or "numpy" in sys.modules:
        seed_globals(derive_seed(*key))
    else:
        _pending = key


def defer_global_seeds() -> None:
    """Seed `random` only where it is used: each module-level function seeds the generator with
    the seed last given, if any, then does what it does. Done once, before a strategy's code loads
    (a function it imports by name is the deferring one)."""
    global _seed_random
    if _seed_random is not None:
        return
    generator = getattr(random.random, "__self__", None)  # the generator whose methods the module's functions are
    assert isinstance(generator, random.Random)
    seed = generator.seed
    for name in random.__all__:
        function = getattr(random, name)
        if getattr(function, "__self__", None) is generator:
            setattr(random, name, _settling(function))
    _seed_random = seed


def _settling(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def settled(*args: Any, **kwargs: Any) -> Any:
        if _pending is not None:
            _settle()
        return function(*args, **kwargs)

    return settled


def _settle() -> None:
    global _pending
    due, _pending = _pending, None
    assert _seed_random is not None and due is not None
    _seed_random(derive_seed(*due) if isinstance(due, tuple) else due)


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
