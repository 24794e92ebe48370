"""docs/rl.md's Python examples run as written (with the rl extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")

from helpers.pages import blocks, page

EXAMPLES = blocks(page("rl"), "python")


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{number}" for number in range(len(EXAMPLES))])
def test_the_pages_example_runs(example: str) -> None:
    namespace: dict[str, object] = {}
    exec(compile(example, "docs/rl.md", "exec"), namespace)
    env = namespace.get("env")
    if hasattr(env, "close"):
        env.close()
