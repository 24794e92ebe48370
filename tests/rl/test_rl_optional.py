"""The rl extra stays optional: nothing outside tournaments/rl/ imports gymnasium or pettingzoo,
and without them `import tournaments` (and the encoding) still works while an environment says in
one sentence which extra it needs. Run in a fresh interpreter that cannot import the extra."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTRA = ("gymnasium", "pettingzoo")
WITHOUT = "import sys\nfor name in ('gymnasium', 'pettingzoo'):\n    sys.modules[name] = None  # cannot be imported\n"


def imported(path: Path) -> set[str]:
    """The top-level packages a source file imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.slow
def test_nothing_outside_the_rl_room_imports_the_extra() -> None:
    rl = ROOT / "tournaments" / "rl"
    sources = [
        path for folder in ("shutbox_cli", "strategies", "tournaments") for path in (ROOT / folder).rglob("*.py")
    ]
    outside = [path.relative_to(ROOT) for path in sources if rl not in path.parents and imported(path) & set(EXTRA)]
    assert outside == []
    assert imported(rl / "env.py") & set(EXTRA)  # the scan sees an import of the extra where there is one


@pytest.mark.slow
def test_without_the_extra_tournaments_and_the_encoding_import_and_an_environment_names_the_extra() -> None:
    code = WITHOUT + (
        "import tournaments, tournaments.rl\n"
        "from shutbox_cli.game import Rules\n"
        "from strategies.encoding import encoding\n"
        "print(encoding(Rules()).actions, tournaments.run.__name__)\n"
        "try:\n"
        "    import tournaments.rl.env\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.splitlines() == [
        "65 run",
        "the reinforcement learning environments need gymnasium, of the rl extra: "
        "pip install 'shutbox[rl]' (in shutbox's checkout: pip install '.[rl]').",
    ]
