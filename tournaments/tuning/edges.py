"""A tune's notes on its best values at an end of their ranges: a grid's end value (to half a step),
or a continuous range's value within `EDGE_SHARE` of its width of an end. The best may lie beyond
that end, unless the strategy refuses the value one step (or that share) past it: then nothing is
said of widening the range."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .space import Parameter, Value

EDGE_SHARE = 0.02
"""A continuous range's best value this share of its width from an end is at that end."""
Refuses = Callable[[str, Value], bool | None]
"""Whether the strategy refuses the value `Value` of its parameter `str` (None: not known here)."""


def edge_notes(
    parameters: Sequence[Parameter], best: Mapping[str, Value], target: str, refuses: Refuses
) -> tuple[str, ...]:
    """A sentence for each best value at an end of its range (see the module's docstring)."""
    found = []
    for parameter in parameters:
        values, value = parameter.values(), best.get(parameter.name)
        if value is None or parameter.low == parameter.high:
            continue
        near = EDGE_SHARE * (parameter.high - parameter.low) if parameter.continuous else parameter.grid_step / 2
        for end, word, side, sign in ((values[0], "low", "below", -1), (values[-1], "high", "above", 1)):
            if abs(value - end) <= near:
                past = end + sign * (near if parameter.continuous else parameter.grid_step)
                at = f"within {EDGE_SHARE:.0%} of the {word} end" if parameter.continuous else f"the {word}est value"
                said = f"the best {parameter.name}, {value}, is {at} of its range, {values[0]}..{values[-1]}"
                found.append(said + _beyond(refuses(parameter.name, past), target, parameter.name, side, value))
                break
    return tuple(found)


def _beyond(refused: bool | None, target: str, name: str, side: str, value: Value) -> str:
    """What the note says of the values past the end: none the strategy takes, or widen the range."""
    if refused:
        return f", and {target} takes no {name} {side} it."
    if refused is None:
        return f": the best may lie {side} it, if {target} takes a {name} {side} {value}; widen the range to see."
    return f": the best may lie {side} it; widen the range to see."
