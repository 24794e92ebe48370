"""Testing a strategy in your own test suite.

The contract in three lines: every check of `shutbox check` becomes a test of its own (pytest
collects a `Test...` class; the report is worked out once per class)::

    from strategies.testing import StrategyContract
    from my_strategy import Mine

    class TestMine(StrategyContract):
        strategy = Mine

Set `params = {"margin": 2}` to build it with parameters, `seed` or `samples` to ask other
questions. A failing test says what went wrong and which declaration to add.

One decision of your own, in a unit test::

    from strategies.testing import make_view

    def test_it_shuts_the_nine():
        view = make_view(open_tiles=(1, 2, 3, 9), dice=(4, 5), strategy=Mine)
        assert Mine().choose_move(view) == (9,)

`make_view` fills in the legal moves from the rules (the standard game unless you give others)
and, unless you give them, shows the first roll of a solo game's first turn; `strategy=Mine`
makes it the view Mine is shown in a game (a keyed strategy's features, as `view.context.to_beat`).

`check_strategy(Mine)` runs the checks and returns a `CheckReport`: `.ok`, `.failures` (each
with `.name` and `.detail`) and `str(report)` to read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from shutbox_cli.game import Roll, Rules, TurnContext, mask_of, move_table, tiles_of

from .base import CONTEXT_FREE_VIEW, KEYED_VIEW, SOLO_CONTEXT, Strategy, View, shown_view
from .check import CONTEXT, DEFAULT_SAMPLES, EXCEPTIONS, LEGAL, RANDOM, STATE, CheckReport, CheckResult, check_strategy
from .keys import declared_key, keyed_context

__all__ = ["CheckReport", "CheckResult", "StrategyContract", "check_strategy", "make_view"]


def make_view(
    rules: Rules | None = None,
    *,
    open_tiles: Iterable[int],
    dice: Iterable[int] | None = None,
    turn: Iterable[Roll] = (),
    context: TurnContext | None = None,
    strategy: type[Strategy] | Strategy | None = None,
) -> View:
    """The view of one decision: which move for `dice`, or how many dice when `dice` is None.

    `rules` default to the standard game; `context` to the first turn of a solo game. Given a
    `strategy` (its class or an instance), the view is the one the referee shows it: a keyed
    strategy's `context` holds its key's features alone, and what it does not declare raises;
    without one, the view shows everything.
    Raises ValueError for tiles not on the box or dice that are not one or two faces 1 to 6.
    """
    rules = Rules() if rules is None else rules
    tiles = tuple(sorted(open_tiles))
    if len(set(tiles)) != len(tiles) or not all(isinstance(tile, int) and 1 <= tile <= rules.tiles for tile in tiles):
        raise ValueError(f"open_tiles must be distinct tiles from 1 to {rules.tiles}, not {tiles!r}.")
    thrown = None if dice is None else tuple(sorted(dice))
    if thrown is not None and not (
        len(thrown) in (1, 2) and all(isinstance(face, int) and 1 <= face <= 6 for face in thrown)
    ):
        raise ValueError(f"dice must be one or two faces from 1 to 6, not {thrown!r}.")
    open_mask = mask_of(tiles)
    moves = () if thrown is None else move_table(rules).moves(open_mask, thrown)
    legal = tuple(tiles_of(move) for move in moves)
    shown = SOLO_CONTEXT if context is None else context
    cls = strategy if strategy is None or isinstance(strategy, type) else type(strategy)
    key = None if cls is None else declared_key(cls, rules, cls.name or cls.__name__)
    if key is not None:
        return shown_view(KEYED_VIEW, rules, tiles, thrown, legal, open_mask, context=keyed_context(shown, key))
    if cls is not None and not cls.reads_context:
        return shown_view(CONTEXT_FREE_VIEW, rules, tiles, thrown, legal, open_mask)
    return View(rules, tiles, thrown, legal, tuple(turn), shown, open_mask=open_mask)


_reports: dict[tuple[Any, ...], CheckReport] = {}


class StrategyContract:
    """Base class of a strategy's contract tests: subclass it as `Test...` and set `strategy`.

    Each test method is one check of `check_strategy` (the decision time is reported by
    `shutbox check`, not tested).
    """

    strategy: ClassVar[type[Strategy]]
    params: ClassVar[Mapping[str, Any]] = {}
    seed: ClassVar[int] = 0
    samples: ClassVar[int] = DEFAULT_SAMPLES

    def contract_report(self) -> CheckReport:
        """The checks of this class's strategy, worked out once for all its tests."""
        cls = type(self)
        strategy = getattr(cls, "strategy", None)
        if strategy is None:
            raise TypeError(f"{cls.__name__} must set `strategy = YourStrategy` (the class to test).")
        key = (strategy, repr(sorted(cls.params.items())), cls.seed, cls.samples)
        if key not in _reports:
            _reports[key] = check_strategy(strategy, cls.params, seed=cls.seed, samples=cls.samples)
        return _reports[key]

    def _holds(self, name: str) -> None:
        result = self.contract_report().result(name)
        if not result.ok:
            raise AssertionError(f"{result.name}: {result.detail}")

    def test_answers_are_legal(self) -> None:
        self._holds(LEGAL)

    def test_is_random_only_if_declared_stochastic(self) -> None:
        self._holds(RANDOM)

    def test_keeps_no_state_between_questions(self) -> None:
        self._holds(STATE)

    def test_reads_the_game_only_if_declared(self) -> None:
        self._holds(CONTEXT)

    def test_raises_nothing(self) -> None:
        self._holds(EXCEPTIONS)
