"""Context keys: the features of the game a keyed strategy's decisions depend on.

A strategy declares its key as a class attribute, `key = ("to_beat", "to_come")`: the names of
the features it reads. Its view's `context` then holds those features and nothing else (reading
another raises `Undeclared`), and shutbox tabulates it once per distinct key it meets, then plays
it from those tables as fast as an exact strategy. Every feature is seen from the player deciding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shutbox_cli.game import Rules, TurnContext

from .base import SOLO_CONTEXT, Strategy, Undeclared

FEATURES: dict[str, str] = {
    "seat": "its seat: its place in this game's order of play (0 first)",
    "round": "the round (0 first; playoff rounds go on counting)",
    "playoff": "whether this is a playoff round",
    "total": "its own total before this round",
    "to_beat": "the lowest score posted this round by the others (None if none has)",
    "to_beat_count": "how many of the others posted the score to beat (0 if none has)",
    "to_come": "how many of the others still in the game are still to play this round",
    "leader_total": "the lowest total before this round of the others still in the game (None if alone)",
}
"""Every feature a key may name, with what it holds."""
ALL_FEATURES = tuple(FEATURES)
"""Every feature's name, in FEATURES' order."""


def _posted(context: TurnContext) -> list[int]:
    me = context.player
    return [
        points
        for player, points in enumerate(context.scores)
        if player != me and context.active[player] and points is not None
    ]


_READ: dict[str, Callable[[TurnContext], Any]] = {
    "seat": lambda context: context.seat,
    "round": lambda context: context.round,
    "playoff": lambda context: context.playoff,
    "total": lambda context: context.totals[context.player],
    "to_beat": lambda context: min(_posted(context), default=None),
    "to_beat_count": lambda context: _posted(context).count(min(_posted(context), default=-1)),
    "to_come": lambda context: sum(
        1
        for player, active in enumerate(context.active)
        if active and player != context.player and context.scores[player] is None
    ),
    "leader_total": lambda context: min(
        (total for player, total in enumerate(context.totals) if context.active[player] and player != context.player),
        default=None,
    ),
}


def checked_key(declared: object, name: str) -> tuple[str, ...] | None:
    """A class's `key` as a tuple of feature names, or None when it declares none; ValueError
    (naming the strategy and the features there are) for anything else."""
    if declared is None:
        return None
    if isinstance(declared, str):
        declared = (declared,)
    features = tuple(declared) if isinstance(declared, (tuple, list)) else None
    if not features or any(not isinstance(feature, str) or feature not in FEATURES for feature in features):
        raise ValueError(
            f"strategy {name!r} declares key = {declared!r}: a key is a tuple of feature names, "
            f"each one of {', '.join(FEATURES)}."
        )
    if len(set(features)) != len(features):
        raise ValueError(f"strategy {name!r} names a feature twice in its key {declared!r}.")
    return features


def key_of(context: TurnContext, features: tuple[str, ...]) -> tuple[Any, ...]:
    """The key of a turn: the value of each feature, in the declared order."""
    return tuple(_READ[feature](context) for feature in features)


class KeyedContext:
    """The context a keyed strategy is shown: its key's features as attributes, nothing else."""

    __slots__ = ("_features", "_values")

    def __init__(self, features: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self._features = features
        self._values = dict(zip(features, values, strict=True))

    def __getattr__(self, feature: str) -> Any:
        if feature.startswith("__"):
            raise AttributeError(feature)
        try:
            return self._values[feature]
        except KeyError:
            raise Undeclared("the strategy", f"read view.context.{feature}", f'key = (..., "{feature}")') from None

    @property
    def key(self) -> tuple[Any, ...]:
        """The values of the features, in the declared order."""
        return tuple(self._values[feature] for feature in self._features)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyedContext) and (self._features, self.key) == (other._features, other.key)

    def __hash__(self) -> int:
        return hash((self._features, self.key))

    def __repr__(self) -> str:
        return "KeyedContext(" + ", ".join(f"{name}={value!r}" for name, value in self._values.items()) + ")"


def keyed_context(context: TurnContext, features: tuple[str, ...]) -> KeyedContext:
    """What a strategy keyed on `features` is shown of this turn's context."""
    return KeyedContext(features, key_of(context, features))


def declared_key(cls: type[Strategy], rules: Rules, name: str) -> tuple[str, ...] | None:
    """The features `cls` declares its decisions depend on under these rules, checked (None: no key)."""
    return checked_key(cls.key_under(rules), name)


RENAMED = {"score_to_beat": "to_beat"}
"""The turn context's attributes that a feature stands for under another name."""


class FeaturesRead(KeyedContext):
    """A turn's context that notes what a strategy reads of it: shown as its key's features to a
    strategy that declares none, so that `check` can say which key would do (`fitting_key`). It
    holds every feature's value, never the context: reading anything else raises `Undeclared`."""

    __slots__ = ("beyond", "read", "renamed")

    def __init__(self) -> None:
        super().__init__(ALL_FEATURES, key_of(SOLO_CONTEXT, ALL_FEATURES))
        self.read: set[str] = set()
        self.renamed: set[str] = set()
        self.beyond = False

    def of(self, context: TurnContext) -> FeaturesRead:
        """This, showing `context`'s features (what is read of them is noted with the rest)."""
        self._values = dict(zip(ALL_FEATURES, key_of(context, ALL_FEATURES), strict=True))
        return self

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        feature = RENAMED.get(name, name)
        if feature not in FEATURES:
            self.beyond = True
            raise Undeclared("the strategy", f"read view.context.{name}", "reads_context = True")
        self.read.add(feature)
        if feature != name:
            self.renamed.add(name)
        return self._values[feature]

    def fitting_key(self) -> tuple[str, ...] | None:
        """The key of the features read, in FEATURES' order; None if it read nothing, or more."""
        if self.beyond or not self.read:
            return None
        return tuple(feature for feature in FEATURES if feature in self.read)
