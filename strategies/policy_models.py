"""The models a trained policy is read from (`policy.py`), each answering `act(observation, mask)`
with an action of `strategies.encoding`: an ONNX file (onnxruntime), a Stable-Baselines3 or
sb3-contrib saved model `.zip` (torch), or a Python callable. onnxruntime, torch and the RL
libraries are imported here only, when a model of theirs is loaded; every failure to load is a
`StrategyLoadError` of one sentence.

A model that gives a score for every action (an ONNX model's logits, a masked agent) plays the
highest-scoring legal one: it is masked, as sb3-contrib's MaskablePPO acts, since its scores for
illegal actions mean nothing. One that gives an action (an ONNX model whose output is an index, a
callable, an unmasked SB3 agent) plays that action, and an illegal one is its error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .encoding import ActionMask, Observation
from .errors import StrategyLoadError
from .shown import cause

ONNX = ".onnx"
ONNX_INSTALL = "pip install onnxruntime (or shutbox's rl extra)"
SB3_INSTALL = "pip install sb3-contrib (or shutbox's rl-train extra)"
SB3_CLASSES = (("sb3_contrib", "MaskablePPO"), ("stable_baselines3", "PPO"), ("stable_baselines3", "A2C"))
"""The agents a saved `.zip` is tried as, in turn: the masked one the guide trains first."""
Act = Callable[[Observation, ActionMask], object]


@dataclasses.dataclass(frozen=True)
class Model:
    """A policy's model: `act(observation, mask)` answers an action (an int, or anything `int()`
    reads); `shape` is (observation size, actions) where the model fixes them (None: any), which
    fixes the box it was trained for."""

    act: Act
    shape: tuple[int, int] | None = None


def load_model(target: str, spec: str) -> Model:
    """The model in the file `target` names (a `.onnx` or `.zip`); StrategyLoadError if there is no
    such file, its library is not installed, or it is not a model."""
    path = Path(target).expanduser()
    if not path.is_file():
        raise StrategyLoadError(f"no model file {target!r} for strategy {spec!r}.")
    try:
        with path.open("rb") as model:
            model.read(1)
    except OSError as error:  # its host may not read it, say: not a model's fault
        raise StrategyLoadError(f"model file {target!r} of strategy {spec!r} cannot be read: {cause(error)}") from None
    if target.lower().endswith(ONNX):
        return _onnx(path, spec)
    return _sb3(path, spec)


def _onnx(path: Path, spec: str) -> Model:
    try:
        with _stderr_quiet():  # its logger's warnings at start (no GPU, telemetry), before it can be told
            import onnxruntime
    except ImportError:
        raise StrategyLoadError(
            f"strategy {spec!r} is an ONNX model, which needs onnxruntime: {ONNX_INSTALL}."
        ) from None
    onnxruntime.set_default_logger_severity(3)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1  # one decision at a time: no pool
    options.log_severity_level = 3
    try:
        with _stderr_quiet():
            session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's own errors (InvalidProtobuf, Fail, ...) have no common base
        raise StrategyLoadError(
            f"file {str(path)!r} of strategy {spec!r} is not an ONNX model onnxruntime reads ({type(error).__name__})."
        ) from None
    inputs, output = session.get_inputs(), session.get_outputs()[0]
    if not 1 <= len(inputs) <= 2:
        raise StrategyLoadError(
            f"ONNX model {str(path)!r} of strategy {spec!r} takes {len(inputs)} inputs; "
            "a policy takes the observation, and maybe the mask of legal actions."
        )
    observed = inputs[0]
    floats = "float" in observed.type
    scores = "float" in output.type
    size, actions = _last(observed.shape), _last(output.shape)

    def act(observation: Observation, mask: ActionMask) -> object:
        fed = {observed.name: observation.astype(np.float32 if floats else np.int64)[None, :]}
        if len(inputs) == 2:
            fed[inputs[1].name] = mask.astype(np.float32 if "float" in inputs[1].type else np.bool_)[None, :]
        answer = np.asarray(session.run([output.name], fed)[0]).reshape(-1)
        return masked_best(answer, mask) if scores else answer[0]

    return Model(act, (size, actions) if size and actions and scores else None)


@contextlib.contextmanager
def _stderr_quiet() -> Iterator[None]:
    """Standard error's file descriptor pointed at /dev/null for a while: what a library's native code
    writes there (onnxruntime's warnings about a confined host's hidden devices) is not shown."""
    sys.stderr.flush()
    kept = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(kept, 2)
        os.close(kept)


def _last(shape: object) -> int | None:
    """The last dimension of an ONNX shape where it is a fixed number (a named one is not)."""
    return shape[-1] if isinstance(shape, list) and shape and isinstance(shape[-1], int) else None


def masked_best(scores: Any, mask: ActionMask) -> int:
    """The legal action with the highest score (the lowest index among equals)."""
    values = np.asarray(scores, dtype=np.float64).reshape(-1)
    if values.shape != mask.shape:
        raise ValueError(f"the model gave {values.size} scores for {mask.size} actions")
    return int(np.argmax(np.where(mask, values, -np.inf)))


def _sb3(path: Path, spec: str) -> Model:
    if not zipfile.is_zipfile(path):
        raise StrategyLoadError(f"file {str(path)!r} of strategy {spec!r} is not a saved Stable-Baselines3 model.")
    agent, masked = _sb3_agent(path, spec)
    size = int(np.prod(agent.observation_space.shape))
    actions = int(agent.action_space.n)

    def act(observation: Observation, mask: ActionMask) -> object:
        if masked:
            action, _ = agent.predict(observation, action_masks=mask, deterministic=True)
        else:
            action, _ = agent.predict(observation, deterministic=True)
        return np.asarray(action).reshape(-1)[0]

    return Model(act, (size, actions))


def _sb3_agent(path: Path, spec: str) -> tuple[Any, bool]:
    """The agent saved at `path`, read as each of SB3_CLASSES in turn, and whether it is masked."""
    import importlib

    failures = []
    for module_name, class_name in SB3_CLASSES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        try:
            import torch

            torch.set_num_threads(1)
            return getattr(module, class_name).load(str(path), device="cpu"), class_name == "MaskablePPO"
        except Exception as error:  # SB3 raises what its parts raise: KeyError, ValueError, pickling errors
            failures.append(f"{class_name}: {cause(error)}")
    if not failures:
        raise StrategyLoadError(f"strategy {spec!r} is a saved Stable-Baselines3 model, which needs {SB3_INSTALL}.")
    raise StrategyLoadError(
        f"file {str(path)!r} of strategy {spec!r} is not a saved MaskablePPO, PPO or A2C model ({failures[0]})."
    )


def asked(model: Model, observation: Observation, mask: ActionMask) -> int:
    """The model's action, as a plain int; ValueError if it answers something that is not one."""
    answer = model.act(observation, mask)
    values = np.asarray(answer).reshape(-1)
    if values.size != 1 or not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"the policy answered {answer!r}, which is not an action (a whole number)")
    return int(values[0])
