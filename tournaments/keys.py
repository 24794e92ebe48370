"""The user's secret keys, which seal what shutbox reads back from disk (a checkpoint, a user's kept
table) so that a file changed since shutbox wrote it is refused.

Each key is 32 random bytes, made on first use and kept as hex in a folder of its own
(`key_folder`: `~/.local/state/shutbox/keys/` on Linux), apart from the cache and the checkpoints,
made readable by its owner alone. No strategy's host may see that folder: a host confined by the
operating system is given no access to it. Where hosts run unconfined, a strategy runs as the user
and can read the keys like any of the user's files: the seals then stop only edits by other users.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

KEY_BYTES = 32


def key_folder() -> Path:
    """The folder of the user's keys: no strategy's host may read it, or anything in it."""
    from platformdirs import user_state_path

    return user_state_path("shutbox") / "keys"


def key_path(name: str) -> Path:
    """Where the key `name` is kept."""
    return key_folder() / name


def user_key(name: str) -> bytes | None:
    """The key `name`, None if there is none yet. Raises OSError when it cannot be read, ValueError
    when its file holds no key."""
    path = key_path(name)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        text = ""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ValueError(f"{str(path)!r} does not hold a key")
    return key


def own_key(name: str) -> bytes:
    """The key `name`, made on first use. Raises what `user_key` raises, and OSError when it cannot
    be made."""
    key = user_key(name)
    if key is None:
        _make_key(key_path(name))
        key = user_key(name)
    if key is None:
        raise FileNotFoundError(f"{str(key_path(name))!r} was not made")
    return key


def _make_key(path: Path) -> None:
    """Make the key file whole, in a folder and a file readable by their owner alone; if another
    process makes it first, theirs stands."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)  # a folder made by hand, or by an older shutbox, is closed too
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(KEY_BYTES) + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs stands
            os.link(temporary, path)  # never over a key already there
    finally:
        Path(temporary).unlink(missing_ok=True)
