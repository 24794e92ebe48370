"""The referee's side of a host through the library: a host process loads a strategy and
answers for it as this process would (one drawing from the global generator in some turns only
too), a strategy that cannot load is one sentence, and the memory a host may use follows the
run's limit; the dice a host is dealt are the streams' own."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, TurnContext, turn_rolls
from shutbox_cli.game.dice import PAIRS
from strategies.loading import StrategyLoadError, load_strategy
from strategies.player import StrategyPlayer
from strategies.table import tabulate
from tournaments.referee.confine import host_memory_limit
from tournaments.referee.isolation import Host
from tournaments.referee.remote import dealt_outcomes

from helpers.paths import ROOT, SNEAKY

RULES = Rules(tiles=5)


@pytest.mark.slow
def test_a_host_answers_for_its_strategy_as_this_process_does() -> None:
    host = Host.launch("greedy-high", {}, None, RULES, timeout=60, memory_limit_mib=0).ready()
    try:
        assert (host.name, host.exact, host.context_free) == ("greedy-high", True, True)
        remote = host.player().policy
    finally:
        host.stop()
    local = tabulate(load_strategy("greedy-high").make(), RULES, "greedy-high")
    assert remote.next_mask.tobytes() == local.next_mask.tobytes()
    assert remote.dice == local.dice


@pytest.mark.slow
def test_a_host_answers_as_this_process_for_a_strategy_drawing_from_the_global_random_now_and_then() -> None:
    """ContextRandom draws from the module-level generator once a score is posted: in its host,
    which seeds that generator only where it is drawn from, each turn meets the numbers it meets
    here, where the generator is seeded at every turn."""
    spec, rules = f"{ROOT / SNEAKY}:ContextRandom", Rules()
    starts = [
        (TurnContext(0, 1, 0, False, (None, posted), (0, 0), (True, True)), 5, game)
        for game, posted in enumerate([None, 9, None, None, 12, 3] * 10)
    ]
    host = Host.launch(spec, {}, None, rules, timeout=60, memory_limit_mib=0).ready()
    try:
        batch = host.player().play(5, [dataclasses.astuple(context) for context, _, _ in starts], list(range(60)))
    finally:
        host.stop()
    offsets = [0, *itertools.accumulate(batch.counts.tolist())]
    given = batch.given.tolist()
    remote = [given[start:end] for start, end in itertools.pairwise(offsets)]
    here = StrategyPlayer(load_strategy(spec).make(), rules)
    local: list[list[int]] = []
    for context, seed, game in starts:
        local.append([])
        dealt = dealt_outcomes([(seed, game, 0, 1)], rules.tiles + 1)[0].tobytes()
        here.answer_turns([(dataclasses.astuple(context), seed, game, dealt)], local[-1], [])
    assert remote == local
    assert len({tuple(answers) for answers in local}) > 10


@pytest.mark.slow
def test_a_strategy_that_cannot_load_in_its_host_is_one_sentence() -> None:
    host = Host.launch("no-such-strategy", {}, None, RULES, timeout=60, memory_limit_mib=0)
    with pytest.raises(StrategyLoadError) as raised:
        host.ready()
    assert "\n" not in str(raised.value)
    assert "no-such-strategy" in str(raised.value)


def test_a_host_may_use_the_runs_memory_limit_else_a_share_of_the_machines() -> None:
    assert host_memory_limit(300, 4) == 300
    assert 0 < host_memory_limit(None, 8) <= host_memory_limit(None, 1)


@settings(max_examples=100, deadline=None)
@given(
    keys=st.lists(
        st.tuples(st.integers(-(2**64), 2**64), st.integers(0, 2**40), st.integers(0, 50), st.integers(0, 5)),
        max_size=20,
    ),
    count=st.integers(1, 13),
)
def test_the_dice_a_host_is_dealt_are_the_streams_own(keys: list[tuple[int, int, int, int]], count: int) -> None:
    """A batch's dice, worked out together with numpy, are the rolls `turn_rolls` gives each turn."""
    dealt = [[PAIRS[outcome] for outcome in turn] for turn in dealt_outcomes(keys, count).tolist()]
    assert dealt == [list(itertools.islice(turn_rolls(*key), count)) for key in keys]


def test_a_host_loads_no_package_metadata_before_it_is_asked_for_an_installed_name() -> None:
    """Reading every installed package's metadata takes tens of milliseconds of each host's start;
    a host seating a file or a module never needs it."""
    probe = "import sys, tournaments.referee.host; print('importlib.metadata' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
