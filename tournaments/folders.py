"""Where shutbox keeps files of its own on the user's disk, and which folders no strategy's host may
read: shutbox's state (keys, checkpoints), its kept tables and its history of runs (docs/files.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .keys import key_folder

CACHE_SETTING = "SHUTBOX_TABLE_CACHE"
"""The environment variable naming the folder tables are kept in, or `off` to keep none."""
OFF = ("off", "0", "no", "false")
DATA_SETTING = "SHUTBOX_DATA_DIR"
"""The environment variable naming shutbox's data folder (kept scores, the history of runs)."""
HISTORY_SETTING = "SHUTBOX_HISTORY"
"""The environment variable saying where the history of runs is kept: `off`, a file, or a
`postgresql://` URL (docs/history.md)."""
HISTORY_FILE = "history.sqlite3"
URL_SCHEMES = ("postgresql://", "postgres://")
SQLITE_URL = "sqlite:///"
"""An SQLite file as SQLAlchemy names it (`sqlite:///relative.db`, `sqlite:////absolute.db`)."""
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_USERINFO = re.compile(r"(://[^:/@\s]*):[^@/\s]*@")
_PASSWORD = re.compile(r"([?&]password=)[^&#\s]*", re.IGNORECASE)


class PlaceError(ValueError):
    """A history's place that names no store shutbox keeps a history in: one sentence."""


def cache_folder() -> Path | None:
    """Where tables are kept (None: nowhere)."""
    chosen = os.environ.get(CACHE_SETTING)
    if chosen is not None:
        return None if chosen.strip().lower() in OFF or not chosen.strip() else Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "shutbox" / "tables"


def data_folder() -> Path:
    """shutbox's data folder: $SHUTBOX_DATA_DIR, or the platform's user data folder."""
    chosen = os.environ.get(DATA_SETTING)
    if chosen:
        return Path(chosen)
    from platformdirs import user_data_path

    return user_data_path("shutbox", appauthor=False)


def history_place(setting: str | None = None) -> Path | str | None:
    """Where the history of runs is kept, by `setting` (else $SHUTBOX_HISTORY): a database URL, a
    file, or None (kept nowhere); by default `history.sqlite3` in the data folder."""
    chosen = os.environ.get(HISTORY_SETTING) if setting is None else setting
    if chosen is None or not chosen.strip():
        return data_folder() / HISTORY_FILE
    chosen = chosen.strip()
    if chosen.lower() in OFF:
        return None
    if chosen.lower().startswith(URL_SCHEMES):
        return chosen
    if chosen.lower().startswith(SQLITE_URL):
        return Path(chosen[len(SQLITE_URL) :]).expanduser()
    if _SCHEME.match(chosen):
        raise PlaceError(
            f"the history {masked(chosen)!r} names no store shutbox keeps a history in: give an SQLite file "
            "(or sqlite:///FILE), a postgresql:// URL, or off."
        )
    return Path(chosen).expanduser()


def masked(text: str) -> str:
    """`text` with every password a database URL in it gives (`user:password@`, `password=`) as `***`."""
    return _PASSWORD.sub(r"\1***", _USERINFO.sub(r"\1:***@", text))


def private_folders() -> list[Path]:
    """The folders a host may never read, even where a folder it may read holds them: shutbox's
    state folder (its keys and checkpoints), the kept tables, and the folder of the history's file
    ($SHUTBOX_HISTORY's, which a command's --history sets for every process it starts) and of the
    default history's, resolved. (The user's home is read only in part: what Python imports from a
    strategy's folder there.)"""
    found = [key_folder().parent, key_folder()]
    cache = cache_folder()
    if cache is not None:
        found.append(cache)
    try:
        history = history_place()
    except PlaceError:  # a place that holds no file: no folder to keep
        history = None
    for place in (history, data_folder() / HISTORY_FILE):
        if isinstance(place, Path):  # a link's folder, and its target's: SQLite opens the target
            found += [place.parent, place.expanduser().resolve().parent]
    return [folder.expanduser().resolve() for folder in found]
