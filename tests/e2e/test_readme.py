"""The README is the front door: the output it shows is what the command prints, the commands it
shows run, and it leads to every page of the manual."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.command import real_shutbox
from helpers.pages import block, blocks, page
from helpers.paths import EXAMPLES, ROOT

README = page("README")
SHUTBOX = str(Path(sys.executable).parent / "shutbox")


@pytest.mark.slow
def test_the_sample_is_what_the_tournament_prints() -> None:
    command, printed = block("README", "text", "$ shutbox tournament").split("\n", 1)
    assert README.index(command) < 1500  # on the first screen
    done = real_shutbox(*shlex.split(command.removeprefix("$ shutbox ")), columns=None)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == printed


def test_ci_runs_the_readme_test_command() -> None:
    command = "python -m pytest -n auto --dist loadfile"
    extras = ".[test,dask,fast,plot,tune,docs,postgres,rl]"
    assert f'pip install "{extras}" && {command}' in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'install --quiet "{extras}"' in ci and ci.rstrip().endswith(command)
    site = ci.index("mkdocs build --strict")
    assert site < ci.index(command)


def _what_people_do() -> list[str]:
    """The command lines of the README's section of the five things people do."""
    section = README[README.index("## What people do") :]
    section = section[: section.index("\n## ")]
    return [line for body in blocks(section, "sh") for line in body.splitlines() if line.startswith("shutbox ")]


def test_the_readme_shows_a_command_for_each_thing_people_do() -> None:
    commands = [shlex.split(line)[1] for line in _what_people_do()]
    assert commands == ["play", "tournament", "check", "match", "tune", "tournament"]


@pytest.mark.slow
@pytest.mark.parametrize("line", _what_people_do())
def test_a_command_of_the_readme_runs(line: str, tmp_path: Path) -> None:
    """Run as written, from a folder holding a copy of the examples (it writes its reports there)."""
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "NO_COLOR": "1", "SHUTBOX_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [SHUTBOX, *shlex.split(line)[1:]],
        input="q\ny\n",  # play: quit the game at its first roll
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-1000:]
    for report in re.findall(r"(?:--report|-o) (\S+)", line):
        assert (tmp_path / report).is_file(), report


def test_the_readme_links_every_page_of_the_manual() -> None:
    linked = set(re.findall(r"\]\(docs/([a-z_]+)\.md\)", README))
    pages = {path.stem for path in (ROOT / "docs").glob("*.md")} - {"index"}
    assert linked == pages
    assert "../shared" not in README
