"""A tabulable strategy's table: its own answer for every box and throw, forced moves and dead
throws filled in, the same in every process whatever the global random generators held."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shutbox_cli.game import THROWS, Rules, dice_options, distribution, mask_of, move_table, tiles_of
from strategies import Move, Strategy, View
from strategies.builtin import GreedyHigh, RandomMove, Tips
from strategies.player import StrategyPlayer
from strategies.table import KEPT_TABLES, NOT_ROLLED, THROW_COUNT, PolicyTable, policy_table, tabulate

from helpers.paths import ROOT, TESTS
from helpers.strategy_helpers import move, policies


class SneakyRandom(Strategy):
    """Picks with the module-level `random` without declaring stochastic = True."""

    def choose_move(self, view: View) -> Move:
        return random.choice(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return random.choice(view.dice_options)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(tiles=5, shut_rule="one-tile", first_roll="2-to-go"),
        pytest.param(Rules(tiles=10, one_die="low-sum"), marks=pytest.mark.slow),
    ],
)
def test_the_table_holds_the_strategys_own_answer_for_every_box_and_throw(rules: Rules) -> None:
    table = tabulate(Tips(), rules, "tips")
    moves = move_table(rules)
    for mask in range(1, rules.full_box + 1):
        options = dice_options(rules, mask)
        if len(options) > 1:
            assert table.dice_count(mask) == policies(Tips(), rules)[1](mask)
        else:
            assert table.dice_count(mask) == options[0]
        for index, throw in enumerate(THROWS):
            after = table.next_mask[mask * THROW_COUNT + index]
            legal = moves.moves(mask, throw)
            if len(throw) not in options:
                assert after == NOT_ROLLED
            elif not legal:
                assert after == mask  # the throw ends the turn
            elif len(legal) == 1:
                assert after == mask & ~legal[0]
            else:
                assert mask & ~after == mask_of(move(Tips(), rules, tiles_of(mask), throw))
    assert list(table.next_mask[:THROW_COUNT]) == [0] * THROW_COUNT  # a shut box stays shut


def test_moves_are_looked_up_by_throw_in_either_order() -> None:
    table = tabulate(GreedyHigh(), Rules(), "greedy-high")
    assert table.move(0b111111111, (6, 3)) == table.move(0b111111111, (3, 6)) == 0b100000000
    assert table.move(0b000000110, (6, 6)) == 0  # 12 matches nothing on 2 and 3


def test_exact_analysis_reads_the_same_table() -> None:
    rules = Rules(tiles=8)
    player = StrategyPlayer(GreedyHigh(), rules)
    assert distribution(rules, player.move_policy, player.dice_policy) == distribution(
        rules, *policies(GreedyHigh(), rules)
    )


def test_a_strategy_that_is_stochastic_or_reads_the_game_is_not_tabulated() -> None:
    with pytest.raises(ValueError, match="'random' is stochastic or reads the game context: it cannot be tabulated"):
        tabulate(RandomMove(), Rules(), "random")


def _table_bytes(table: PolicyTable) -> bytes:
    return table.next_mask.tobytes() + table.dice


def test_a_strategy_secretly_using_the_global_random_gets_one_table_whatever_its_state() -> None:
    rules = Rules(tiles=7)
    random.seed(1)
    first = _table_bytes(tabulate(SneakyRandom(), rules, "sneaky"))
    random.seed(2)
    before = random.getstate()
    second = _table_bytes(tabulate(SneakyRandom(), rules, "sneaky"))
    assert first == second
    assert random.getstate() == before  # tabulating leaves the global generator as it found it


@pytest.mark.slow
def test_the_table_is_the_same_in_another_process(tmp_path: Path) -> None:
    code = textwrap.dedent(
        f"""
        import random, sys
        sys.path[:0] = [{str(Path(__file__).parent)!r}, {str(TESTS)!r}]
        random.seed()
        from test_strategies_table import SneakyRandom
        from shutbox_cli.game import Rules
        from strategies.table import tabulate
        table = tabulate(SneakyRandom(), Rules(tiles=7), "sneaky")
        sys.stdout.write((table.next_mask.tobytes() + table.dice).hex())
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert bytes.fromhex(done.stdout) == _table_bytes(tabulate(SneakyRandom(), Rules(tiles=7), "sneaky"))


def test_numpys_global_generator_is_seeded_too_when_numpy_is_loaded() -> None:
    numpy = pytest.importorskip("numpy")

    class NumpySneak(Strategy):
        def choose_move(self, view: View) -> Move:
            return view.legal_moves[numpy.random.randint(len(view.legal_moves))]

    numpy.random.seed(5)
    first = _table_bytes(tabulate(NumpySneak(), Rules(tiles=7), "numpy"))
    before = numpy.random.get_state()[1].copy()
    second = _table_bytes(tabulate(NumpySneak(), Rules(tiles=7), "numpy"))
    assert first == second
    assert (numpy.random.get_state()[1] == before).all()


class Offset(Strategy):
    """Takes the legal move `k` places along (a parameter changes its table)."""

    def __init__(self, k: int = 0) -> None:
        self.k = k

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[self.k % len(view.legal_moves)]


def test_tables_are_kept_per_class_parameters_and_rules_within_bounds() -> None:
    rules = Rules(tiles=4)
    one = policy_table(Offset(k=1), rules, "offset", {"k": 1})
    assert policy_table(Offset(k=1), rules, "offset", {"k": 1}) is one
    assert policy_table(Offset(k=2), rules, "offset", {"k": 2}) is not one
    assert policy_table(Offset(k=1), Rules(tiles=5), "offset", {"k": 1}) is not one
    assert policy_table(Offset(k=1), rules, "offset") is not one  # no parameters given: its own table
    for k in range(3, 3 + KEPT_TABLES):
        policy_table(Offset(k=k), rules, "offset", {"k": k})
    assert policy_table(Offset(k=1), rules, "offset", {"k": 1}) is not one  # the oldest went first


def test_players_given_the_parameters_share_one_table() -> None:
    rules = Rules(tiles=6)
    first, second = (StrategyPlayer(Offset(k=1), rules, params={"k": 1}) for _ in range(2))
    assert first.policy is second.policy


@pytest.mark.parametrize(
    "rules", [Rules(tiles=8), Rules(tiles=6, shut_rule="dice-or-total", one_die="high-tiles", scoring="count")]
)
def test_a_builtin_strategys_table_is_the_one_its_answers_checked_would_make(rules: Rules) -> None:
    """A built-in strategy is tabulated without the checks (and the global generators' seeding) a
    user's strategy gets: a user's class of the same code gets the same table, every answer checked."""
    from strategies.loading import load_strategy, tabulable
    from strategies.names import BUILTINS

    for name in BUILTINS:
        builtin = load_strategy(name).cls
        if not tabulable(builtin, name):
            continue
        users = type("Users", (builtin,), {})
        made, checked = tabulate(builtin(), rules, name), tabulate(users(), rules, name)
        assert (made.next_mask, made.dice) == (checked.next_mask, checked.dice), name
