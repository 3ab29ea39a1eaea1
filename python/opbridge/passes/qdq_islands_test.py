# SPDX-License-Identifier: Apache-2.0
"""The QDQ-islands pass on drawn islands (DEQUANTIZE -> float32 op -> QUANTIZE, as onnxruntime's
quantize_static writes them): the op runs on int8, no float32 tensor is left, and the int8 kernel's
result is within one step of the float island's (the two round differently; the int8 kernels are
bit-exact with TFLite Micro's, which the op tests check). Islands whose parameters the int8 form
cannot take stay float32."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies

from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Padding
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.passes.qdq_islands import run_qdq_islands
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()
SHAPE = (1, 4, 4, 8)
BINARY = ("ADD", "SUB", "MUL")


def island(op_type: str, input_qs: list[Quantization], output_q: Quantization, window: int = 2) -> Graph:
    """int8 inputs -> DEQUANTIZE each -> `op_type` in float32 -> QUANTIZE -> int8 output."""
    tensors: list[Tensor] = []
    nodes: list[Node] = []

    def tensor(dtype: DType, shape: tuple[int, ...], q: Quantization | None = None) -> int:
        tensors.append(Tensor(len(tensors), f"t{len(tensors)}", dtype, shape, q))
        return len(tensors) - 1

    inputs = [tensor(DType.INT8, SHAPE, q) for q in input_qs]
    floats = []
    for x in inputs:
        floats.append(tensor(DType.FLOAT32, SHAPE))
        nodes.append(Node(len(nodes), f"dq{x}", "DEQUANTIZE", [x], [floats[-1]]))
    if op_type == "AVERAGE_POOL_2D":
        attributes = Pool2DAttributes(
            padding=Padding.VALID, stride_height=2, stride_width=2, filter_height=window, filter_width=window
        )
        shape = (1, SHAPE[1] // window, SHAPE[2] // window, SHAPE[3])
    else:
        attributes, shape = (AddAttributes() if op_type in BINARY else None), SHAPE
    result = tensor(DType.FLOAT32, shape)
    nodes.append(Node(len(nodes), "island", op_type, floats, [result], attributes))
    output = tensor(DType.INT8, shape, output_q)
    nodes.append(Node(len(nodes), "q", "QUANTIZE", [result], [output], QuantizeAttributes()))
    return Graph("island", tensors, nodes, inputs, [output])


@pytest.mark.parametrize("op_type", [*BINARY, "AVERAGE_POOL_2D"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_island_runs_on_int8_within_one_step(op_type: str, data: st.DataObject) -> None:
    same = op_type == "AVERAGE_POOL_2D"  # its int8 form keeps its input's parameters
    first = data.draw(strategies.per_tensor(0.01, 0.1))
    inputs = [first] if same else [first, data.draw(strategies.per_tensor(0.01, 0.1))]
    output_q = first if same else data.draw(strategies.per_tensor(0.01, 0.2))
    graph = island(op_type, inputs, output_q)
    rewritten = run_qdq_islands(graph, CONTEXT.operators)
    assert [node.op_type for node in rewritten.nodes] == [op_type]
    assert all(t.dtype is DType.INT8 for t in rewritten.tensors)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = [rng.integers(-128, 128, SHAPE).astype(np.int8) for _ in inputs]
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run(values)
    (actual,) = ReferenceInterpreter(rewritten, CONTEXT).run(values)
    assert np.abs(actual.astype(np.int32) - expected.astype(np.int32)).max() <= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_global_pool_island_that_rescales_runs_as_int8_mean(data: st.DataObject) -> None:
    """onnxruntime calibrates a GlobalAveragePool's output on its own: TFLite's int8 MEAN rescales."""
    input_q = data.draw(strategies.per_tensor(0.01, 0.1))
    output_q = Quantization((input_q.scale * data.draw(st.floats(0.5, 0.9)),), (data.draw(strategies.ZERO_POINTS),))
    graph = island("AVERAGE_POOL_2D", [input_q], output_q, window=SHAPE[1])
    rewritten = run_qdq_islands(graph, CONTEXT.operators)
    assert [node.op_type for node in rewritten.nodes] == ["MEAN"]
    values = [np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(-128, 128, SHAPE).astype(np.int8)]
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run(values)
    (actual,) = ReferenceInterpreter(rewritten, CONTEXT).run(values)
    assert np.abs(actual.astype(np.int32) - expected.astype(np.int32)).max() <= 1


def test_an_island_whose_parameters_the_int8_form_cannot_take_stays_float32() -> None:
    """A pool that would change its values' parameters: TFLite's int8 pool does not rescale."""
    graph = island("AVERAGE_POOL_2D", [Quantization((0.05,), (3,))], Quantization((0.1,), (0,)))
    assert run_qdq_islands(graph, CONTEXT.operators) is graph
