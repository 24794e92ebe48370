"""A throwaway virtual environment that sees this one's packages (shutbox, its dependencies, pip),
and a real `pip install` of a package folder into it."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest


def fresh_venv(folder: Path, *, without: str | None = None) -> Path:
    """A new environment in `folder`: its python. What --system-site-packages would give, but for
    this interpreter, itself perhaps a venv: shutbox, its dependencies and pip are importable in it;
    all but the files of the distribution `without` (`"shutbox"`: as if it were not installed)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    parents = [path for path in site.getsitepackages() if Path(path).is_dir()]
    if without is not None:
        parents = [
            str(_seen_without(Path(path), without, folder / f"parent-{number}")) for number, path in enumerate(parents)
        ]
    (Path(purelib) / "_parent_site.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({path!r})" for path in parents) + "\n"
    )
    return python


def _seen_without(site_packages: Path, distribution: str, view: Path) -> Path:
    """A folder of links to everything in `site_packages` but the files of `distribution`."""
    hidden = {
        part
        for file in metadata.distribution(distribution).files or ()
        if (part := Path(file).parts[0]) not in ("..", "__pycache__")
    }
    view.mkdir()
    for entry in site_packages.iterdir():
        if entry.name not in hidden:
            (view / entry.name).symlink_to(entry)
    return view


def pip_install(python: Path, package: Path, copy_to: Path) -> None:
    """Install the package folder `package` (copied to `copy_to` first: builds leave files) into the
    environment of `python`, its dependencies not fetched; skip the test if pip cannot build it offline."""
    source = shutil.copytree(package, copy_to)
    installed = subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "--quiet", str(source)],
        capture_output=True,
        text=True,
    )
    if installed.returncode and "setuptools" in installed.stderr and "satisf" in installed.stderr:
        pytest.skip("pip cannot fetch setuptools to build the package (no network and no local index).")
    assert installed.returncode == 0, installed.stderr
