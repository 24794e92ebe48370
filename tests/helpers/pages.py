"""The README and the guides in docs/ as the tests read them: a page's text, and its fenced blocks."""

from __future__ import annotations

import re

from .paths import ROOT


def page(name: str) -> str:
    """The text of `README.md` (name "README") or of the page docs/NAME.md."""
    path = ROOT / "README.md" if name == "README" else ROOT / "docs" / f"{name}.md"
    return path.read_text(encoding="utf-8")


def blocks(text: str, language: str) -> list[str]:
    """Every fenced block of `language` in a page's text (indented fences too), without its fences."""
    return [
        re.sub(rf"(?m)^{indent}", "", body)
        for indent, body in re.findall(rf"(?ms)^([ \t]*)```{language}\n(.*?)^[ \t]*```", text)
    ]


def block(name: str, language: str, containing: str) -> str:
    """The one block of `language` in page `name` that holds `containing`."""
    found = [body for body in blocks(page(name), language) if containing in body]
    assert len(found) == 1, f"{len(found)} {language} blocks of {name} hold {containing!r}"
    return found[0]
