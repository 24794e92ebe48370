"""`shutbox new strategy NAME`: the project it makes checks, tests and installs as made."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from helpers.command import environment, real_shutbox, shutbox
from helpers.paths import ROOT
from helpers.venv import fresh_venv, pip_install

FILES = ["shutbox_high_first.py", "tests/test_shutbox_high_first.py", "pyproject.toml", "README.md"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project made by the real command."""
    where = tmp_path_factory.mktemp("new")
    made = real_shutbox("new", "strategy", "high-first", cwd=where)
    assert made.returncode == 0, made.stderr
    return where / "shutbox-high-first"


@pytest.mark.slow
def test_the_project_declares_its_strategy_and_says_the_next_commands(project: Path) -> None:
    made = [path.relative_to(project).as_posix() for path in project.rglob("*") if path.is_file()]
    assert sorted(made) == sorted(FILES)
    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["entry-points"]["shutbox.strategies"] == {"high-first": "shutbox_high_first:HighFirst"}
    assert meta["project"]["optional-dependencies"]["test"] == ["pytest"]
    readme = (project / "README.md").read_text()
    for command in ('pip install -e ".[test]"', "python -m pytest", "shutbox tournament -s high-first"):
        assert command in readme
    source = (project / "shutbox_high_first.py").read_text()
    for declaration in ('name = "high-first"', "description = ", "stochastic = False", "reads_context = False"):
        assert declaration in source
    for method in ("def choose_move(self, view: View) -> Move:", "def choose_dice(self, view: View) -> int:"):
        assert method in source


@pytest.mark.slow
def test_shutbox_check_passes_on_the_strategy_as_made(project: Path) -> None:
    checked = real_shutbox("check", "shutbox_high_first.py:HighFirst", "--samples", "10", cwd=project)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    said = checked.stdout.rstrip().splitlines()
    assert said[-2] == "Every check holds." and said[-1].startswith("Fingerprint under the default rules: ")


def assert_its_tests_pass(project: Path) -> None:
    """The new project's own six tests pass, run by pytest in its folder."""
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "6 passed" in ran.stdout


@pytest.mark.slow
def test_its_own_tests_pass_as_made(project: Path) -> None:
    assert_its_tests_pass(project)


@pytest.mark.slow
def test_its_own_tests_pass_once_it_declares_a_key_and_reads_it(project: Path, tmp_path: Path) -> None:
    keyed = shutil.copytree(project, tmp_path / "keyed")
    source = keyed / "shutbox_high_first.py"
    text = source.read_text()
    assert "    key = None\n" in text and "        return max(view.legal_moves" in text
    source.write_text(
        text.replace("    key = None\n", '    key = ("to_beat",)\n').replace(
            "        return max(view.legal_moves",
            "        if view.context.to_beat == 0:\n"
            "            return min(view.legal_moves)\n"
            "        return max(view.legal_moves",
        )
    )
    assert_its_tests_pass(keyed)


@pytest.mark.slow
def test_installed_in_a_fresh_venv_it_plays_in_a_tournament_by_its_name(project: Path, tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, project, tmp_path / "copy")
    played = subprocess.run(
        [python, "-m", "shutbox_cli", "tournament", "-s", "high-first", "-s", "greedy-high", "-n", "20", "--seed", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    assert played.returncode == 0, played.stderr
    assert "high-first" in played.stdout and "greedy-high" in played.stdout


COPIED_NOT = shutil.ignore_patterns(".*", "__pycache__", "build", "*.egg-info")
"""What a copy of this checkout leaves out: a build writes into the folder it builds."""


@pytest.mark.slow
def test_its_readme_installs_it_and_shutbox_in_a_fresh_venv_and_its_tests_pass(project: Path, tmp_path: Path) -> None:
    readme = (project / "README.md").read_text()
    commands = [shlex.split(line.split("#")[0]) for line in readme.splitlines() if line.startswith("pip install ")]
    assert commands[0] == ["pip", "install", str(ROOT)]  # shutbox, from the checkout this shutbox runs from
    # Built from a copy, as the README's first command would build it, so this checkout gains no build files.
    copy = shutil.copytree(ROOT, tmp_path / "shutbox", ignore=COPIED_NOT)
    python = fresh_venv(tmp_path / "venv", without="shutbox")
    for command in commands:
        arguments = [str(copy) if argument == str(ROOT) else argument for argument in command[2:]]
        installed = subprocess.run(
            [python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", *arguments],
            cwd=project,
            capture_output=True,
            text=True,
            env=environment(),
            timeout=300,
        )
        if installed.returncode and "setuptools" in installed.stderr and "satisf" in installed.stderr:
            pytest.skip("pip cannot fetch setuptools to build the package (no network and no local index).")
        assert installed.returncode == 0, f"{' '.join(command)}: {installed.stderr}"
    ran = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "6 passed" in ran.stdout


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("High", "'High' is not a name for a new strategy: use lower-case letters and digits"),
        ("high--first", "'high--first' is not a name for a new strategy"),
        ("9lives", "'9lives' is not a name for a new strategy"),
        ("optimal", "'optimal' is the name of a built-in strategy; choose another."),
        ("cli", "a strategy named 'cli' would make a module 'shutbox_cli', shutbox's own; choose another."),
    ],
)
def test_a_bad_name_is_refused_in_one_sentence(tmp_path: Path, name: str, said: str) -> None:
    refused = shutbox("new", "strategy", name, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.startswith(f"shutbox: error: {said}") and refused.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_folder_in_the_way_is_refused_and_an_empty_one_is_used(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    (tmp_path / "file").write_text("mine")
    refused = shutbox("new", "strategy", "high-first", "--dir", "full", cwd=tmp_path)
    assert (refused.returncode, refused.stderr) == (
        2,
        "shutbox: error: the folder 'full' is not empty; give a new folder (--dir) for the project.\n",
    )
    assert [path.name for path in (tmp_path / "full").iterdir()] == ["notes.txt"]
    refused = shutbox("new", "strategy", "high-first", "--dir", "file", cwd=tmp_path)
    assert refused.returncode == 2 and "'file' is a file" in refused.stderr
    (tmp_path / "empty").mkdir()
    made = shutbox("new", "strategy", "high-first", "--dir", "empty", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("Made the strategy high-first (HighFirst) in empty:")
    assert (tmp_path / "empty" / "shutbox_high_first.py").is_file()


@pytest.mark.parametrize("letters", [300, 240])  # its folder's name too long; its test file's alone
def test_a_name_too_long_for_a_file_name_is_refused_in_one_sentence(tmp_path: Path, letters: int) -> None:
    refused = shutbox("new", "strategy", "a" * letters, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.startswith("shutbox: error: a strategy named 'aaaa") and refused.stderr.count("\n") == 1
    assert "too long" in refused.stderr and "choose a shorter name." in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_library_names_the_folder_setting_and_the_command_line_its_flag(tmp_path: Path) -> None:
    from strategies.runner import ScaffoldError, make_strategy_project

    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    with pytest.raises(ScaffoldError) as refused:
        make_strategy_project("high-first", tmp_path / "full")
    assert str(refused.value).endswith("is not empty; give a new folder (folder=) for the project.")
    assert refused.value.spelled(lambda _: "--dir").endswith("give a new folder (--dir) for the project.")
