"""Find the parameter values that serve a strategy best against a field (`shutbox tune`).

Each candidate (a point of the grid of `space`) is one tournament: the candidate against the field,
or alone. Where every strategy can be computed exactly (`tournaments.exact`), every point of the grid
is computed, no noise at all, and the best of them is the true optimum over the grid; against a
field, only the candidate's own games are computed (the field's games among themselves would be the
same for every candidate), and the field's turns are made once for the whole tune (`KeptTurns`), only
each candidate's own for it. Otherwise the candidates are played on common random numbers: every
candidate of a round plays the same seed, so the same deals, and their differences are the
strategies', not the dice's. The search (`--method`, else chosen by the ranges): a small grid is
played whole; a larger one by successive halving (each round plays the better half of the last
round's candidates on twice the games, the first games the same dice again); a float range without
a step, or three parameters or more, by Optuna's TPE sampler (`sampler`). Successive halving rather
than SPSA: the ranges are discrete, it has no gains to set, and it ranks on paired results. The best
candidate then plays a confirmation run against the starting values on a fresh seed: both against
the field on the same deals, the paired difference with its 95% interval (`statistics.pairs`).

Every trial is kept (`Trial`); a tune given its trials so far (`done`) plays only the others, and
comes to the same answer as an uninterrupted one.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from shutbox_cli.game import Rules, draw_seed
from shutbox_cli.game.terms import Seed
from strategies.loading import (
    StrategyLoadError,
    builtin_spec,
    load_strategy,
    parameter_names,
    resolve,
    split_spec,
    takes_any,
)

from ..errors import ConfigError, Interrupted, Setting, TournamentFailure, setting, spelled
from ..exact.tournament import ExactSummary, run_exact
from ..exact.turns import KeptTurns, entry_key, refuse_inexact
from ..field.config import Options, load_config
from ..records.schema import Method
from ..referee import idle
from ..results.aggregate import Summary
from ..running.runner import run
from ..statistics.pairs import Pentanomial, field_difference
from ..statistics.standings import Standing
from ..statistics.stats import Z95
from .edges import Refuses, edge_notes
from .kept import TuneKeeper
from .records import DEFAULT_TRIALS, SEARCHES, Confirmation, Objective, Search, Trial, TuneSettings, Tuning
from .sampler import check_optuna, optuna_search
from .space import Point, Value, corners, grid, grid_size, spec_with, values_of

GRID_MOST = 8
"""A simulated grid of at most this many candidates is played whole; a larger one by halving."""
SAMPLED_PARAMETERS = 3
"""A simulated search of this many parameters or more is Optuna's, unless another is asked for."""


class TuneStopped(Exception):
    """A tune stopped before its end (Ctrl-C): `tuning` holds its trials so far."""

    def __init__(self, tuning: Tuning) -> None:
        super().__init__("the tune was interrupted")
        self.tuning = tuning


Told = Callable[[Trial, int, int], None]
"""Told each trial as it is found, with the trials found so far and how many the search plans at most."""


def tune(
    settings: TuneSettings,
    *,
    done: Sequence[Trial] = (),
    told: Told | None = None,
    keeper: TuneKeeper | None = None,
) -> Tuning:
    """Search the grid of `settings` for the best values (see the module's docstring). Trials in
    `done` (from an interrupted tune of the same settings) are taken, not played again. Raises
    ConfigError (one sentence) for a bad setting, a parameter the strategy does not take or a value
    its constructor refuses, TournamentFailure for a strategy that fails; on Ctrl-C, `TuneStopped` with
    the trials so far. A `keeper` keeps them in a checkpoint as they come (`kept`)."""
    settings.check()
    target, start = _split(settings.spec)
    _check_start(settings)
    _check_names(settings, target)
    lowest, highest = corners(settings.parameters)
    _check_candidates(settings, target, start, [lowest])
    if settings.solo and settings.goal == "win-rate":
        raise ConfigError(
            f"alone there is no win rate to tune: give a field ({setting('field')}) or "
            f"{setting('objective', 'mean-score')} or shut-rate."
        )
    method = _method(settings, spec_with(target, start, values_of(settings.parameters, lowest)))
    seed = None if method == "exact" else (settings.seed if settings.seed is not None else draw_seed())
    search = _search(settings, method, grid_size(settings.parameters))
    if search == "optuna":
        check_optuna()
    elif settings.trials is not None:
        raise ConfigError(
            f"{setting('trials')} sets how many candidates an Optuna search tries, and this tune's search is "
            f"{search} ({'every candidate computed' if search == 'exhaustive' else 'every candidate played'}): "
            f"leave {setting('trials')} out, or give {setting('method', 'optuna')}."
        )
    points = [lowest, highest] if search == "optuna" else grid(settings.parameters)  # a sampler's: its ends
    if builtin_spec(settings.spec):  # a user's other candidates are built in its host
        _check_candidates(settings, target, start, points[1:])
    planned = (settings.trials or DEFAULT_TRIALS) if search == "optuna" else _planned(len(points), search)
    known = {trial.key(): trial for trial in done}
    trials: list[Trial] = []
    base = Tuning(settings, _rules(settings), method, search, seed, (), None, None, start)
    kept = KeptTurns()  # the field's exact turns, made for the first candidate and kept for the others

    def trial(point: Point, games: int | None, at: Seed | None, round_: int) -> Trial:
        values = values_of(settings.parameters, point)
        found = known.get((tuple(values.items()), games, at))
        if found is None:
            spec = spec_with(target, start, values)
            figure, bounds = _figure(settings, spec, method, games, at, kept)
            found = Trial(values, figure, bounds, games, at, round_)
            known[found.key()] = found  # a sampler may ask for it again: the same dice, the same figure
        trials.append(found)
        if keeper is not None:
            keeper.tick(dataclasses.replace(base, trials=tuple(trials), done=False))
        if told is not None:
            told(found, len(trials), planned)
        return found

    try:
        if method == "exact":
            ranked = [trial(point, None, None, 0) for point in points]
        elif search == "optuna":
            assert seed is not None
            ranked = optuna_search(
                settings.parameters, settings.goal, planned, seed, lambda point: trial(point, settings.games, seed, 0)
            )
        else:
            ranked = _halving(settings, points, seed, search, trial)
        best_trial = _best(settings.goal, ranked)
        tuning = dataclasses.replace(
            base,
            trials=tuple(trials),
            best=best_trial.values,
            best_objective=best_trial.objective,
            notes=edge_notes(
                settings.parameters, best_trial.values, target, _refuses(target, start, best_trial.values)
            ),
        )
        return _finished(tuning, target, start, seed, kept)
    except (KeyboardInterrupt, Interrupted):
        raise TuneStopped(dataclasses.replace(base, trials=tuple(trials), done=False)) from None
    except TournamentFailure as error:  # a strategy failed: the trials so far are kept, to resume once it is mended
        error.checkpoint = None if keeper is None else keeper.keep(dataclasses.replace(base, trials=tuple(trials)))
        raise
    finally:
        kept.close()


def _refuses(target: str, start: Mapping[str, Any], best: Mapping[str, Value]) -> Refuses:
    """Whether the strategy refuses a value of one of its parameters, the others the best: a
    built-in's is built here; a user's is not known (it is built in its host)."""

    def refuses(name: str, value: Value) -> bool | None:
        spec = spec_with(target, start, {**best, name: value})
        if not builtin_spec(spec):
            return None
        try:
            load_strategy(spec)
        except StrategyLoadError:
            return True
        return False

    return refuses


def _rules(settings: TuneSettings) -> Rules:
    return load_config(None, Options(strategies=[settings.spec], table=1, rules=settings.rules)).rules


def _search(settings: TuneSettings, method: Method, count: int) -> Search:
    """The search asked for, else the ranges': every candidate when exact; Optuna for a continuous
    range or `SAMPLED_PARAMETERS` or more; else a small grid whole and a larger one halved."""
    if method == "exact":
        return "exhaustive"
    if settings.method in SEARCHES:
        return SEARCHES[settings.method]
    if len(settings.parameters) >= SAMPLED_PARAMETERS or any(one.continuous for one in settings.parameters):
        return "optuna"
    return "grid" if count <= GRID_MOST else "successive-halving"


def _planned(count: int, search: str) -> int:
    """The most trials a search of `count` candidates plays."""
    if search != "successive-halving":
        return count
    total, left = count, count
    while left > 2:
        left = (left + 1) // 2
        total += left
    return total


def _halving(
    settings: TuneSettings, points: list[Point], seed: Seed | None, search: Search, trial: Callable[..., Trial]
) -> list[Trial]:
    """Play the candidates, the better half each round on twice the games, until two are left (a
    grid: one round). Returns the last round's trials."""
    games, round_, left = settings.games, 0, points
    while True:
        found = [trial(point, games, seed, round_) for point in left]
        if search == "grid" or len(left) <= 2:
            return found
        ranked = sorted(range(len(found)), key=lambda index: _rank(settings.goal, found[index]))
        keep = sorted(ranked[: (len(left) + 1) // 2])
        left = [left[index] for index in keep]
        games, round_ = games * 2, round_ + 1


def _rank(goal: Objective, trial: Trial) -> float:
    return trial.objective if goal == "mean-score" else -trial.objective


def _best(goal: Objective, trials: Sequence[Trial]) -> Trial:
    """The best trial, the first of equals (the grid's order)."""
    return min(trials, key=lambda trial: _rank(goal, trial))


def _split(spec: str) -> tuple[str, dict[str, Any]]:
    """The strategy to tune and its starting values, or a ConfigError of one sentence naming the spec
    as it was given (its candidates add their values in parentheses of their own)."""
    try:
        target, start = split_spec(spec)
    except StrategyLoadError as error:
        raise ConfigError(f"the strategy to tune: {error}") from None
    if "(" in target or ")" in target or (spec.strip().endswith(")") and "(" not in spec):
        raise ConfigError(
            f"the strategy to tune {spec!r} is not NAME or NAME(name=value, ...): its parentheses do not close."
        )
    return target, start


def _check_start(settings: TuneSettings) -> None:
    """Refuse, in one sentence naming the spec as given, a strategy that cannot be loaded with its
    starting values (the confirmation plays them)."""
    try:
        _load(settings, settings.spec)
    except ConfigError as error:
        raise ConfigError(spelled(error.marked, _tuned)) from None


def _tuned(named: Setting) -> str:
    """The strategy a tune's message names, as the strategy to tune; every other setting left to spell."""
    if named.name != "strategies":
        return setting(named.name, named.value)
    return "the strategy to tune" + ("" if named.value is None else f" {named.value!r}")


def _check_names(settings: TuneSettings, target: str) -> None:
    """Refuse, in one sentence naming the strategy and the range as given, a parameter a built-in
    strategy does not take (a user's is built in its host, which says so)."""
    if not builtin_spec(target):
        return
    cls, _ = resolve(target)
    takes = parameter_names(cls)
    for one in settings.parameters:
        if one.name not in takes and not takes_any(cls):
            have = f"its parameters are {', '.join(takes)}" if takes else "it takes none"
            raise ConfigError(
                f"{target} with {setting('parameters')} {one.text()}: {target} has no parameter {one.name!r}; {have}."
            )


def _check_candidates(settings: TuneSettings, target: str, start: Mapping[str, Any], points: list[Point]) -> None:
    """Refuse, in one sentence, a parameter the strategy does not take or a value it refuses, naming
    the ranges given: each candidate of a built-in is built here, a user's in its host."""
    ranges = " ".join(f"{setting('parameters')} {one.text()}" for one in settings.parameters)
    for point in points:
        spec = spec_with(target, start, values_of(settings.parameters, point))
        try:
            _load(settings, spec)
        except ConfigError as error:
            raise ConfigError(f"{ranges}: {error.marked}") from None


def _load(settings: TuneSettings, spec: str) -> None:
    """Build a built-in's strategy here, or load a user's in its host: a ConfigError if it fails."""
    try:
        if builtin_spec(spec):
            load_strategy(spec)
        else:
            load_config(None, Options(strategies=[spec], table=1, rules=settings.rules))
    except StrategyLoadError as error:
        raise ConfigError(str(error)) from None


def _method(settings: TuneSettings, spec: str) -> Method:
    """Exact or simulated as asked (a search named is simulated), else exact when every strategy
    can be computed exactly under the rules."""
    if settings.method == "exact":
        return "exact"
    if settings.method is not None:
        return "simulate"
    config = load_config(None, _options(settings, spec, "simulate", None, None))
    try:
        for entry in config.strategies:
            refuse_inexact(
                entry.name,
                entry.exact,
                entry.context_free,
                entry_key(entry, config.rules, config.table),
                config.rules,
                config.table,
            )
    except ConfigError:
        return "simulate"
    return "exact"


def _options(settings: TuneSettings, spec: str, method: Method, games: int | None, seed: Seed | None) -> Options:
    """One candidate's tournament: alone, or as the first of a gauntlet against the field (a round
    robin when exact, of which `_figure` computes only the candidate's games)."""
    gauntlet = 0 if settings.solo or method == "exact" else 1
    return Options(
        strategies=[spec, *settings.field],
        games=games,
        seed=seed,
        table=1 if settings.solo else None,
        method=method,
        gauntlet=gauntlet,
        workers=settings.workers,
        scheduler=settings.scheduler,
        rules=settings.rules,
    )


def _figure(
    settings: TuneSettings,
    spec: str,
    method: Method,
    games: int | None,
    seed: Seed | None,
    kept: KeptTurns | None = None,
) -> tuple[float, tuple[float, float] | None]:
    """One candidate's objective (and its 95% interval when simulated); exact, the field's turns
    are taken from `kept`, or made and kept there for the next candidate."""
    options = _options(settings, spec, method, games, seed)
    summary: Summary | ExactSummary
    if method == "exact":
        config = load_config(None, options)
        idle.stop_all()  # the field's probes, as a run stops them: an exact tournament asks no host
        summary = run_exact(config, gauntlet=1, kept=kept)
    else:
        summary = run(None, options)
    name = summary.config.strategies[0].name
    standing = next(one for one in summary.ranking if one.name == name)
    return _of(settings.goal, standing, method == "exact")


def _of(goal: Objective, standing: Standing, exact: bool) -> tuple[float, tuple[float, float] | None]:
    figure: float | None
    bounds: tuple[float, float] | None
    if goal == "win-rate":
        figure, bounds = standing.win_rate, standing.win_interval
    elif goal == "mean-score":
        figure, bounds = standing.mean_score, standing.score_interval
    else:
        figure, bounds = standing.shut_rate, standing.shut_interval
    if figure is None:
        raise ConfigError(f"these rules give no {goal.replace('-', ' ')} to tune.")
    return figure, None if exact else bounds


def _finished(tuning: Tuning, target: str, start: dict[str, Any], seed: Seed | None, kept: KeptTurns) -> Tuning:
    """The exact tune with the starting values' figure; the simulated one with its confirmation."""
    settings = tuning.settings
    assert tuning.best is not None
    start_spec = spec_with(target, start, {})
    best_spec = spec_with(target, start, tuning.best)
    if tuning.exact:
        figure, _ = _figure(settings, start_spec, "exact", None, None, kept)
        return dataclasses.replace(tuning, start_objective=figure)
    assert seed is not None
    fresh = seed + 1
    if best_spec == start_spec or _same(best_spec, start_spec):
        figure, bounds = _figure(settings, start_spec, "simulate", settings.confirm_games, fresh)
        paired = not settings.solo and settings.goal == "win-rate"  # the difference is nothing, surely
        confirmation = Confirmation(
            fresh,
            settings.confirm_games,
            figure,
            figure,
            0.0 if paired else None,
            (0.0, 0.0) if paired else None,
            bounds,
            bounds,
        )
        return dataclasses.replace(tuning, confirmation=confirmation, start_objective=figure)
    confirmation = _confirm(settings, best_spec, start_spec, fresh)
    return dataclasses.replace(tuning, confirmation=confirmation, start_objective=confirmation.start)


def _same(first: str, second: str) -> bool:
    """Whether two specs of a built-in build the same strategy (the starting values may be the
    defaults unsaid); a user's strategy is not built in this process, and its specs must match."""
    if not builtin_spec(first):
        return False
    try:
        return load_strategy(first).make().__dict__ == load_strategy(second).make().__dict__
    except StrategyLoadError:
        return False


def _confirm(settings: TuneSettings, best: str, start: str, seed: Seed) -> Confirmation:
    """Best and start on a fresh seed: against the field, a gauntlet of the two on the same deals
    (the win-rate difference paired over each opponent's deals); alone, each its own figure."""
    games = settings.confirm_games
    options = dataclasses.replace(
        _options(settings, best, "simulate", games, seed),
        strategies=[best, start, *settings.field],
        gauntlet=0 if settings.solo else 2,
    )
    summary = run(None, options)
    if settings.goal == "win-rate" and isinstance(summary, Summary) and summary.versus:
        versus = summary.versus
        (best_figure, best_bounds), (start_figure, start_bounds) = (
            _field_score([one.first for one in versus]),
            _field_score([one.second for one in versus]),
        )
        difference, bounds = field_difference(versus)
        return Confirmation(seed, games, best_figure, start_figure, difference, bounds, best_bounds, start_bounds)
    names = [entry.name for entry in summary.config.strategies[:2]]
    standings = {one.name: one for one in summary.ranking}
    (best_figure, best_interval), (start_figure, start_interval) = (
        _of(settings.goal, standings[name], False) for name in names
    )
    return Confirmation(seed, games, best_figure, start_figure, None, None, best_interval, start_interval)


def _field_score(pairs: Sequence[Pentanomial]) -> tuple[float, tuple[float, float]]:
    """A player's score against the field (the rivals alike), from its game pairs against each
    (the games it played the other player are left out), with its 95% interval."""
    count = len(pairs)
    score = sum(one.score for one in pairs) / count
    half = Z95 * math.sqrt(sum(one.variance / one.pairs for one in pairs if one.pairs)) / count
    return score, (score - half, score + half)
