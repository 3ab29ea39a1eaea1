# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's scrambled keyword model as python/opbridge_testing/svdf_keyword.py writes it (`keyword_scrambled`:
an int16 frame, QUANTIZE to int8, seven SVDF layers, five FULLY_CONNECTED, SOFTMAX to int16 and QUANTIZE to an int32
output; int16 states, and the int8 states of TFLite Micro's own file). It converts; over 10 calls in a row, the
states carried, opbridge's reference equals TFLite Micro bit for bit, on feature frames and on the golden program's
seeded inputs; and the emitted C (compiled with the host gcc) equals the reference over its golden program's 10
cases, which are 10 consecutive calls on those same inputs. The aot_model keyword_scrambled_int16 runs that golden
program on every platform."""

import functools
import pathlib

import numpy as np
import pytest
from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program
from opbridge_testing.svdf_keyword import keyword_scrambled, scrambled_inputs
from tflite_micro.python.tflite_micro import runtime

CALLS = 10
ARENA_BYTES = 256 * 1024
STATES = {"int16": np.int16, "int8": np.int8}
OPERATORS = [
    "QUANTIZE",
    *(["SVDF", "FULLY_CONNECTED"] * 4),
    *(["SVDF"] * 3),
    "FULLY_CONNECTED",
    "SOFTMAX",
    "QUANTIZE",
]


@functools.cache
def model(states: str) -> bytes:
    return keyword_scrambled(STATES[states])


def read(states: str) -> Graph:
    return read_litert_model(model(states), default_registry_context(), f"keyword_scrambled_{states}.tflite")


def tflite_micro_calls(data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """TFLite Micro's output after each call, one interpreter for all (its states carried)."""
    interpreter = runtime.Interpreter.from_bytes(data, arena_size=ARENA_BYTES)
    outputs = []
    for values in inputs:
        interpreter.set_input(values, 0)
        interpreter.invoke()
        outputs.append(np.array(interpreter.get_output(0)))
    return outputs


def reference_calls(graph: Graph, inputs: list[np.ndarray]) -> list[np.ndarray]:
    interpreter = ReferenceInterpreter(graph, default_registry_context().operators)
    return [interpreter.run([values])[0] for values in inputs]


def assert_same_calls(ours: list[np.ndarray], theirs: list[np.ndarray]) -> None:
    for call, (mine, peer) in enumerate(zip(ours, theirs, strict=True)):
        assert mine.dtype == np.int32 and mine.shape == peer.shape == (1, 2)
        assert mine.tobytes() == np.ascontiguousarray(peer, dtype=np.int32).tobytes(), (
            f"call {call}: ours {mine.ravel()}, TFLite Micro {peer.ravel()}"
        )


@pytest.mark.parametrize("states", sorted(STATES))
def test_the_model_has_the_structure_of_tflite_micros(states: str) -> None:
    graph = read(states)
    assert [node.op_type for node in graph.nodes] == OPERATORS
    (frame,), (output,) = graph.input_tensors(), [graph.tensor(i) for i in graph.outputs]
    assert (frame.dtype, frame.shape, output.dtype, output.shape) == (DType.INT16, (1, 96), DType.INT32, (1, 2))
    first, last = graph.nodes[0], graph.nodes[-1]
    assert (graph.tensor(first.inputs[0]).dtype, graph.tensor(first.outputs[0]).dtype) == (DType.INT16, DType.INT8)
    assert (graph.tensor(last.inputs[0]).dtype, graph.tensor(last.outputs[0]).dtype) == (DType.INT16, DType.INT32)
    variables = [tensor for tensor in graph.tensors if tensor.is_variable]
    assert len(variables) == 7 and {tensor.dtype.value for tensor in variables} == {states}


@pytest.mark.parametrize("states", sorted(STATES))
def test_the_reference_equals_tflite_micro_over_10_calls(states: str) -> None:
    inputs = scrambled_inputs(seed=7, count=CALLS)
    ours = reference_calls(read(states), inputs)
    assert_same_calls(ours, tflite_micro_calls(model(states), inputs))
    assert len({values.tobytes() for values in ours}) > CALLS // 2, "the outputs follow the frames"


@pytest.mark.parametrize("states", sorted(STATES))
def test_the_emitted_c_equals_the_reference_and_tflite_micro_over_10_calls(states: str, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "keyword_scrambled.tflite"
    path.write_bytes(model(states))
    golden = tmp_path / "golden_test.c"
    config = ConvertArgs(
        model=path, output_dir=tmp_path / "module", prefix="kws", golden_test=golden, golden_cases=CALLS
    )
    result = AotConverter(config, registry_context=default_registry_context()).convert()
    assert "0 failures" in run_golden_program(tmp_path / "module", golden)
    # The golden program's inputs (each case one call): the reference that wrote its outputs equals TFLite Micro.
    (frame,) = result.graph.input_tensors()
    inputs = seeded_inputs(frame, CALLS, seed=DEFAULT_SEED)
    assert_same_calls(reference_calls(result.graph, inputs), tflite_micro_calls(model(states), inputs))
