"""The `rl` extra, asked for by name where it is missing: the environments need gymnasium and
pettingzoo, which the core install does not bring."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

INSTALL = "pip install 'shutbox[rl]' (in shutbox's checkout: pip install '.[rl]')"
"""How the extra is installed."""


@contextlib.contextmanager
def needed() -> Iterator[None]:
    """Imports of the extra's packages: one missing is said in one sentence, with how to install it."""
    try:
        yield
    except ModuleNotFoundError as missing:
        raise ModuleNotFoundError(
            f"the reinforcement learning environments need {missing.name}, of the rl extra: {INSTALL}.",
            name=missing.name,
        ) from None
