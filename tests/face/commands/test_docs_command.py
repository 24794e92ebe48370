"""`shutbox docs PAGE` prints the project's pages, from the installed package as well as from the
source; help points to it, never to a docs/ file that an installed user does not have."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from shutbox_cli.face.cli import app
from shutbox_cli.face.commands import docs

from helpers.command import shutbox
from helpers.paths import ROOT

PAGES = ("rules", "report", "dice")


def invoke(*args: str) -> tuple[int, str, str]:
    done = shutbox(*args)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("page", PAGES)
def test_a_page_is_printed_as_it_is_written(page: str) -> None:
    assert invoke("docs", page) == (0, (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8"), "")


def test_the_pages_are_listed_with_their_titles() -> None:
    status, out, _ = invoke("docs")
    assert status == 0
    assert out.splitlines()[:2] == ["rules       The rules shutbox plays", "report      Reports: schema 1"]
    assert out.splitlines()[2].startswith("dice        The dice")
    assert out.splitlines()[3] == "statistics  Statistics: game pairs, Elo, the SPRT and ratings"


def test_an_unknown_page_is_a_usage_error() -> None:
    status, _, err = invoke("docs", "rulez")
    assert status == 2 and "'rulez'" in err


def test_an_installation_without_its_pages_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docs, "_folders", lambda: [])
    status, out, err = invoke("docs", "report")
    assert (status, out) == (1, "")
    assert (
        err
        == "shutbox: error: this installation of shutbox lacks its page 'report' (docs/report.md); reinstall shutbox.\n"
    )


def test_no_help_points_to_a_file_of_the_source() -> None:
    commands = [[], *([name] for name in _command_names())]
    for command in commands:
        status, out, _ = invoke(*command, "--help")
        assert status == 0
        assert "docs/" not in out, command
    assert "`shutbox docs rules`" in " ".join(invoke("--help")[1].split())
    assert "every key: shutbox docs report" in " ".join(invoke("tournament", "--help")[1].split())


def _command_names() -> list[str]:
    import typer.main

    group = typer.main.get_command(app)
    return sorted(group.commands)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_wheel_ships_the_pages_and_its_install_prints_them(tmp_path: Path) -> None:
    """A real wheel built from the source, installed (not editable) into a folder, run from elsewhere."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True
    )
    if built.returncode and "setuptools" in built.stderr and "satisf" in built.stderr:
        pytest.skip("pip cannot fetch setuptools to build the wheel (no network and no local index).")
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("shutbox-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for page in PAGES:
            assert archive.read(f"shutbox_cli/docs/{page}.md") == (ROOT / "docs" / f"{page}.md").read_bytes()
    site = tmp_path / "site"
    installed = subprocess.run(
        [*pip, "install", "--no-deps", "-q", "--target", str(site), str(wheel)], capture_output=True, text=True
    )
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    environment = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import shutbox_cli; print(shutbox_cli.__file__)"],
        capture_output=True, text=True, env=environment, cwd=elsewhere,
    )  # fmt: skip
    assert where.stdout.startswith(str(site)), where.stdout
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "docs", "rules"],
        capture_output=True,
        text=True,
        env=environment,
        cwd=elsewhere,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
