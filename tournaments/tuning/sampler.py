"""An Optuna search (`--method optuna`, the `tune` extra): its TPE sampler, seeded from the tune's
seed, asks for each trial's values in turn and is told each figure, so the same command asks for
the same values; a resumed tune is told its trials so far again and asks on from there.

Why Optuna: a float range without a step and a grid of three or more parameters are spaces no grid
covers well, and TPE (a model of the better and the worse trials) takes whole numbers and floats
alike, several at once, with few trials. A small discrete grid is better played whole: every
candidate on the same dice, no candidate missed (a sampler may ask twice for one and never for
another). Optuna is imported only by a tune that uses it."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from shutbox_cli.game.terms import Seed

from ..errors import ConfigError, setting
from ..records.schema import rounded
from .records import Objective, Trial
from .space import Parameter, Point, Value

if TYPE_CHECKING:
    from optuna.distributions import BaseDistribution

MISSING = (
    'this search needs Optuna, which shutbox installs with its tune extra: pip install ".[tune]" '
    "in shutbox's checkout "
    f"(or give {setting('method', 'grid')} or halving)."
)
"""Said when Optuna is asked for, or chosen by the ranges, and not installed."""
SIGNIFICANT = 6
"""Significant digits of a value drawn from a continuous range (the strategy is given it so)."""


def check_optuna() -> None:
    """Refuse, in one sentence, a search by Optuna where it is not installed."""
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise ConfigError(MISSING) from None


def optuna_search(
    parameters: Sequence[Parameter], goal: Objective, trials: int, seed: Seed, trial: Callable[[Point], Trial]
) -> list[Trial]:
    """`trials` trials, each asked of a TPE sampler seeded by `seed`, played by `trial` and told to
    the sampler as its report rounds it (a resumed tune tells the same figures again)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)  # multivariate, before 5.0
        sampler = optuna.samplers.TPESampler(seed=seed % 2**32, multivariate=True)
        study = optuna.create_study(direction="minimize" if goal == "mean-score" else "maximize", sampler=sampler)
        distributions = {one.name: _distribution(one) for one in parameters}
        found = []
        for _ in range(trials):
            asked = study.ask(distributions)
            done = trial(tuple(_value(one, asked.params[one.name]) for one in parameters))
            study.tell(asked, rounded(done.objective))
            found.append(done)
    return found


def _distribution(parameter: Parameter) -> BaseDistribution:
    from optuna.distributions import FloatDistribution, IntDistribution

    if parameter.whole:  # the range's last value as its top: Optuna would warn of a step that does not land on it
        return IntDistribution(int(parameter.low), int(parameter.values()[-1]), step=int(parameter.grid_step))
    if parameter.step is None:
        return FloatDistribution(float(parameter.low), float(parameter.high))
    return FloatDistribution(float(parameter.low), float(parameter.values()[-1]), step=float(parameter.step))


def _value(parameter: Parameter, asked: Any) -> Value:
    """The value asked for, a continuous one in `SIGNIFICANT` digits and within its range."""
    if parameter.whole:
        return int(asked)
    if parameter.step is not None:
        return round(float(asked), 12)
    return min(max(float(f"{asked:.{SIGNIFICANT}g}"), parameter.low), parameter.high)
