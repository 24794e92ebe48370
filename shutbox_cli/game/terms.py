"""The game's integers that mean something, named once: a box of open tiles, a tile, a seed and
a game's number. They are plain `int`s at run time (no cost on the hot path); the names say
which integer a signature means."""

from typing import TypeAlias

Mask: TypeAlias = int
"""A box: a bitmask of its open tiles (bit `t - 1` for tile `t`); 0 is the shut box. A move is
a mask too: the tiles it shuts."""
Tile: TypeAlias = int
"""A tile's number, 1 up to the rules' `tiles`."""
Seed: TypeAlias = int
"""A run's dice seed: with a game's number, a round and a seat, it decides every roll."""
GameNumber: TypeAlias = int
"""A game's number in its run (its dice game: games dealt the same dice share it)."""
