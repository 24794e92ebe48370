"""What `shutbox strategies` shows: every available strategy, its nature and its parameters."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from .base import Strategy
from .loading import StrategyLoadError, resolve, split_spec
from .names import registered, registrations
from .shown import answer_text


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One constructor parameter: its name, its default (`REQUIRED` if none) and its type as written."""

    name: str
    default: Any
    annotation: str


REQUIRED = inspect.Parameter.empty


@dataclasses.dataclass(frozen=True)
class StrategyInfo:
    """A strategy as the catalogue shows it; `problem` says why an installed one cannot be loaded."""

    name: str
    origin: str
    target: str
    cls: type[Strategy] | None = None
    problem: str | None = None

    @property
    def description(self) -> str:
        return self.cls.description if self.cls is not None else self.problem or ""

    @property
    def details(self) -> str:
        """The class docstring: how it plays, in full."""
        return "" if self.cls is None else inspect.cleandoc(self.cls.__doc__ or "")

    @property
    def nature(self) -> str:
        """In short: "exact" (deterministic and context-free), or what stops that."""
        cls = self.cls
        if cls is None:
            return "unavailable"
        if cls.tabulable():
            return "exact"
        return ", ".join(
            word for word, true in (("stochastic", cls.stochastic), ("reads context", cls.reads_context)) if true
        )

    @property
    def nature_in_full(self) -> str:
        """Deterministic or stochastic, context-free or context-reading, and what follows from that."""
        cls = self.cls
        if cls is None:
            return "unavailable"
        chance = (
            "stochastic (its own random generator, seeded apart from the dice)" if cls.stochastic else "deterministic"
        )
        context = "reads the game context" if cls.reads_context else "context-free"
        follows = (
            "analysed exactly, and played from a table of its own answers"
            if cls.tabulable()
            else "analysed by seeded simulation"
        )
        if cls.key:
            context = f"reads only {', '.join(cls.key)} of the game (its key)"
            follows += ", played in tournaments from a table per key"
        return f"{chance}, {context}: {follows}"

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """The keyword parameters of its constructor."""
        if self.cls is None:
            return ()
        return tuple(
            Parameter(parameter.name, parameter.default, _annotation(parameter.annotation))
            for parameter in inspect.signature(self.cls).parameters.values()
            if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        )


def _annotation(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty:
        return ""
    if isinstance(annotation, str):
        return annotation
    name = annotation.__name__ if isinstance(annotation, type) else None
    return name if isinstance(name, str) else answer_text(annotation)  # a strategy's annotation may be anything


def catalog() -> list[StrategyInfo]:
    """Every registered strategy, built-ins first; a broken installed one says what is wrong."""
    infos = []
    for name, registration in registrations().items():
        try:
            cls, origin = resolve(name)
        except StrategyLoadError as error:
            infos.append(StrategyInfo(name, registration.origin, registration.target, problem=str(error)))
        else:
            infos.append(StrategyInfo(name, origin, registration.target, cls))
    return infos


def strategy_info(spec: str) -> StrategyInfo:
    """One strategy, by registered name or by `module:Class` / `path/file.py:Class` (parameters ignored)."""
    target, _ = split_spec(spec)
    cls, origin = resolve(target, spec)
    names = registrations()
    known = registered(target, names)
    if known is not None:
        return StrategyInfo(target if target in names else known.qualified or target, origin, known.target, cls)
    return StrategyInfo(cls.name or target, origin, target, cls)
