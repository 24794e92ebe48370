"""Sizes a reader can hold: no module of the library over 500 lines (ruff's C901, set in
pyproject.toml, holds every function under complexity 15)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shutbox_cli", "strategies", "tournaments")
MOST_LINES = 500
MOST_COMPLEXITY = 15


def test_no_module_of_the_library_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def test_ruff_holds_every_function_under_complexity_15() -> None:
    """The check itself runs with ruff (`ruff check .`, in CI): here, that it is switched on."""
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "C901" in lint["select"]
    assert lint["mccabe"]["max-complexity"] == MOST_COMPLEXITY
    ignored = {code for codes in lint.get("per-file-ignores", {}).values() for code in codes}
    assert "C901" not in set(lint.get("ignore", ())) | ignored
