"""The field through the library: a user's strategy is probed in a host process of its own and
never imported here, whether a file or a module names it; its sha256 is still recorded."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from tournaments import Options, load_config

MINE = """
from strategies import Strategy


class Mine(Strategy):
    name = "mine"

    def choose_move(self, view):
        return view.legal_moves[0]
"""


@pytest.mark.slow  # starts a host process for each
@pytest.mark.parametrize("named_by", ["module", "file"])
def test_a_users_strategy_is_probed_in_its_host_and_its_source_digest_recorded(
    named_by: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "field_users_bots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mine.py").write_text(MINE)
    monkeypatch.syspath_prepend(str(tmp_path))  # where a host finds the module, as this process would
    spec = "field_users_bots.mine:Mine" if named_by == "module" else f"{tmp_path / 'field_users_bots' / 'mine.py'}:Mine"
    entry = load_config(None, Options(strategies=(spec, "optimal"))).strategies[0]
    assert (entry.name, entry.exact, entry.builtin) == ("mine", True, False)
    assert entry.sha256 == hashlib.sha256((package / "mine.py").read_bytes()).hexdigest()
    assert not any(name.startswith("field_users_bots") for name in sys.modules)
    assert entry.origin == (
        "module field_users_bots.mine" if named_by == "module" else f"file {tmp_path / 'field_users_bots' / 'mine.py'}"
    )
