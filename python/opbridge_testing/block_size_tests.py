# SPDX-License-Identifier: Apache-2.0
"""The op tests DEPTH_TO_SPACE and SPACE_TO_DEPTH share (ops/<op>/op_test.py): the one-node graph, drawn graphs
(float32 and int8) against TFLite Micro and the C module against the reference, unequal int8 quantization refused,
and the check that a block size that does not fit is refused by the reference and by compile_graph.

Each op_test.py binds the returned test functions by name, so pytest collects them there, and keeps what is its
own (output shapes, drawn shapes, the order, ONNX)."""

import pathlib
import tempfile
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.aot.compile import compile_graph
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes

from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = available_operator_registry()
QuantizationPair = tuple[Quantization | None, Quantization | None]

# (shape, block, dtype, (input quantization, output quantization)) -> the op's one-node graph
GraphFunction = Callable[[tuple[int, int, int, int], int, DType, QuantizationPair], Graph]


def block_size_graph(
    op_type: str,
    default_output_shape: Callable[[tuple[int, int, int, int], int], tuple[int, ...]],
    shape: tuple[int, int, int, int],
    block: int,
    dtype: DType = DType.FLOAT32,
    quantization: QuantizationPair = (None, None),
    output_shape: tuple[int, ...] | None = None,
) -> Graph:
    """One `op_type` node with block size `block` from input `shape` to `output_shape` (by default
    `default_output_shape(shape, block)`); bind the first two with functools.partial."""
    if output_shape is None:
        output_shape = default_output_shape(shape, block)
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization[0])
    y = builder.tensor("output", dtype, output_shape, quantization[1])
    return builder.single_node_graph(op_type, [x], [y], BlockSizeAttributes(block_size=block))


def block_size_tests(
    op_type: str,
    builtin_code: int,
    builtin_options: int,
    options_class: type,
    draw_graph: Callable[[st.DataObject], Graph],
    graph: GraphFunction,
) -> tuple[Callable[..., None], ...]:
    """test_reference_matches_tflite_micro (30 drawn graphs, bit for bit; int8 is op version 2),
    test_c_module_matches_reference (12 drawn graphs, byte for byte) and test_unequal_int8_quantization_is_refused
    (scales differ, zero points differ; by the reference and by compile_graph)."""

    def options(drawn: Graph) -> object:
        packed = options_class()
        packed.blockSize = drawn.nodes[0].attributes.block_size
        return packed

    @settings(max_examples=30, deadline=None)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        drawn = draw_graph(data)
        version = 2 if drawn.tensors[0].dtype is DType.INT8 else 1
        check_reference_matches_tflite_micro(drawn, REGISTRY, builtin_code, version, builtin_options, options(drawn))

    @settings(max_examples=12, deadline=None)
    @given(st.data())
    def test_c_module_matches_reference(data: st.DataObject) -> None:
        drawn = draw_graph(data)
        exact = 0 if drawn.tensors[0].dtype is DType.FLOAT32 else None  # int8: byte for byte anyway
        check_c_matches_reference(drawn, REGISTRY, float_ulp_tolerance=exact)

    @pytest.mark.parametrize(
        ("input_q", "output_q"),
        [
            (Quantization((0.1,), (3,)), Quantization((0.2,), (3,))),  # scales differ
            (Quantization((0.1,), (3,)), Quantization((0.1,), (4,))),  # zero points differ
        ],
    )
    def test_unequal_int8_quantization_is_refused(input_q: Quantization, output_q: Quantization) -> None:
        refused = graph((1, 2, 2, 4), 2, DType.INT8, (input_q, output_q))
        values = np.arange(16, dtype=np.int8).reshape(1, 2, 2, 4)
        with pytest.raises(OpbridgeError, match=rf"node 0 \({op_type}.*quantization differ"):
            ReferenceInterpreter(refused, REGISTRY).run([values])
        with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"quantization differ"):
            compile_graph(refused, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)

    return (
        test_reference_matches_tflite_micro,
        test_c_module_matches_reference,
        test_unequal_int8_quantization_is_refused,
    )


def check_block_size_refused(op_type: str, graph: Graph, block: int, input_shape: tuple[int, ...]) -> None:
    """The reference (on zeros of `input_shape`) and compile_graph refuse `graph`'s block size `block`."""
    with pytest.raises(OpbridgeError, match=rf"{op_type}.*block_size {block}"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(input_shape, np.float32)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=rf"block_size {block}"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)
