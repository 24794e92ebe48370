"""Noticing a user's own top-level `strategies` or `tournaments` package that would be imported
in place of shutbox's (as `python -m shutbox_cli` does from a folder that holds one)."""

import importlib.util
from pathlib import Path

OURS = ("strategies", "tournaments")
"""shutbox's top-level packages besides `shutbox_cli`, installed beside it."""


def shadowing_message() -> str | None:
    """One sentence naming what shadows what and how to fix it, or None when all is well."""
    home = Path(__file__).resolve().parents[2]  # shutbox_cli/face/ -> the folder of our packages
    for name in OURS:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # a broken stand-in is no less in the way
            spec = None
        if spec is None:
            return f"shutbox's own package {name!r} cannot be found; reinstall shutbox."
        # A folder without __init__.py is a namespace package: no origin, only its locations.
        found = Path(spec.origin or next(iter(spec.submodule_search_locations or ()), ".")).resolve()
        if found != home / name / "__init__.py":
            folder = found.parent if found.name == "__init__.py" else found
            return (
                f"{folder} shadows shutbox's own package {name!r} (python -m puts the current folder first "
                f"on the import path); run the `shutbox` command instead of `python -m shutbox_cli`, "
                f"or rename your {name!r}."
            )
    return None
