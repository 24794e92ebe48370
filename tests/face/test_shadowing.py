"""A strategy writer's project with its own top-level `strategies/` or `tournaments` package,
run with `python -m shutbox_cli` from its folder: one sentence naming what shadows what, exit 2."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from helpers.command import real_shutbox


def run_here(folder: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox("rules", cwd=folder, timeout=60)


@pytest.mark.parametrize(
    ("layout", "shadow"),
    [
        (
            {"strategies/__init__.py": "from .mine import Mine\n", "strategies/mine.py": "class Mine: ...\n"},
            "strategies",
        ),
        ({"tournaments.py": "raise SystemExit('never imported')\n"}, "tournaments.py"),
    ],
    ids=["package", "module"],
)
def test_a_package_of_the_same_name_in_the_current_folder_is_named(
    tmp_path: Path, layout: dict[str, str], shadow: str
) -> None:
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = run_here(tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"shutbox: error: {tmp_path.resolve() / shadow} shadows shutbox's own package")
    assert "run the `shutbox` command instead of `python -m shutbox_cli`" in lines[0]


@pytest.mark.slow
def test_a_folder_of_that_name_without_init_runs_or_is_named_never_a_traceback(tmp_path: Path) -> None:
    """A folder without __init__.py is a namespace package: an installed shutbox wins over it, an
    editable install's finder comes after it (then it shadows, and is named)."""
    (tmp_path / "strategies").mkdir()
    (tmp_path / "strategies" / "mine.py").write_text("class Mine: ...\n")
    done = run_here(tmp_path)
    assert "Traceback" not in done.stderr
    if done.returncode == 2:
        assert done.stderr.count("\n") == 1 and "shadows shutbox's own package 'strategies'" in done.stderr
    else:
        assert done.returncode == 0 and done.stdout.startswith("Box: tiles 1 to 9")


@pytest.mark.slow
def test_a_folder_without_such_packages_runs(tmp_path: Path) -> None:
    (tmp_path / "mystrategies").mkdir()
    (tmp_path / "mystrategies" / "__init__.py").write_text("")
    done = run_here(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Box: tiles 1 to 9")
