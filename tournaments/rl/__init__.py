"""The game for learning agents (the `rl` extra, docs/rl.md): a decision encoded as numbers
(`strategies.encoding`, numpy alone: a trained policy played as a strategy reads it too), a
Gymnasium environment of one player (`env`, registered here as `shutbox/ShutTheBox-v0` when
gymnasium is installed) and a PettingZoo AEC environment of a table (`multi`).
Without the extra, importing this package still works."""

from __future__ import annotations

import importlib.util

ENV_ID = "shutbox/ShutTheBox-v0"
"""The name `gymnasium.make` knows the one-player environment by."""

if importlib.util.find_spec("gymnasium") is not None:
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point="tournaments.rl.env:ShutTheBoxEnv")
