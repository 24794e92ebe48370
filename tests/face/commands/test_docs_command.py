"""`shutbox docs PAGE` prints the project's pages, from the installed package as well as from the
source; help points to it, never to a docs/ file that an installed user does not have."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pexpect
import pytest

from shutbox_cli.face.cli import app
from shutbox_cli.face.commands import docs

from helpers.command import shutbox
from helpers.paths import ROOT

PAGES = tuple(page.value for page in docs.Page)


def invoke(*args: str) -> tuple[int, str, str]:
    done = shutbox(*args)
    return done.returncode, done.stdout, done.stderr


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("page", PAGES)
def test_a_page_piped_is_its_markdown_a_paragraph_a_line(page: str) -> None:
    source = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    status, out, err = invoke("docs", page)
    assert (status, err) == (0, "")
    assert words(out) == words(source)  # only line breaks within paragraphs and items are gone
    assert out.count("\n```") == source.count("\n```") and out.endswith("\n")
    fenced = False
    for line in source.splitlines():  # every table row, heading and line of code as it is written
        fenced ^= line.startswith("```")
        if fenced or line.startswith(("|", "#", "```")):
            assert f"\n{line}\n" in f"\n{out}", line
    assert len(out.splitlines()) < len(source.splitlines())


def test_grep_finds_a_sentence_the_page_wraps() -> None:
    source = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sentence = "Households and websites play it in slightly different ways; shutbox plays all of them."
    assert sentence not in source and sentence in words(source)
    assert [line for line in invoke("docs", "rules")[1].splitlines() if sentence in line]


def on_a_terminal(*args: str, **env: str) -> str:
    """What `shutbox ARGS` shows on an 80-column terminal (a pseudo-terminal, 24 lines)."""
    environment = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", "PAGER")}
    environment.update({"NO_COLOR": "1", "TERM": "xterm", **env})
    child = pexpect.spawn(
        sys.executable, ["-m", "shutbox_cli", *args], env=environment, encoding="utf-8", timeout=60, dimensions=(24, 80)
    )
    shown = child.read()
    child.close()
    assert child.exitstatus == 0, shown
    return re.sub(r"\x1b\[[0-9;]*m", "", shown.replace("\r\n", "\n"))  # bold and underline, without colour


@pytest.mark.slow
def test_on_a_terminal_a_page_is_rendered_at_its_width_and_paged() -> None:
    # The pager is $PAGER: here one that marks each line it shows.
    shown = on_a_terminal("docs", "rules", PAGER="sed 's/^/paged:/'")
    lines = shown.splitlines()
    assert len(lines) > 24 and all(line.startswith("paged:") for line in lines), shown[:500]
    text = [line.removeprefix("paged:") for line in lines]
    assert max(len(line) for line in text) <= 80
    source = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "**The box.**" in source and "**" not in shown and "# The rules" not in shown  # rendered, not raw
    known = set(re.findall(r"[A-Za-z]+", source))
    broken = [word for word in re.findall(r"[A-Za-z]+", "\n".join(text)) if word not in known]
    assert broken == []  # no word cut at the edge
    assert "Households and websites play it in slightly different ways; shutbox plays all of them." in words(
        "\n".join(text)
    )


@pytest.mark.slow
@pytest.mark.parametrize("pager", ["/nonexistent", "exit 3"])
def test_a_pager_that_fails_is_said_once_and_the_page_printed_instead(pager: str) -> None:
    shown = on_a_terminal("docs", "dice", PAGER=pager)
    said = "shutbox: the pager could not show the page"
    assert shown.count(said) == 1 and f"(PAGER={pager!r}" in shown, shown[:500]
    assert "splitmix64" in shown and shown.index(said) < shown.index("splitmix64")


@pytest.mark.slow
def test_on_a_terminal_a_short_list_is_not_paged() -> None:
    shown = on_a_terminal("docs", PAGER="sed 's/^/paged:/'")
    assert shown.startswith("playing       Playing: `shutbox play`\n") and "paged:" not in shown


def test_the_pages_are_listed_with_their_titles() -> None:
    status, out, _ = invoke("docs")
    assert status == 0
    listed = out.splitlines()
    assert [line.split()[0] for line in listed] == list(PAGES)
    assert listed[:3] == [
        "playing       Playing: `shutbox play`",
        "tournaments   Tournaments: `shutbox tournament`",
        "strategies    Strategies",
    ]
    assert "rules         The rules shutbox plays" in listed
    assert "statistics    Statistics: game pairs, Elo, the SPRT and ratings" in listed


def test_every_page_of_docs_is_a_page_of_the_command() -> None:
    """The site's home (index.md) aside: it only leads to the others."""
    assert sorted(PAGES) == sorted(path.stem for path in (ROOT / "docs").glob("*.md") if path.stem != "index")


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
    assert words(done.stdout) == words((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("words", ["the cheat sheet", "the value of the game", "stakes and fair rules"])
def test_the_help_of_docs_and_of_shutbox_name_the_newer_pages(words: str) -> None:
    for help_page in (shutbox("docs", "-h", columns=None).stdout, shutbox("-h", columns=None).stdout):
        assert words in " ".join(help_page.split()), help_page


def test_the_index_links_every_page() -> None:
    index = (ROOT / "docs" / "index.md").read_text()
    pages = sorted(path.name for path in (ROOT / "docs").glob("*.md") if path.name != "index.md")
    assert [page for page in pages if f"]({page})" not in index] == []
