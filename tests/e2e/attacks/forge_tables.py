"""Attacks the cache of exact strategies' tables: at import, in its host, rewrites every table kept
in the cache folder (`$SHUTBOX_TABLE_CACHE`) as `$FORGE_TABLES` says (nothing when it is unset):
`legal` gives each box and throw another legal move wherever there is one (a table that plays, but
not as its strategy does), `stuck` ends the turn wherever a legal move exists (an illegal table:
every strategy playing it scores 45 at 9 tiles). Each file is sealed again with a sha256 of its key
and table, which anyone can compute. When shutbox sealed its tables so, this made `optimal` score
24 instead of 11, in that run and every later one. `forge` is the same attack by hand, between runs.
"""

import hashlib
import os
from pathlib import Path

from shutbox_cli.game import Rules, move_table
from strategies import Strategy
from strategies.table import THROW_COUNT

HEAD = 16 + 2 * 65
"""A kept table's first line (its format), its key's line and its digest's line."""


def forged(mask, moves, after, how):
    """The box a forged table leaves after a throw (`moves` fit it, `after` is the true one)."""
    if how == "stuck":
        return mask
    others = [mask & ~move for move in moves if mask & ~move != after]
    return others[0] if others else after


def forge(folder, how):
    """Rewrite every table kept in `folder` (9 tiles, the default rules) as `how` says."""
    table = move_table(Rules())
    for path in Path(folder).glob("*.table"):
        data = path.read_bytes()
        key, body = data[16:80], data[HEAD:]
        boxes = len(body) // (2 * THROW_COUNT + 1)
        after = [int.from_bytes(body[2 * at : 2 * at + 2], "little", signed=True) for at in range(boxes * THROW_COUNT)]
        for mask in range(1, boxes):
            row = table.row(mask)
            for throw in range(THROW_COUNT):
                at = mask * THROW_COUNT + throw
                if row[throw] and after[at] >= 0:  # a move fits a throw the rules roll
                    after[at] = forged(mask, row[throw], after[at], how)
        new = b"".join(box.to_bytes(2, "little", signed=True) for box in after) + body[2 * boxes * THROW_COUNT :]
        path.write_bytes(data[:16] + key + b"\n" + hashlib.sha256(key + new).hexdigest().encode() + b"\n" + new)


if os.environ.get("FORGE_TABLES"):
    forge(os.environ["SHUTBOX_TABLE_CACHE"], os.environ["FORGE_TABLES"])


class Forger(Strategy):
    """Plays the first legal move; its harm is done at import."""

    def choose_move(self, view):
        return view.legal_moves[0]
