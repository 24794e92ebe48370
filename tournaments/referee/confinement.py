"""A strategy's host confined by the operating system before the strategy's code runs, and the
confinement in force said in one value (docs/trust.md).

On Linux a host sets no_new_privs, gives up every capability, is held by Landlock (read and
execute only what the strategy needs to import, write only its scratch folder, no TCP, no signal
or abstract Unix socket outside its own processes) and by a seccomp filter (`seccomp.py`: no
tracing, no other process's memory, no socket(), no namespaces...). `state` says what this machine
enforces: "full", "partial (what is missing)" or "none (why)". `SHUTBOX_CONFINEMENT=strict` makes
a run that would host a strategy with less than full confinement fail; `SHUTBOX_LANDLOCK_ABI=N`
takes the kernel's Landlock ABI for at most N (0: none), to see what an older kernel gives.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from ..folders import private_folders

# The rest loads where a host starts, not in every command that asks to be told (`on_first_host`).

SETTING = "SHUTBOX_CONFINEMENT"
"""The environment variable that demands full confinement (`strict`) of every host of a run."""
STRICT = "strict"
ABI_SETTING = "SHUTBOX_LANDLOCK_ABI"
"""The environment variable that caps the Landlock ABI used (tests: a kernel without Landlock)."""
WRITABLE_SETTING = "SHUTBOX_HOST_WRITABLE"
"""The environment variable naming folders (os.pathsep between them) a host may write in besides
its scratch folder: for a strategy that keeps files of its own, and for tests that watch one."""
FULL, PARTIAL, NONE = "full", "partial", "none"
LIBRARIES = (
    "/lib",
    "/lib64",
    "/lib32",
    "/usr/lib",
    "/usr/lib64",
    "/usr/lib32",
    "/usr/local/lib",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/usr/share/zoneinfo",
)
"""What the dynamic loader and the time functions read, beside Python's own folders."""
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")
VISIBLE = ("/proc",)
"""Read (not executed) as any process may: another's memory, environment and open files stay
out of reach (Landlock refuses the tracing access they need, across domains)."""
OUR_PACKAGES = ("shutbox_cli", "strategies", "tournaments")
IMPORTED = (".py", ".pyc", ".so", ".pyd", ".pth")
"""The files Python imports from a folder: all a host may read of one that holds a private folder."""


@dataclasses.dataclass(frozen=True)
class Confinement:
    """The confinement a host gets here: `level` (full, partial or none), the Landlock ABI it uses
    (0: none), whether seccomp filters its system calls, and what is missing, in a few words each."""

    level: str
    landlock: int
    seccomp: bool
    missing: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.level if not self.missing else f"{self.level} ({'; '.join(self.missing)})"


def state() -> Confinement:
    """What a host started by this process is confined by, on this machine and with these settings."""
    from . import landlock, seccomp

    if not sys.platform.startswith("linux"):
        return Confinement(NONE, 0, False, (f"{sys.platform} offers no Landlock",))
    version = min(landlock.abi(), _abi_cap())
    filtered = seccomp.available()
    if version < 1:
        return Confinement(NONE, 0, filtered, ("no Landlock on this kernel",))
    lacks = [f"Landlock ABI {version}: {', '.join(landlock.missing(version))}"] if landlock.missing(version) else []
    if not filtered:
        lacks.append("no seccomp filter")
    return Confinement(PARTIAL if lacks else FULL, version, filtered, tuple(lacks))


def _abi_cap() -> int:
    try:
        return int(os.environ.get(ABI_SETTING, "") or 1 << 30)
    except ValueError:
        return 1 << 30


def report_field(specs: Iterable[str]) -> dict[str, str]:
    """A report's `confinement` (docs/report.md) where one of `specs` (a spec, or NAME=SPEC) is a
    user's strategy, which a host ran; nothing in a report of built-in strategies only."""
    from strategies.loading import builtin_spec, split_name

    if all(builtin_spec(split_name(spec)[1]) for spec in specs):
        return {}
    return {"confinement": str(state())}


def strict_confinement() -> bool:
    """Whether SHUTBOX_CONFINEMENT=strict demands full confinement of every host."""
    return os.environ.get(SETTING, "").strip().lower() == STRICT


def demanded(found: Confinement, spec: str, strict: bool = False) -> None:
    """Refuse to host `spec` unless confinement is full, where SHUTBOX_CONFINEMENT=strict (here, or
    `strict`: where the run began) asks it."""
    from strategies.loading import StrategyLoadError

    if (strict or strict_confinement()) and found.level != FULL:
        raise StrategyLoadError(
            f"strategy {spec!r} would run with confinement {found}, and {SETTING}={STRICT} demands full confinement."
        )


_listener: tuple[int, Callable[[Confinement], None]] | None = None


def on_first_host(listener: Callable[[Confinement], None]) -> None:
    """Have `listener` told the confinement once, when a host of this process (not of a worker it
    started) next has its strategy loaded; it replaces any listener not yet told."""
    global _listener
    _listener = (os.getpid(), listener)


def hosting(found: Confinement) -> None:
    """Tell this process's listener the confinement, if it has not been told."""
    global _listener
    if _listener is not None and _listener[0] == os.getpid():
        listener, _listener = _listener[1], None
        listener(found)


def scratch() -> str:
    """A private folder for a host to write in (the only one it may), removed when it stops."""
    import tempfile

    return tempfile.mkdtemp(prefix="shutbox-host-")


def confine_host(spec: str, path: list[str], scratch: str) -> Confinement:
    """Confine this process (a host, before it loads `spec` on the import path `path`) as `state`
    says this machine can: raises OSError if a part this machine offers cannot be set."""
    import tempfile

    from . import landlock, seccomp

    found = state()
    os.environ["TMPDIR"] = tempfile.tempdir = scratch
    if not sys.platform.startswith("linux"):
        return found
    threads = len(os.listdir("/proc/self/task"))
    if threads > 1:
        raise OSError(f"{threads} threads run already, which it would not hold")
    seccomp.no_new_privs()
    if found.landlock:
        reads, listed = readable(spec, path)
        landlock.restrict(found.landlock, reads, [scratch, *writable()], DEVICES, VISIBLE, listed)
    seccomp.drop_capabilities()
    if found.seccomp:
        seccomp.install_filter()
    return found


def writable() -> list[str]:
    """The folders SHUTBOX_HOST_WRITABLE names, besides the scratch folder, each given apart from
    shutbox's private folders (its keys, its kept tables) where it holds one."""
    named = [folder for folder in os.environ.get(WRITABLE_SETTING, "").split(os.pathsep) if folder]
    private = private_folders()
    return [kept for folder in named for kept in apart(Path(folder).expanduser().resolve(), private)]


def apart(folder: Path, private: list[Path]) -> list[str]:
    """`folder`, or where it is or holds a private folder, each of its entries given apart likewise
    (a link skipped: its rule would be its target's); never a private folder or what it holds."""
    if folder in private or any(inside in folder.parents for inside in private):
        return []
    if not any(folder in inside.parents for inside in private):
        return [str(folder)] if folder.exists() else []
    kept: list[str] = []
    for entry in sorted(folder.iterdir()):
        if not entry.is_symlink():
            kept += apart(entry, private)
    return kept


def readable(spec: str, path: Iterable[str]) -> tuple[list[str], list[str]]:
    """What a host may read: Python's own folders, the import path's (but the current folder, unless
    the strategy is there), our packages, the system's libraries and the strategy's own folder (a
    model file by name, where its folder is read in part); and
    the folders of those read only in part (`narrowed`), which it may list but not read."""
    own = strategy_folders(spec, path)
    here = os.getcwd()
    found = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix, *LIBRARIES, *own]
    for entry in path:
        folder = os.path.abspath(entry or here)
        if folder != here or folder in own:
            found.append(folder)
    found += [str(Path(sys.modules[name].__file__ or "").parent) for name in OUR_PACKAGES if name in sys.modules]
    private = [*private_folders(), Path.home().resolve()]
    reads: list[str] = []
    listed: list[str] = []
    for folder in dict.fromkeys(found):
        if os.path.exists(folder):
            narrowed(Path(folder).resolve(), private, reads, listed)
    model = model_path(spec)
    if model is not None and str(model.parent) in listed:  # its folder read in part: the model by name
        reads.append(str(model))
    return reads, listed


def model_path(spec: str) -> Path | None:
    """The trained policy's model file a spec names (`strategies.policy`), links followed; None for any
    other spec, and for one in shutbox's private folders."""
    from strategies.loading import StrategyLoadError, model_file, spec_file

    try:
        file = spec_file(spec)
    except StrategyLoadError:
        return None
    if file is None or not model_file(file):
        return None
    path = Path(file).expanduser().resolve()
    kept = private_folders()  # shutbox's own state (its keys) is never read by name
    return path if path.is_file() and not any(path == folder or folder in path.parents for folder in kept) else None


def narrowed(folder: Path, private: list[Path], reads: list[str], listed: list[str]) -> None:
    """Add `folder` to `reads`, or where it is or holds a private folder (the home folder, or a folder
    holding shutbox's state: a strategy's file in the home folder, say) add it to `listed` (Python
    lists a folder to import from it) and to `reads` only what Python imports from it: its modules
    and extension files, and its packages, each narrowed again; never a hidden entry or a link."""
    if folder not in private and not any(folder in inside.parents for inside in private):
        reads.append(str(folder))
        return
    listed.append(str(folder))
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.is_symlink():  # a link's rule would be its target's
            continue
        if entry.is_file() and entry.suffix in IMPORTED:
            reads.append(str(entry))
        elif entry.is_dir() and (entry / "__init__.py").is_file():
            narrowed(entry, private, reads, listed)


def strategy_folders(spec: str, path: Iterable[str]) -> list[str]:
    """The folder a strategy's code is in, found without running it: a file's folder, or the top
    package's folder(s) of a module (a plain module's own folder) on the import path."""
    from importlib.machinery import PathFinder

    from strategies.loading import StrategyLoadError, spec_file

    try:
        file = spec_file(spec)
        parts = [] if file is not None else _module_of(spec)
    except StrategyLoadError:
        return []
    if file is not None:
        return [str(Path(file).expanduser().resolve().parent)]
    if not parts:
        return []
    found = PathFinder.find_spec(parts[0], list(path))
    if found is None:
        return editable_folders(parts[0], path)
    if found.submodule_search_locations:
        return [str(Path(folder).resolve()) for folder in found.submodule_search_locations]
    return [] if found.origin is None else [str(Path(found.origin).resolve().parent)]


def module_file(spec: str, path: Iterable[str]) -> Path | None:
    """The file of the module a `module:Class` spec (or an installed strategy's name) names, found
    on the import path without running anything (packages searched folder by folder, an editable
    install through its finder's mapping); None for a file spec or where it cannot be found so."""
    from importlib.machinery import PathFinder

    from strategies.loading import StrategyLoadError, spec_file

    try:
        parts = [] if spec_file(spec) is not None else _module_of(spec)
    except StrategyLoadError:
        return None
    if not parts:
        return None
    places = list(path)
    if PathFinder.find_spec(parts[0], places) is None:
        places = [str(Path(folder).parent) for folder in editable_folders(parts[0], path)]
    found = None
    for part in parts:
        found = PathFinder.find_spec(part, places)
        if found is None:
            return None
        places = list(found.submodule_search_locations or [])
    return None if found is None or found.origin is None else Path(found.origin)


def _module_of(spec: str) -> list[str]:
    """The dotted parts of the module a spec that is not a file's names (an installed strategy's name
    as its package registers it); [] where it names none. Raises StrategyLoadError for a bad spec."""
    from strategies.loading import split_spec
    from strategies.names import registered

    target = split_spec(spec)[0]
    known = registered(target)
    where = (known.target if known is not None else target).rpartition(":")[0]
    return where.split(".") if where else []


def editable_folders(top: str, path: Iterable[str]) -> list[str]:
    """The folder of the package or module `top` where an editable install maps it (setuptools'
    `__editable___*_finder.py` beside the installed packages), read as text, never run."""
    for entry in path:
        for finder in sorted(Path(entry or ".").glob("__editable___*_finder.py")):
            mapped = _mapping(finder).get(top)
            if isinstance(mapped, str):
                where = Path(mapped).resolve()
                return [str(where if where.is_dir() else where.parent)]
    return []


def _mapping(finder: Path) -> dict[object, object]:
    """The MAPPING an editable install's finder module assigns (names to folders), read as text."""
    import ast

    try:
        tree = ast.parse(finder.read_text())
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in tree.body:
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id == "MAPPING" and value is not None:
            with contextlib.suppress(ValueError, TypeError, SyntaxError):
                mapping = ast.literal_eval(value)
                return mapping if isinstance(mapping, dict) else {}
    return {}
