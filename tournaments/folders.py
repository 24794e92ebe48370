"""Where shutbox keeps files of its own on the user's disk, and which folders no strategy's host may
read: shutbox's state (keys, checkpoints) and its kept tables (docs/files.md)."""

from __future__ import annotations

import os
from pathlib import Path

from .keys import key_folder

CACHE_SETTING = "SHUTBOX_TABLE_CACHE"
"""The environment variable naming the folder tables are kept in, or `off` to keep none."""
OFF = ("off", "0", "no", "false")


def cache_folder() -> Path | None:
    """Where tables are kept (None: nowhere)."""
    chosen = os.environ.get(CACHE_SETTING)
    if chosen is not None:
        return None if chosen.strip().lower() in OFF or not chosen.strip() else Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "shutbox" / "tables"


def private_folders() -> list[Path]:
    """The folders a host may never read, even where a folder it may read holds them: shutbox's
    state folder (its keys and checkpoints) and the kept tables, resolved. (The user's home is read
    only in part: what Python imports from a strategy's folder there.)"""
    found = [key_folder().parent, key_folder()]
    cache = cache_folder()
    if cache is not None:
        found.append(cache)
    return [folder.expanduser().resolve() for folder in found]
