"""A strategy writer's project, made in a new folder: the strategy file with the contract's
declarations filled in, a contract test (`strategies.testing`), a `pyproject.toml` declaring the
strategy under the entry-point group shutbox reads, with a `test` extra, and a README that says
the next commands.

`strategy_project("high-first")` says what would be made (module `shutbox_high_first`, class
`HighFirst`, folder `shutbox-high-first`); `make_strategy_project` writes it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import re
import shlex
import shutil
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from .names import BUILTINS, ENTRY_POINT_GROUP

NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""A strategy's name in a new project: lower-case letters and digits in words joined by hyphens,
a letter first (`high-first`)."""
TAKEN_MODULES = frozenset({"shutbox_cli"})
"""Modules of shutbox's own that a project's module must not shadow."""


class ScaffoldError(ValueError):
    """A project that cannot be made: a bad name, a folder in the way. One sentence; where it names
    the setting to change (`setting`, the folder), `spelled` writes it as a caller spells it."""

    def __init__(self, text: str, setting: str | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.setting = setting

    def spelled(self, spell: Callable[[str], str]) -> str:
        """The message with its setting (`{setting}` in `text`) written by `spell`."""
        if self.setting is None:
            return self.text
        head, _, tail = self.text.rpartition("{setting}")  # the last: a folder's own name may hold anything
        return head + spell(self.setting) + tail

    def __str__(self) -> str:
        return self.spelled(lambda name: name + "=")


@dataclasses.dataclass(frozen=True)
class StrategyProject:
    """What a new strategy project is called, in each of its spellings."""

    name: str
    """The strategy's name, and its entry point's: `high-first`."""
    module: str
    """Its module: `shutbox_high_first`."""
    cls: str
    """Its class: `HighFirst`."""
    package: str
    """The distribution pip installs: `shutbox-high-first`."""

    @property
    def spec(self) -> str:
        """The strategy's spec by its file, before the project is installed."""
        return f"{self.module}.py:{self.cls}"


def strategy_project(name: str) -> StrategyProject:
    """The spellings of a new project's names, from the strategy's; ScaffoldError for a bad name."""
    if not NAME_PATTERN.fullmatch(name):
        raise ScaffoldError(
            f"{name!r} is not a name for a new strategy: use lower-case letters and digits, words "
            "joined by single hyphens, a letter first (such as 'high-first')."
        )
    if name in BUILTINS:
        raise ScaffoldError(f"{name!r} is the name of a built-in strategy; choose another.")
    words = name.split("-")
    module = "shutbox_" + "_".join(words)
    if module in TAKEN_MODULES:
        raise ScaffoldError(f"a strategy named {name!r} would make a module {module!r}, shutbox's own; choose another.")
    return StrategyProject(name, module, "".join(word.capitalize() for word in words), f"shutbox-{name}")


def make_strategy_project(name: str, folder: Path | None = None) -> tuple[StrategyProject, Path, list[Path]]:
    """Write a new strategy project into `folder` (default `./shutbox-NAME`), which must not exist
    or be empty: the project, its folder and the files made. ScaffoldError for a bad name or a folder
    in the way."""
    project = strategy_project(name)
    folder = Path(project.package) if folder is None else folder
    files = {
        f"{project.module}.py": _strategy_file(project),
        f"tests/test_{project.module}.py": _test_file(project),
        "pyproject.toml": _pyproject(project),
        "README.md": _readme(project),
    }
    made: list[Path] = []
    existed = False
    try:
        _check_folder(folder)
        existed = folder.is_dir()
        for relative, text in files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            made.append(path)
    except OSError as error:
        _take_back(folder, existed)
        if error.errno == errno.ENAMETOOLONG:
            raise ScaffoldError(
                f"a strategy named {name[:12] + '...' if len(name) > 15 else name!r} makes file names too long "
                "for this system; choose a shorter name."
            ) from None
        raise ScaffoldError(f"cannot write the project in {str(folder)!r}: {error.strerror or error}.") from None
    return project, folder, made


def _take_back(folder: Path, existed: bool) -> None:
    """Remove what a failed write made: the folder, or what is in it if it was there (empty) before."""
    with contextlib.suppress(OSError):
        for path in [folder] if not existed else list(folder.iterdir()):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _check_folder(folder: Path) -> None:
    """ScaffoldError unless `folder` is new or empty (OSError where it cannot be looked at)."""
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{str(folder)!r} is a file; give a new folder ({{setting}}) for the project.", "folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise ScaffoldError(
            f"the folder {str(folder)!r} is not empty; give a new folder ({{setting}}) for the project.", "folder"
        )


def _strategy_file(project: StrategyProject) -> str:
    return f'''"""The strategy {project.name}: change how it plays in choose_move, choose_dice.

shutbox check {project.spec}
shutbox analyze {project.spec}
"""

from strategies import Move, Strategy, View


class {project.cls}(Strategy):
    """Shuts the highest tile it can, with the most low tiles that fit."""

    # The name it is known by (the entry point in pyproject.toml gives the same).
    name = "{project.name}"
    # One line saying how it plays: `shutbox strategies` lists it.
    description = "Shuts the highest tile it can, with the most low tiles that fit."
    # Its nature, checked (not trusted) by `shutbox check` and the contract test.
    # True if it uses self.rng (its own generator, seeded apart from the dice):
    stochastic = False
    # True if it reads view.context or view.turn (the game beyond its turn):
    reads_context = False
    # Or the few features of the game it reads, such as ("to_beat",), to be
    # played nearly as fast as one that reads none (strategies.keys.FEATURES):
    key = None

    def choose_move(self, view: View) -> Move:
        """One of view.legal_moves, each a tuple of tiles, lowest first (asked
        only when there are two or more)."""
        return max(view.legal_moves, key=lambda move: (move[-1], len(move)))

    def choose_dice(self, view: View) -> int:
        """1 or 2 (asked only when the rules allow both): here one die once the
        open tiles add up to 6 or less."""
        return 1 if view.open_sum <= 6 else 2
'''


def _test_file(project: StrategyProject) -> str:
    return f'''"""The contract's checks, as `shutbox check` makes them, and a decision."""

from strategies.testing import StrategyContract, make_view

from {project.module} import {project.cls}


class Test{project.cls}(StrategyContract):
    strategy = {project.cls}


def test_it_shuts_the_highest_tile_it_can() -> None:
    # The view {project.cls} is shown in a game: context=TurnContext(...) sets the game around it.
    view = make_view(open_tiles=(1, 2, 3, 9), dice=(4, 5), strategy={project.cls})
    assert {project.cls}().choose_move(view) == (9,)
'''


def _pyproject(project: StrategyProject) -> str:
    return f'''[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{project.package}"
version = "0.1.0"
description = "The shutbox strategy {project.name}."
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["shutbox"]

[project.optional-dependencies]
test = ["pytest"]

# This table is what makes `shutbox strategies` list it and `{project.name}` a strategy name.
[project.entry-points."{ENTRY_POINT_GROUP}"]
{project.name} = "{project.module}:{project.cls}"

[tool.setuptools]
py-modules = ["{project.module}"]

[tool.pytest.ini_options]
pythonpath = ["."]
'''


def _readme(project: StrategyProject) -> str:
    return f"""# {project.package}

The shutbox strategy `{project.name}`: the class `{project.cls}` in `{project.module}.py`. Change
how it plays in `choose_move` and `choose_dice`, and keep its declarations (`stochastic`,
`reads_context`, `key`) true: `shutbox check {project.spec}` checks them.

The next commands, in this folder (shutbox is on no package index: the first installs it from
where it came from; skip it in an environment where shutbox is installed already):

```sh
pip install {_source_argument()}
pip install -e ".[test]"    # installs it, and pytest
python -m pytest            # the contract's checks, and your own tests
shutbox tournament -s {project.name} -s optimal --seed 1    # plays it by its name
```

`pyproject.toml` declares it under the entry-point group `{ENTRY_POINT_GROUP}`, so once installed
it is the strategy `{project.name}` to every shutbox command (`shutbox strategies {project.name}`).
"""


SOURCE_UNKNOWN = "PATH/TO/SHUTBOX    # its checkout's folder, or its wheel"
"""What the scaffold's README says to install shutbox from when pip recorded no local source."""


def shutbox_source() -> Path | None:
    """Where the running shutbox was installed from, as pip recorded it (its checkout's folder, or
    its wheel), or the checkout it runs from uninstalled; None when neither is known."""
    try:
        recorded = json.loads(metadata.distribution("shutbox").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        recorded = {}
    url = recorded.get("url") if isinstance(recorded, dict) else None
    if isinstance(url, str) and url.startswith("file://"):
        return Path(url2pathname(urlparse(url).path))
    checkout = Path(__file__).resolve().parent.parent
    return checkout if (checkout / "pyproject.toml").is_file() and (checkout / "strategies").is_dir() else None


def _source_argument() -> str:
    source = shutbox_source()
    return SOURCE_UNKNOWN if source is None else shlex.quote(str(source))
