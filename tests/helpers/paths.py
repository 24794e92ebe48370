"""The checkout's folders as tests find them, wherever the test file sits."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
"""The `tests/` folder."""
ROOT = TESTS.parent
"""The checkout: where `pyproject.toml` is, and the folder the command runs from."""
DATA = TESTS / "data"
"""Files the tests read: a play transcript, an installable strategy package."""
GOLDEN = TESTS / "golden"
"""The golden configs and the reports they must write."""
HOSTILE = TESTS / "hostile"
"""Strategies that attack the referee."""
EXAMPLES = ROOT / "examples"
"""The examples the README and the guides in docs/ show."""
SNEAKY = "tests/helpers/sneaky_strategies.py"
"""The strategies that break their contract, as a spec's path from ROOT."""
