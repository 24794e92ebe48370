"""Shared test setup: a hypothesis profile for a busy machine, and `st.from_type(Rules)`
drawing any valid rule set, so property tests range over every rule variant."""

from __future__ import annotations

import signal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from shutbox_cli.game import FirstRoll, OneDie, OneDieMode, Rules, Scoring, ShutRule, Ties

# No per-example deadline: the machine is shared, and tests assert behaviour, never timing.
settings.register_profile("shutbox", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shutbox")

# A shell starts a background job with Ctrl-C ignored, and a program started from an ignoring
# process inherits that: the tests that send Ctrl-C to a real shutbox would see nothing happen.
# Handling it here (as an interactive pytest would) lets every child start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A valid rule set: any box size, shut rule, dice rule, scoring and game format."""
    tiles = draw(st.integers(2, 12))
    first_rolls = list(FirstRoll) if tiles >= 3 else [FirstRoll.NONE, FirstRoll.TWO_TO_GO]
    game_format = draw(st.sampled_from(["one turn", "rounds", "drop-out"]))
    return Rules(
        tiles=tiles,
        shut_rule=draw(st.sampled_from(list(ShutRule))),
        one_die=draw(st.none() | st.sampled_from(list(OneDie))),
        one_die_mode=draw(st.sampled_from(list(OneDieMode))),
        scoring=draw(st.sampled_from(list(Scoring))),
        first_roll=draw(st.sampled_from(first_rolls)),
        instant_win=draw(st.none() | st.booleans()),
        ties=draw(st.sampled_from(list(Ties))),
        rounds=draw(st.integers(2, 4)) if game_format == "rounds" else 1,
        drop_out=draw(st.integers(1, 120)) if game_format == "drop-out" else None,
    )


st.register_type_strategy(Rules, any_rules())
