# SPDX-License-Identifier: Apache-2.0
"""Every built-in operator that multiplies declares its MACs (OperatorDefinition.macs), and `opbridge
analyze` reports them: one small node per such operator, its MACs counted by a plain loop over its
arithmetic here and compared with the definition's and the report's figure (docs/adding_an_operator.md,
"Operator facts"). An operator declared to multiply nothing reports 0."""

import itertools
import math
from collections.abc import Callable

import pytest
from opbridge.analysis.instruction_costs import node_work
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.definition import multiply_accumulates

REGISTRY = build_builtin_registry()


def graph_of(op_type: str, shapes: list[tuple[int, ...]], output: tuple[int, ...], attributes: object = None) -> Graph:
    """One node of `op_type` reading graph inputs of `shapes` (float32: MACs depend on shapes only)."""
    tensors = [Tensor(i, f"t{i}", DType.FLOAT32, shape) for i, shape in enumerate([*shapes, output])]
    definition = REGISTRY.get(op_type)
    assert definition is not None and definition.schema is not None
    if attributes is None and definition.schema.attributes_class is not None:
        attributes = definition.schema.attributes_class()
    node = Node(0, "n", op_type, list(range(len(shapes))), [len(shapes)], attributes)
    return Graph(op_type, tensors, [node], list(range(len(shapes))), [len(shapes)])


def count_products(*ranges: int) -> int:
    """The products a loop nest of these trip counts runs, one per innermost iteration (counted)."""
    return sum(1 for _ in itertools.product(*(range(r) for r in ranges)))


# op -> (input shapes, output shape, the products its arithmetic runs, counted by a loop over it).
CASES: dict[str, tuple[list[tuple[int, ...]], tuple[int, ...], Callable[[], int]]] = {
    # 1x4x4 output of 3 channels, 3x3 taps over 2 input channels.
    "CONV_2D": ([(1, 6, 6, 2), (3, 3, 3, 2), (3,)], (1, 4, 4, 3), lambda: count_products(1, 4, 4, 3, 3, 3, 2)),
    "DEPTHWISE_CONV_2D": ([(1, 6, 6, 2), (1, 3, 3, 2), (2,)], (1, 4, 4, 2), lambda: count_products(1, 4, 4, 2, 3, 3)),
    # 5 units over 7 inputs, 2 rows.
    "FULLY_CONNECTED": ([(2, 7), (5, 7), (5,)], (2, 5), lambda: count_products(2, 5, 7)),
    # [2, 3, 4] x [2, 4, 5]: M 3, K 4, N 5.
    "BATCH_MATMUL": ([(2, 3, 4), (2, 4, 5)], (2, 3, 5), lambda: count_products(2, 3, 5, 4)),
    # Each of the input's 1x3x3x2 elements scattered over 2x2 taps of 4 output channels.
    "TRANSPOSE_CONV": ([(4,), (4, 2, 2, 2), (1, 3, 3, 2)], (1, 6, 6, 4), lambda: count_products(1, 3, 3, 2, 2, 2, 4)),
    # batch 2, 6 inputs, 4 filters of memory 3: the feature dot products, then the time ones.
    "SVDF": (
        [(2, 6), (4, 6), (4, 3), (4,), (2, 12)],
        (2, 4),
        lambda: count_products(2, 4, 6) + count_products(2, 4, 3),
    ),
    # 3 steps x 2 batches, 5 inputs, 4 units: four gates over the input and the hidden row.
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (
        [(3, 2, 5), (4, 5), (4, 5), (4, 5), (4, 5), (4, 4), (4, 4), (4, 4), (4, 4)],
        (3, 2, 4),
        lambda: count_products(3, 2, 4, 4, 5) + count_products(3, 2, 4, 4, 4),
    ),
    "MUL": ([(2, 3, 4), (2, 3, 4)], (2, 3, 4), lambda: count_products(2, 3, 4)),
    "SQUARED_DIFFERENCE": ([(2, 3, 4), (2, 3, 4)], (2, 3, 4), lambda: count_products(2, 3, 4)),
    "PRELU": ([(2, 3, 4), (4,)], (2, 3, 4), lambda: count_products(2, 3, 4)),
    "LEAKY_RELU": ([(2, 3, 4)], (2, 3, 4), lambda: count_products(2, 3, 4)),
    "HARD_SWISH": ([(2, 3, 4)], (2, 3, 4), lambda: count_products(2, 3, 4)),
    # The squares summed, then each element scaled.
    "L2_NORMALIZATION": ([(2, 3, 4)], (2, 3, 4), lambda: 2 * count_products(2, 3, 4)),
    # Default window (5 channels each side, clipped to the 4): each output's squares, alpha * sum, x * factor.
    "LOCAL_RESPONSE_NORMALIZATION": (
        [(2, 3, 4)],
        (2, 3, 4),
        lambda: sum(1 for _ in itertools.product(range(2 * 3), range(4), range(4))) + 2 * count_products(2, 3, 4),
    ),
    # Four neighbours weighted per output element.
    "RESIZE_BILINEAR": ([(1, 2, 2, 3), (2,)], (1, 4, 4, 3), lambda: count_products(1, 4, 4, 3, 4)),
}


def multiplying() -> list[str]:
    return sorted(d.op_type for d in REGISTRY.definitions() if d.macs is not None)


def test_every_operator_that_multiplies_has_a_case() -> None:
    assert multiplying() == sorted(CASES), "add a case for each operator with a MAC function"


@pytest.mark.parametrize("op_type", sorted(CASES))
def test_the_definition_and_the_report_count_the_products(op_type: str) -> None:
    shapes, output, expected = CASES[op_type]
    graph = graph_of(op_type, shapes, output)
    node = graph.nodes[0]
    macs = multiply_accumulates(REGISTRY.get(op_type), graph, node)
    assert macs == expected() > 0
    assert node_work(graph, node, REGISTRY).macs == macs  # what `opbridge analyze` reports per node


@pytest.mark.parametrize("op_type", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_a_tile_counts_its_own_rows_and_columns(op_type: str) -> None:
    """A patch stage asks for the MACs of one tile's output (aot/patch_stage.py)."""
    shapes, output, _ = CASES[op_type]
    graph = graph_of(op_type, shapes, output)
    whole = multiply_accumulates(REGISTRY.get(op_type), graph, graph.nodes[0])
    tile = multiply_accumulates(REGISTRY.get(op_type), graph, graph.nodes[0], (1, 2, 3, output[3]))
    assert tile * math.prod(output[1:3]) == whole * 2 * 3


def test_an_operator_that_multiplies_nothing_reports_zero() -> None:
    graph = graph_of("ADD", [(2, 3), (2, 3)], (2, 3))
    assert REGISTRY.get("ADD").macs is None
    assert node_work(graph, graph.nodes[0], REGISTRY).macs == 0
