"""A trained policy played as a strategy (docs/rl.md): a model (`path/to/model.onnx`, a saved
Stable-Baselines3 or sb3-contrib `path/to/model.zip`) or a Python callable (`module:function`,
`path/to/file.py:function`) that answers each decision's observation and mask of legal actions
(`strategies.encoding`) with an action.

A policy is deterministic. Unless its spec says `reads_context=True`, it is shown the context of a
solo game's first turn whatever the game, so its answers depend on the box and the roll alone: it
is exact, tabulated and scored exactly like any exact strategy (`shutbox check` still holds it to
that: a callable that draws at random or keeps state fails). With `reads_context=True` it is shown
the game's context and plays as a context reader. A model fixes its observation's size and its
number of actions, and so its box: under rules of another box it refuses, in one sentence, as a
strategy refuses rules it does not play (`key_under`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ClassVar

from shutbox_cli.game import Rules, tiles_of

from .base import Move, Strategy, View
from .encoding import CONTEXT_FIELDS, DECISION_FIELDS, ActionMask, Encoding, encoding
from .errors import StrategyLoadError
from .policy_models import Model, asked, load_model

FIXED_FIELDS = len(DECISION_FIELDS) + len(CONTEXT_FIELDS)
"""The observation's entries besides the box's tiles: the decision's fields and the context's."""


class PolicyStrategy(Strategy):
    """A trained policy as a strategy; `policy_class` makes one for each model and declaration."""

    description = "A trained policy: its model's action (of the legal ones, the one it scores highest)."
    model: ClassVar[Model]
    spec: ClassVar[str] = ""

    def __init__(self, reads_context: bool = False) -> None:
        """`reads_context` is the class's declaration (`policy_class` made it so): taken, not kept."""

    @classmethod
    def key_under(cls, rules: Rules) -> tuple[str, ...] | None:
        """No key; a StrategyLoadError (one sentence) under rules of another box than its model's."""
        shape = cls.model.shape
        coded = encoding(rules)
        if shape is not None and shape != (len(coded.fields), coded.actions):
            size, actions = shape
            box = f"a box of {size - FIXED_FIELDS} tiles" if size > FIXED_FIELDS else "no box shutbox plays"
            raise StrategyLoadError(
                f"strategy {cls.spec!r} was trained for {box} (observations of {size} numbers, {actions} actions), "
                f"not these rules' {rules.tiles} tiles ({len(coded.fields)} numbers, {coded.actions} actions)."
            )
        return cls.key

    def choose_move(self, view: View) -> Move:
        coded = encoding(view.rules)
        mask = coded.action_mask(view.open_mask, view.dice)
        action = self._action(coded, view, mask)
        move = coded.move_of(action)
        if move is None or not mask[action]:
            raise ValueError(f"the policy chose action {action} ({_meaning(coded, action)}), which is not legal here")
        return tiles_of(move)

    def choose_dice(self, view: View) -> int:
        coded = encoding(view.rules)
        mask = coded.action_mask(view.open_mask, None)
        action = self._action(coded, view, mask)
        count = coded.dice_of(action)
        if count is None or not mask[action]:
            raise ValueError(f"the policy chose action {action} ({_meaning(coded, action)}), which is not legal here")
        return count

    def _action(self, coded: Encoding, view: View, mask: ActionMask) -> int:
        observation = coded.observe(view.open_mask, view.dice, view.context if self.reads_context else None)
        return asked(type(self).model, observation, mask)


def _meaning(coded: Encoding, action: int) -> str:
    """What an action does, in a few words: `shut 1+8`, `roll one die`, or that it is none."""
    move, count = coded.move_of(action), coded.dice_of(action)
    if move is not None:
        return "shut " + "+".join(map(str, tiles_of(move)))
    if count is not None:
        return "roll one die" if count == 1 else "roll two dice"
    return f"no action: there are {coded.actions}"


def policy_class(model: Model, spec: str, reads_context: bool = False) -> type[PolicyStrategy]:
    """A strategy class playing `model`, known by `spec`, declaring `reads_context`."""
    return _made(model, spec, reads_context)


@functools.cache
def _made(model: Model, spec: str, reads_context: bool) -> type[PolicyStrategy]:
    attributes = {"model": model, "spec": spec, "reads_context": reads_context, "__module__": __name__}
    return type("Policy", (PolicyStrategy,), attributes)


def model_policy(target: str, spec: str) -> type[PolicyStrategy]:
    """The strategy class of the model file `target` names (StrategyLoadError if it cannot be loaded)."""
    return policy_class(_loaded_model(target, spec), spec)


@functools.cache
def _loaded_model(target: str, spec: str) -> Model:
    return load_model(target, spec)


def callable_policy(act: Callable[..., object], spec: str) -> type[PolicyStrategy]:
    """The strategy class of a policy function `act(observation, mask) -> action`."""
    return policy_class(Model(act), spec)


def declared(cls: type[Strategy], reads_context: object) -> type[Strategy]:
    """A policy class as its spec's `reads_context` parameter declares it (any other class as it is)."""
    if not issubclass(cls, PolicyStrategy) or reads_context is cls.reads_context:
        return cls
    if type(reads_context) is not bool:
        raise StrategyLoadError(f"strategy {cls.spec!r} takes reads_context=True or False, not {reads_context!r}.")
    return policy_class(cls.model, cls.spec, reads_context)
