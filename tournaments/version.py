"""The shutbox version a report records, read from the installed distribution's metadata
(so the library does not reach up into the command line's package for it)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "shutbox"


def shutbox_version() -> str:
    """The installed shutbox's version, or "unknown" when it is run from a tree that is not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
