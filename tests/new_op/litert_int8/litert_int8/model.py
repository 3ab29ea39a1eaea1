# SPDX-License-Identifier: Apache-2.0
"""Writes LitertInt8's one-operator test model (a LiteRT CUSTOM node) to argv[1]."""

import pathlib
import sys

from ai_edge_litert import schema_py_generated as schema
from opbridge.ir import DType, Quantization
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder

from litert_int8.plugin import KEY

SHAPE = (1, 8, 8, 4)


def make_model(
    shape: tuple[int, ...] = SHAPE,
    input_quantization: tuple[float, int] = (0.05, -3),
    output_quantization: tuple[float, int] = (0.03, -128),
) -> bytes:
    """x -> LitertInt8 -> y."""
    builder = GraphBuilder()
    source = builder.tensor("x", DType.INT8, shape, Quantization((input_quantization[0],), (input_quantization[1],)))
    destination = builder.tensor(
        "y", DType.INT8, shape, Quantization((output_quantization[0],), (output_quantization[1],))
    )
    graph = builder.single_node_graph(KEY, [source], [destination], None)
    return single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=KEY)


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
