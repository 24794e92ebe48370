"""A checkpoint's seal: an HMAC-SHA256 of the checkpoint's text, keyed by a secret of the user's, so
that a resume refuses a checkpoint changed since shutbox wrote it (a hand-edited tally would
otherwise crown the wrong strategy).

The key is 32 random bytes, made on first use and kept as hex in `checkpoint.key` in the user's
key folder (`~/.local/state/shutbox/keys/` on Linux, see `keys`), which no strategy's host may
see. The seal ends the checkpoint as a table of its own, `[seal]`, with the HMAC of every byte
before it and a fingerprint of the key, which tells a checkpoint sealed by another key (another user's, or one
written on another machine) from an edited one.

A seal stops an edit by anyone who cannot read the key; it cannot stop one by the user's own
account (or root), which can read the key and seal again, nor by a strategy whose host runs
unconfined (as the user).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import keys
from ..errors import ConfigError

KEY_FILE = "checkpoint.key"


def key_path() -> Path:
    """Where the user's checkpoint key is kept."""
    return keys.key_path(KEY_FILE)


def user_key() -> bytes | None:
    """The user's checkpoint key, None if there is none yet (see `keys.user_key`)."""
    return keys.user_key(KEY_FILE)


def own_key() -> bytes:
    """The user's checkpoint key, made on first use (see `keys.own_key`)."""
    return keys.own_key(KEY_FILE)


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


def check_seal(name: str, data: bytes, sealed: Mapping[str, Any]) -> None:
    """The checkpoint is the very text this user's shutbox sealed."""
    key_print, digest = sealed.get("key"), sealed.get("hmac")
    if not (isinstance(key_print, str) and isinstance(digest, str)):
        raise ConfigError(f"checkpoint {name} has been changed since shutbox wrote it: its seal is damaged.")
    body = unsealed(data, key_print, digest)
    if body is None:
        raise ConfigError(f"checkpoint {name} has been changed since shutbox wrote it: its seal is damaged.")
    try:
        key = user_key()
    except (OSError, ValueError) as error:
        raise ConfigError(f"cannot check the seal of checkpoint {name}: {error}.") from None
    if key is None or fingerprint(key) != key_print:
        raise ConfigError(
            f"checkpoint {name} is sealed with another user's key, or another machine's, or one an older shutbox "
            f"kept where strategies could read it (not the key in {str(key_path())!r}); resume it where it was "
            "written, or start the run again."
        )
    if not sealed_by(key, body, digest):
        raise ConfigError(
            f"checkpoint {name} has been changed since shutbox wrote it (its seal does not match); start the run again."
        )
