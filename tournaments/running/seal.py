"""A checkpoint's seal: an HMAC-SHA256 of the checkpoint's text, keyed by a secret of the user's, so
that a resume refuses a checkpoint changed since shutbox wrote it (a hand-edited tally would
otherwise crown the wrong strategy).

The key is 32 random bytes, made on first use and kept as hex in `checkpoint.key` in the user's
state folder (`~/.local/state/shutbox/` on Linux), readable by its owner alone. The seal ends the
checkpoint as a table of its own, `[seal]`, with the HMAC of every byte before it and a
fingerprint of the key, which tells a checkpoint sealed by another key (another user's, or one
written on another machine) from an edited one.

A seal stops an edit by anyone who cannot read the key; it cannot stop one by the user's own
account (or root), which can read the key and seal again.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

KEY_FILE = "checkpoint.key"
_KEY_BYTES = 32


def key_path() -> Path:
    """Where the user's checkpoint key is kept."""
    from platformdirs import user_state_path

    return user_state_path("shutbox") / KEY_FILE


def user_key() -> bytes | None:
    """The user's checkpoint key, None if there is none yet. Raises OSError when it cannot be read,
    ValueError when its file holds no key."""
    path = key_path()
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
    if len(key) != _KEY_BYTES:
        raise ValueError(f"{str(path)!r} does not hold a checkpoint key")
    return key


def own_key() -> bytes:
    """The user's checkpoint key, made on first use. Raises what `user_key` raises, and OSError
    when it cannot be made."""
    key = user_key()
    if key is None:
        _make_key(key_path())
        key = user_key()
    if key is None:
        raise FileNotFoundError(f"{str(key_path())!r} was not made")
    return key


def _make_key(path: Path) -> None:
    """Make the key file whole, readable by its owner alone; if another process makes it first, theirs stands."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(_KEY_BYTES) + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs stands
            os.link(temporary, path)  # never over a key already there
    finally:
        Path(temporary).unlink(missing_ok=True)


def fingerprint(key: bytes) -> str:
    """A short name of a key, which gives nothing of it away."""
    return hashlib.sha256(b"shutbox checkpoint key\0" + key).hexdigest()[:16]


def seal_text(key: bytes, body: bytes) -> bytes:
    """The `[seal]` table that ends a checkpoint whose text before it is `body`."""
    digest = hmac.new(key, body, hashlib.sha256).hexdigest()
    return f'\n[seal]\nkey = "{fingerprint(key)}"\nhmac = "{digest}"\n'.encode()


def unsealed(data: bytes, key_print: str, digest: str) -> bytes | None:
    """The text a checkpoint's seal covers, given the seal's key fingerprint and HMAC as the
    checkpoint holds them; None if the seal is not where it is written, at the very end."""
    tail = f'\n[seal]\nkey = "{key_print}"\nhmac = "{digest}"\n'.encode()
    return data[: -len(tail)] if data.endswith(tail) else None


def sealed_by(key: bytes, body: bytes, digest: str) -> bool:
    """Whether `digest` is the HMAC of `body` under `key`."""
    return hmac.compare_digest(hmac.new(key, body, hashlib.sha256).hexdigest(), digest)
