"""Installed packages' strategies whose names are taken: a built-in keeps its name, a clash is one
warning naming both, and each package's strategy is given by its qualified name PACKAGE:NAME."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

from strategies.catalog import catalog, strategy_info
from strategies.loading import StrategyLoadError, load_strategy
from strategies.names import StrategyNameClash, registrations
from tournaments import Options, load_config

from helpers.command import real_shutbox
from helpers.paths import DATA, ROOT

RIVAL = DATA / "shutbox-rival"
LUCKY = ROOT / "examples" / "shutbox-lucky"
ON_OPTIMAL = (
    "the strategy of package shutbox-rival 1.0 (shutbox_rival:Rival) has the name of the built-in strategy "
    "'optimal', which keeps it; give 'shutbox-rival:optimal' for the package's."
)
ON_LUCKY = (
    "the strategy of package shutbox-lucky 0.1.0 (shutbox_lucky:Lucky) and the strategy of package shutbox-rival "
    "1.0 (shutbox_rival:Rival) have one name, 'lucky'; give 'shutbox-lucky:lucky' or 'shutbox-rival:lucky'."
)


def _metadata(folder: Path, package: str, version: str, declared: dict[str, str]) -> None:
    """What pip leaves for an installed package's entry points: a dist-info folder on the path."""
    info = folder / f"{package.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
    lines = "".join(f"{name} = {target}\n" for name, target in declared.items())
    (info / "entry_points.txt").write_text(f"[shutbox.strategies]\n{lines}")


@pytest.fixture
def rivals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """shutbox-rival and shutbox-lucky on the import path, as installed (their metadata written by hand)."""
    _metadata(tmp_path, "shutbox-rival", "1.0", {"optimal": "shutbox_rival:Rival", "lucky": "shutbox_rival:Rival"})
    _metadata(tmp_path, "shutbox-lucky", "0.1.0", {"lucky": "shutbox_lucky:Lucky"})
    for folder in (tmp_path, RIVAL, LUCKY):
        monkeypatch.syspath_prepend(str(folder))


def clashes() -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registrations()
    return [str(warning.message) for warning in caught if warning.category is StrategyNameClash]


@pytest.mark.usefixtures("rivals")
@pytest.mark.filterwarnings("ignore::strategies.names.StrategyNameClash")
def test_a_builtin_keeps_its_name_and_the_package_strategy_goes_by_its_qualified_name() -> None:
    assert clashes() == [ON_LUCKY, ON_OPTIMAL]
    builtin = load_strategy("optimal")
    assert (builtin.cls.__module__, builtin.origin) == ("strategies.solved", "built-in")
    for spelled in ("shutbox-rival:optimal", "Shutbox_Rival:optimal", "shutbox.rival:optimal"):
        rival = load_strategy(spelled)
        assert (rival.cls.__name__, rival.origin, rival.name) == ("Rival", "package shutbox-rival 1.0", spelled)
    assert load_config(None, Options()).strategies[1].builtin  # the default field's optimal
    assert strategy_info("shutbox_rival:lucky").name == "shutbox-rival:lucky"


@pytest.mark.usefixtures("rivals")
@pytest.mark.filterwarnings("ignore::strategies.names.StrategyNameClash")
def test_two_packages_strategies_of_one_name_are_each_given_by_its_qualified_name() -> None:
    with pytest.raises(StrategyLoadError) as caught:
        load_strategy("lucky")
    assert str(caught.value) == (
        "2 installed strategies are named 'lucky'; give 'shutbox-lucky:lucky' or 'shutbox-rival:lucky'."
    )
    assert load_strategy("shutbox-lucky:lucky").cls.__name__ == "Lucky"
    assert load_strategy("shutbox-rival:lucky").cls.__name__ == "Rival"
    listed = [info.name for info in catalog()]
    assert listed[-3:] == ["shutbox-lucky:lucky", "shutbox-rival:lucky", "shutbox-rival:optimal"]
    assert listed.count("optimal") == 1 and "lucky" not in listed


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")  # its workers load the strategies again
def test_an_installed_package_named_like_a_builtin_disables_nothing(tmp_path: Path) -> None:
    """A real `pip install` of both packages into a folder on PYTHONPATH, then the real command."""
    site = tmp_path / "site"
    sources = [shutil.copytree(package, tmp_path / package.name) for package in (RIVAL, LUCKY)]  # builds leave files
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "--quiet"]
    installed = subprocess.run([*pip, "--target", str(site), *map(str, sources)], capture_output=True, text=True)
    if installed.returncode and "setuptools" in installed.stderr and "satisf" in installed.stderr:
        pytest.skip("pip cannot fetch setuptools to build the packages (no network and no local index).")
    assert installed.returncode == 0, installed.stderr

    def shutbox(*arguments: str, typed: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "shutbox_cli", *arguments],
            input=typed,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(site), "COLUMNS": "100"},
            cwd=tmp_path,
            timeout=120,
        )

    done = shutbox("tournament", "-n", "20", "--seed", "1", "-q")  # the default field has optimal
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: {ON_LUCKY}",
        f"warning: {ON_OPTIMAL}",
    ]
    done = shutbox("analyze", "optimal")
    assert done.returncode == 0 and done.stdout.startswith("optimal: The lowest expected score"), done.stderr
    done = shutbox("play", "--player", "Ann", "--computer", "optimal", "--seed", "1", typed="q\n")
    assert done.returncode == 0 and "Goodbye." in done.stdout, done.stderr
    # Workers load the strategies again, and say nothing of it.
    done = shutbox("tournament", "-s", "shutbox-rival:optimal", "-s", "optimal", "-n", "40", "--seed", "1", "-j", "2")
    assert done.returncode == 0, done.stderr
    assert "shutbox-rival:optimal" in done.stdout
    assert done.stderr.count("warning:") == 2
    assert "package shutbox-rival 1.0 (shutbox_rival:Rival)" in shutbox("strategies", "shutbox-rival:optimal").stdout


COUNTER = """
import os, sys

def _count(event, args):
    if event == "open" and str(args[0]).endswith(os.path.join("shutbox_rival-1.0.dist-info", "entry_points.txt")):
        with open(os.environ["SHUTBOX_TEST_READS"], "a") as reads:
            reads.write(f"{os.getpid()}\\n")

sys.addaudithook(_count)
"""
"""A `sitecustomize` that notes, in every process it starts in, each read of shutbox-rival's
entry points (by the process's id)."""


@pytest.mark.slow
def test_installed_strategies_are_looked_up_once_per_process(tmp_path: Path) -> None:
    """The real commands, with an installed package's strategies, each process reading the package's
    entry points once however many strategies it finds; a user's strategy plays in a host process of
    its own, which is told what its referee read and reads none."""
    _metadata(tmp_path, "shutbox-rival", "1.0", {"optimal": "shutbox_rival:Rival", "lucky": "shutbox_rival:Rival"})
    (tmp_path / "sitecustomize.py").write_text(COUNTER)
    reads = tmp_path / "reads"
    env = {
        "PYTHONPATH": os.pathsep.join(map(str, (tmp_path, RIVAL))),
        "SHUTBOX_TEST_READS": str(reads),
        "SHUTBOX_KERNEL": "numpy",  # numba, on import, reads every package's entry points for its own
    }
    for command in (
        ("strategies",),
        ("tournament", "-s", "shutbox-rival:lucky", "-s", "optimal", "-s", "tips", "-n", "20", "--seed", "1", "-q"),
    ):
        reads.unlink(missing_ok=True)
        done = (
            real_shutbox(*command, "-j", "1", env=env)
            if command[0] == "tournament"
            else real_shutbox(*command, env=env)
        )
        assert done.returncode == 0, done.stderr
        by_process = Counter(reads.read_text().split())
        assert by_process and set(by_process.values()) == {1}, (command, by_process)
        assert len(by_process) == 1, (command, by_process)  # the command's own process: never a host
