"""docs/library.md's Python examples: each a whole script that runs as it is, in a folder of its
own, and prints what the page shows after it (the `text` block that follows it, where there is one)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.pages import page

EXAMPLES = re.findall(r"(?ms)^```python\n(.*?)^```\n(?:\n```text\n(.*?)^```\n)?", page("library"))
"""Each Python block of the page, with the output shown after it ('' where none is)."""


def test_the_page_shows_examples_of_each_thing_a_notebook_does() -> None:
    code = "\n".join(script for script, _ in EXAMPLES)
    for call in ("run(", "analyze(", "play_match(", "tune(", "compare(", "summarize_report("):
        assert call in code, call
    assert sum(bool(shown) for _, shown in EXAMPLES) >= 4


@pytest.mark.slow
@pytest.mark.parametrize(("script", "shown"), EXAMPLES, ids=[f"example-{n}" for n in range(1, len(EXAMPLES) + 1)])
def test_each_example_runs_as_it_is_and_prints_what_the_page_shows(script: str, shown: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    if shown:
        assert done.stdout == shown
