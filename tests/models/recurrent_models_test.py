# SPDX-License-Identifier: Apache-2.0
"""The recurrent models the tests build, int8 and float32: the SVDF keyword model
(python/opbridge_testing/svdf_keyword.py) and the LSTM sequence classifier (lstm_sequence.py).
opbridge's reference equals TFLite Micro bit for bit over consecutive invocations with the states
carried (then reset, then again), but for the float32 LSTM: TFLite Micro's float LSTM calls the
platform's expf and tanhf, the reference rounds exp and tanh once from float64, so that model is
compared within a relative 1e-5. The arena holds the activations' liveness bound plus the states and is
below TFLite Micro's. The emitted C equals the reference on every platform: the aot_models
svdf_keyword_* and lstm_sequence_*, whose golden programs run 12 invocations in a row, init the module
again and run them once more."""

import json
import pathlib

import numpy as np
import pytest
from opbridge import cli
from opbridge.analysis.tflm import tflm_arena
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.registry import default_registry_context
from opbridge_testing.lstm_sequence import windows
from opbridge_testing.svdf_keyword import frames
from tflite_micro.python.tflite_micro import runtime

MODELS = {
    name: pathlib.Path(f"tests/models/{name}.tflite").absolute()
    for name in ("svdf_keyword_int8", "svdf_keyword_float32", "lstm_sequence_int8", "lstm_sequence_float32")
}
# The stateful operators of each model family.
STATEFUL = {"svdf_keyword": ("SVDF", 3), "lstm_sequence": ("UNIDIRECTIONAL_SEQUENCE_LSTM", 1)}
# Relative tolerance against TFLite Micro (None: equal bits): see the module docstring.
FLOAT_RTOL = {"lstm_sequence_float32": 1e-5}
INVOCATIONS = 12
ARENA_BYTES = 256 * 1024


def model_input(tensor_quantization: object, frame: np.ndarray) -> np.ndarray:
    """A float feature frame as the model's input (quantized to int8 for the int8 model)."""
    if tensor_quantization is None:
        return frame
    scale, zero_point = tensor_quantization.scales[0], tensor_quantization.zero_points[0]  # type: ignore[attr-defined]
    return np.clip(np.round(frame / scale) + zero_point, -128, 127).astype(np.int8)


def same_values(ours: np.ndarray, theirs: np.ndarray, rtol: float | None) -> bool:
    theirs = np.ascontiguousarray(theirs, dtype=ours.dtype)
    if rtol is not None:
        return ours.shape == theirs.shape and bool(np.allclose(ours, theirs, rtol=rtol, atol=0))
    return ours.shape == theirs.shape and ours.tobytes() == theirs.tobytes()


def stream(kind: str, count: int) -> list[np.ndarray]:
    """Seeded float inputs: feature frames (SVDF) or windows of time steps (LSTM)."""
    return list(frames(seed=7, count=count) if kind.startswith("svdf") else windows(seed=7, count=count))


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_the_reference_equals_tflite_micro_over_invocations(kind: str) -> None:
    model = MODELS[kind].read_bytes()
    context = default_registry_context()
    graph = read_litert_model(model, context, MODELS[kind].name)
    op_type, count = STATEFUL[kind.rsplit("_", 1)[0]]
    assert sum(node.op_type == op_type for node in graph.nodes) == count
    assert all(not graph.tensors[i].is_variable for i in graph.inputs), "the states are not graph inputs"
    ours = ReferenceInterpreter(graph, context.operators)
    theirs = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    outputs = []
    inputs = iter(stream(kind, INVOCATIONS + INVOCATIONS // 2))
    for phase, count in (("before the reset", INVOCATIONS), ("after the reset", INVOCATIONS // 2)):
        for invocation in range(count):
            values = model_input(graph.tensors[graph.inputs[0]].quantization, next(inputs))
            (mine,) = ours.run([values])
            theirs.set_input(values, 0)
            theirs.invoke()
            assert same_values(mine, np.array(theirs.get_output(0)), FLOAT_RTOL.get(kind)), (
                f"invocation {invocation} {phase}: ours {mine.ravel()}, TFLM {np.array(theirs.get_output(0)).ravel()}"
            )
            outputs.append(mine.tobytes())
        ours.reset()
        theirs.reset()
    assert len(set(outputs)) > len(outputs) // 2, "the outputs follow the frames (nothing saturates)"


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_the_arena_is_the_liveness_bound_plus_the_states_and_below_tflite_micro(
    kind: str, tmp_path: pathlib.Path
) -> None:
    assert cli.main(["convert", str(MODELS[kind]), "-o", str(tmp_path / "out")]) == 0
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    graph = read_litert_model(MODELS[kind].read_bytes(), default_registry_context(), MODELS[kind].name)
    state_bytes = sum(t.bytes for t in graph.tensors if t.is_variable)
    assert sum(entry["bytes"] for entry in plan["persistent"]) == state_bytes, "each state planned once"
    assert plan["arena_bytes"] <= plan["lower_bound_bytes"], "the liveness bound (activations + states)"
    peer = tflm_arena(MODELS[kind], input_count=1)
    assert peer is not None and peer.total_bytes is not None, peer
    assert plan["arena_bytes"] < peer.total_bytes
