# SPDX-License-Identifier: Apache-2.0
"""Resource variables (READ_VARIABLE with ASSIGN_VARIABLE) in LiteRT models written as TFLite's converter
writes them (CALL_ONCE's init subgraph, VAR_HANDLE, RESOURCE handles): the reference against TFLite Micro
over consecutive invocations with the variables carried, then after a reset; the emitted C against the
reference over the same kind of sequence (the golden program inits the module again and repeats it).

A reset is a fresh start, as <prefix>_init: every variable holds its init subgraph's constant again. TFLite
Micro's Interpreter.reset() does not do that (CALL_ONCE keeps has_run, and MicroResourceVariables::ResetAll
fills each variable with its zero point), so after a reset the reference is compared with a fresh TFLite
Micro interpreter; test_tflite_micro_reset_fills_variables_with_the_zero_point pins what its reset does."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import resource_variable_models as models
from opbridge_testing.activation_tests import REGISTRY
from opbridge_testing.single_op import check_c_matches_reference
from tflite_micro.python.tflite_micro import runtime

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph

# Operators of the stateful models besides the variables' (tests/architecture/operator_deps.py).
USES_OPERATORS = ("add", "assign_variable", "fully_connected", "maximum", "mul", "tanh")

INVOCATIONS = 12
ARENA_BYTES = 64 * 1024


def imported(model: bytes) -> Graph:
    return read_litert_model(model, as_registry_context(REGISTRY), "stateful.tflite")


def draw_input(rng: np.random.Generator, graph: Graph) -> np.ndarray:
    (tensor,) = graph.input_tensors()
    if tensor.dtype is DType.FLOAT32:
        return rng.standard_normal(tensor.shape).astype(np.float32)
    if tensor.dtype is DType.INT16:
        return rng.integers(-3000, 3000, tensor.shape).astype(np.int16)
    return rng.integers(-128, 128, tensor.shape).astype(np.int8)


def assert_equal(ours: list[np.ndarray], interpreter: object, what: str, rtol: float | None) -> None:
    for position, mine in enumerate(ours):
        theirs = np.array(interpreter.get_output(position))  # type: ignore[attr-defined]
        if rtol is not None:  # libm's tanhf against NumPy's tanh: a few ulps, carried by the state
            np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=rtol, err_msg=f"{what} output {position}")
        elif mine.dtype == np.float32:  # equal bits
            assert np.array_equal(mine.view(np.uint32), theirs.view(np.uint32)), f"{what} output {position}"
        else:
            assert np.array_equal(mine, theirs), f"{what} output {position}: ours {mine}, TFLM {theirs}"


def check_against_tflite_micro(model: bytes, seed: int, rtol: float | None = None) -> list[np.ndarray]:
    """INVOCATIONS runs carrying the variables, a reset (a fresh TFLite Micro interpreter: see the
    module docstring), then INVOCATIONS // 2 runs more; returns our outputs."""
    graph = imported(model)
    ours = ReferenceInterpreter(graph, REGISTRY)
    rng = np.random.default_rng(seed)
    outputs = []
    for phase, count in (("before reset", INVOCATIONS), ("after reset", INVOCATIONS // 2)):
        theirs = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
        for invocation in range(count):
            values = draw_input(rng, graph)
            mine = ours.run([values])
            theirs.set_input(values, 0)
            theirs.invoke()
            assert_equal(mine, theirs, f"invocation {invocation} {phase}", rtol)
            outputs.append(mine[0])
        ours.reset()
    return outputs


def varied(outputs: list[np.ndarray]) -> bool:
    return len({output.tobytes() for output in outputs}) > len(outputs) // 2


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("width", "decay"), [(1, 0.5), (4, 0.75), (9, 0.9)])
def test_float32_moving_average_matches_tflite_micro(width: int, decay: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    model = models.moving_average_model(width, decay, rng.standard_normal(width))
    assert varied(check_against_tflite_micro(model, seed))


@settings(max_examples=15, deadline=None)
@given(
    width=st.integers(1, 16),
    x_scale=st.floats(0.005, 0.2),
    x_zero_point=st.integers(-20, 20),
    sum_scale=st.floats(0.01, 0.5),
    sum_zero_point=st.integers(-20, 20),
    seed=st.integers(0, 2**16),
)
def test_int8_accumulator_matches_tflite_micro(
    width: int, x_scale: float, x_zero_point: int, sum_scale: float, sum_zero_point: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    x_q = models.Quant(float(np.float32(x_scale)), x_zero_point)
    sum_q = models.Quant(float(np.float32(sum_scale)), sum_zero_point)
    model = models.accumulator_model(width, x_q, sum_q, rng.integers(-128, 128, width))
    check_against_tflite_micro(model, seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_int16_accumulator_matches_tflite_micro(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x_q, sum_q = models.Quant(float(np.float32(1 / 4096)), 0), models.Quant(float(np.float32(1 / 1024)), 0)
    model = models.accumulator_model(6, x_q, sum_q, rng.integers(-20000, 20000, 6), schema.TensorType.INT16)
    assert varied(check_against_tflite_micro(model, seed))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("inputs", "units", "second_read"), [(3, 4, True), (5, 2, False), (2, 8, True)])
def test_stateful_rnn_matches_tflite_micro(inputs: int, units: int, second_read: bool, seed: int) -> None:
    model = models.rnn_model(np.random.default_rng(seed), inputs, units, second_read)
    assert varied(check_against_tflite_micro(model, seed, rtol=1e-5))


def test_delay_matches_tflite_micro_bit_for_bit() -> None:
    model = models.delay_model(5, np.random.default_rng(4).standard_normal(5))
    assert varied(check_against_tflite_micro(model, 4))


@pytest.mark.parametrize("container", ["", "model"])
def test_two_variables_match_tflite_micro(container: str) -> None:
    model = models.two_variables_model(4, np.random.default_rng(5), container)
    graph = imported(model)
    names = sorted(n.attributes.variable for n in graph.nodes if n.op_type == "READ_VARIABLE")
    assert names == sorted(["max", f"{container}/sum" if container else "sum"])
    assert varied(check_against_tflite_micro(model, 5))


def test_tflite_micro_reset_fills_variables_with_the_zero_point() -> None:
    """TFLite Micro's reset() does not run the init subgraph again (CALL_ONCE keeps has_run) and fills each
    variable with the zero point of the value its ASSIGN_VARIABLE was prepared with (0 for float32): after a
    reset it runs as a fresh model whose init constant is that fill. opbridge's reset (and <prefix>_init)
    restores the init constant instead: the state a fresh interpreter starts from."""
    rng = np.random.default_rng(7)
    x_q, sum_q = models.Quant(0.05, 3), models.Quant(0.1, -2)
    initial = rng.integers(-100, 100, 6)
    model = models.accumulator_model(6, x_q, sum_q, initial)
    filled = models.accumulator_model(6, x_q, sum_q, np.full(6, sum_q.zero_point))
    theirs = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    after_fill = ReferenceInterpreter(imported(filled), REGISTRY)
    fresh = ReferenceInterpreter(imported(model), REGISTRY)
    for _ in range(3):
        theirs.set_input(draw_input(rng, imported(model)), 0)
        theirs.invoke()
    theirs.reset()
    differs = False
    for invocation in range(6):
        values = draw_input(rng, imported(model))
        theirs.set_input(values, 0)
        theirs.invoke()
        expected = after_fill.run([values])
        assert_equal(expected, theirs, f"invocation {invocation} after TFLite Micro's reset", None)
        differs |= not np.array_equal(fresh.run([values])[0], expected[0])
    assert differs, "the initial value should make a fresh start differ from TFLite Micro's reset"


C_MODELS = {
    "float32 moving average": (lambda rng: models.moving_average_model(6, 0.8, rng.standard_normal(6)), 0),
    "int8 accumulator": (
        lambda rng: models.accumulator_model(
            7, models.Quant(0.03, -4), models.Quant(0.07, 5), rng.integers(-90, 90, 7)
        ),
        None,
    ),
    "stateful rnn, read twice": (lambda rng: models.rnn_model(rng, 3, 5), None),
    "delay": (lambda rng: models.delay_model(4, rng.standard_normal(4)), 0),
    "int16 accumulator": (
        lambda rng: models.accumulator_model(
            5,
            models.Quant(1 / 4096, 0),
            models.Quant(1 / 1024, 0),
            rng.integers(-9000, 9000, 5),
            schema.TensorType.INT16,
        ),
        None,
    ),
    "two variables": (lambda rng: models.two_variables_model(5, rng, "model"), 0),
}


@pytest.mark.parametrize("name", sorted(C_MODELS))
def test_c_matches_reference_over_invocations(name: str) -> None:
    build, tolerance = C_MODELS[name]
    graph = imported(build(np.random.default_rng(11)))
    # INVOCATIONS cases in a row, variables carried; the program then inits again and repeats them.
    check_c_matches_reference(graph, REGISTRY, cases=INVOCATIONS, float_ulp_tolerance=tolerance)
