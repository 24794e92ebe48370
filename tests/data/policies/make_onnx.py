"""Make `highest_move.onnx`, the tiny trained-policy stand-in the tests load (a constructed model,
no training, no torch): `python tests/data/policies/make_onnx.py` (needs the `onnx` package).

Its logits are `observation @ W + b` over the default rules' 9 tiles: every move's bias is its
mask (tile k is bit k-1), so of the legal moves it shuts the highest mask; rolling one die scores
6.5 minus the box's score and two dice 0, so it rolls one die once the open tiles add up to 6 or
less. `highest_move.py:HighestMove` is the same table written as a plain strategy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from shutbox_cli.game import Rules
from strategies.encoding import encoding

HERE = Path(__file__).resolve().parent


def model() -> onnx.ModelProto:
    """The graph: logits = observation @ weights + bias."""
    coded = encoding(Rules())
    size, actions = len(coded.fields), coded.actions
    weights = np.zeros((size, actions), dtype=np.float32)
    weights[coded.fields.index("score"), coded.one_die] = -1.0
    bias = np.zeros(actions, dtype=np.float32)
    bias[: len(coded.moves)] = coded.moves
    bias[coded.one_die] = 6.5
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["observation", "weights"], ["scaled"]),
            helper.make_node("Add", ["scaled", "bias"], ["logits"]),
        ],
        "highest_move",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, [1, size])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, actions])],
        [numpy_helper.from_array(weights, "weights"), numpy_helper.from_array(bias, "bias")],
    )
    made = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="shutbox tests")
    made.ir_version = 8  # read by any onnxruntime of the last years
    onnx.checker.check_model(made)
    return made


if __name__ == "__main__":
    onnx.save(model(), HERE / "highest_move.onnx")
