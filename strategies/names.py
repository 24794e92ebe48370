"""The strategy names a user can give: the built-ins, and the entry points installed packages
declare in the group `shutbox.strategies`, read once per import path; a name two of them claim
goes by each package's qualified name PACKAGE:NAME, with a `StrategyNameClash` warning."""

from __future__ import annotations

import dataclasses
import re
import sys
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "shutbox.strategies"

BUILTINS: dict[str, str] = {
    "greedy-high": "strategies.builtin:GreedyHigh",
    "random": "strategies.builtin:RandomMove",
    "fewest-tiles": "strategies.builtin:FewestTiles",
    "most-tiles": "strategies.builtin:MostTiles",
    "lowest-first": "strategies.builtin:LowestFirst",
    "tips": "strategies.builtin:Tips",
    "optimal": "strategies.solved:Optimal",
    "max-shut": "strategies.solved:MaxShut",
    "target": "strategies.solved:Target",
    "perfect": "strategies.perfect:Perfect",
    "below": "strategies.below:Below",
}
"""The built-in strategies by name (pyproject.toml declares the same as entry points)."""


@dataclasses.dataclass(frozen=True)
class Registration:
    """What a strategy name stands for: a `module:Class` and where it comes from."""

    name: str
    target: str
    origin: str
    package: str | None = None
    """The installed package that declares it (None: built in, or a package of unknown name)."""

    @property
    def qualified(self) -> str | None:
        """PACKAGE:NAME, which names an installed strategy whatever else has its name."""
        return None if self.package is None else f"{self.package}:{self.name}"


class StrategyNameClash(UserWarning):
    """An installed package's strategy has the name of a built-in one, or of another package's.
    Ignored unless a caller turns it on (the `shutbox` command does, in its own process only): a
    worker that loads the strategies again need not say it again."""


warnings.filterwarnings("ignore", category=StrategyNameClash, append=True)


def _normal(package: str) -> str:
    """A package's name as pip compares names: case and runs of `-`, `_` and `.` do not matter."""
    return re.sub(r"[-_.]+", "-", package).lower()


_DECLARED: dict[tuple[str, ...], tuple[Registration, ...]] = {}
"""What installed packages declare (`declared`), by the import path it was read on (the last few)."""
KEPT_PATHS = 4


def declared() -> tuple[Registration, ...]:
    """What installed packages declare in the entry-point group, by name then target; the built-ins
    (pyproject.toml declares them too) are left out. Read once per process for each import path
    (reading every installed package's metadata takes tens of milliseconds), unless told
    (`told_declared`)."""
    path = tuple(sys.path)
    found = _DECLARED.get(path)
    if found is None:
        from importlib.metadata import entry_points  # a host is told them: it never reads them

        found = declared_by(entry_points(group=ENTRY_POINT_GROUP))
        if len(_DECLARED) >= KEPT_PATHS:
            _DECLARED.clear()
        _DECLARED[path] = found
    return found


def told_declared(found: tuple[Registration, ...]) -> None:
    """Take `found` for what installed packages declare on this import path, as read elsewhere: a
    strategy's host is told what its referee read on the import path it gives the host."""
    _DECLARED[tuple(sys.path)] = found


def declared_by(points: Iterable[EntryPoint]) -> tuple[Registration, ...]:
    """The registrations the entry points make, by name then target; the built-ins left out."""
    found = []
    for point in sorted(points, key=lambda point: (point.name, point.value)):
        if BUILTINS.get(point.name) == point.value:
            continue
        dist = point.dist
        if dist is None:
            found.append(Registration(point.name, point.value, "an installed package"))
        else:
            found.append(Registration(point.name, point.value, f"package {dist.name} {dist.version}", dist.name))
    return tuple(found)


def registrations() -> dict[str, Registration]:
    """Every strategy name a user can give, with what it stands for: the built-ins first, in their
    own order, then installed packages' strategies alphabetically. A built-in keeps its name: an
    installed strategy of the same name, or two packages' strategies of one name, go by their
    qualified names PACKAGE:NAME, with one StrategyNameClash warning naming both."""
    found = {name: Registration(name, target, "built-in") for name, target in BUILTINS.items()}
    for name, claimants in _by_name(declared()).items():
        if name in BUILTINS:
            _warn(
                f"{_listed(claimants)} {'has' if len(claimants) == 1 else 'have'} the name of the built-in "
                f"strategy {name!r}, which keeps it{_either(claimants, _FOR_THE_PACKAGE, '')}."
            )
        elif len({claimant.target for claimant in claimants}) > 1:
            _warn(f"{_listed(claimants)} have one name, {name!r}; {_either(claimants)}.")
        else:
            found[name] = claimants[0]
            continue
        for claimant in claimants:
            if claimant.qualified is not None:
                found[claimant.qualified] = claimant
    return found


def _by_name(installed: Iterable[Registration]) -> dict[str, list[Registration]]:
    """Installed strategies grouped by the name their packages give them."""
    grouped: dict[str, list[Registration]] = {}
    for registration in installed:
        grouped.setdefault(registration.name, []).append(registration)
    return grouped


def _listed(claimants: list[Registration]) -> str:
    """Installed strategies for a sentence: where each comes from and its class."""
    return " and ".join(f"the strategy of {claimant.origin} ({claimant.target})" for claimant in claimants)


_FOR_THE_PACKAGE = "; give {} for the package's"


def _either(claimants: list[Registration], how: str = "give {}", otherwise: str = "uninstall one") -> str:
    """How to give one of the strategies of one name: by its qualified name (`how`), or, where no
    package has a name to qualify it by, `otherwise`."""
    names = [repr(claimant.qualified) for claimant in claimants if claimant.qualified is not None]
    return how.format(" or ".join(names)) if names else otherwise


def _warn(message: str) -> None:
    """Warn of a clash, as said by `registrations` (the `shutbox` command shows each once)."""
    warnings.warn(message, StrategyNameClash, stacklevel=2)


def registry() -> dict[str, str]:
    """Every strategy name a user can give and the `module:Class` it stands for."""
    return {name: registration.target for name, registration in registrations().items()}


def registered(target: str, names: Mapping[str, Registration] | None = None) -> Registration | None:
    """What a registered name (of `names`, by default `registrations()`) or an installed strategy's
    qualified name PACKAGE:NAME (the package's name as pip compares it) stands for, if anything."""
    found = (registrations() if names is None else names).get(target)
    package, colon, name = target.rpartition(":")
    if found is not None or not colon:
        return found
    return next(
        (
            claim
            for claim in declared()
            if claim.name == name and claim.package is not None and _normal(claim.package) == _normal(package)
        ),
        None,
    )


def ambiguous(target: str) -> str | None:
    """What to say of a name several installed packages give their strategies, none of them
    registered under it: how many and how to give one (None: no package gives that name)."""
    claimants = _by_name(declared()).get(target)
    if not claimants:
        return None
    return f"{len(claimants)} installed strategies are named {target!r}; {_either(claimants)}."
