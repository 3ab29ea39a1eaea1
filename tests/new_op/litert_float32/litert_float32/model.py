# SPDX-License-Identifier: Apache-2.0
"""LitertFloat32's one-operator test model (a LiteRT CUSTOM node): make_model() for the tests; run as a
program, it writes the model to argv[1] (the golden test's model)."""

import pathlib
import sys

from ai_edge_litert import schema_py_generated as schema
from hypothesis import strategies as st
from opbridge.ir import DType
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder

from litert_float32.plugin import CUSTOM_CODE, KEY

SHAPE = (1, 8, 8, 4)


def make_model(shape: tuple[int, ...] = SHAPE) -> bytes:
    """x -> LitertFloat32 -> y; op_test draws the keyword arguments from drawn_parameters()."""
    builder = GraphBuilder()
    source = builder.tensor("x", DType.FLOAT32, shape)
    destination = builder.tensor("y", DType.FLOAT32, shape)
    graph = builder.single_node_graph(KEY, [source], [destination], None)
    return single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE)


def drawn_parameters() -> st.SearchStrategy[dict[str, object]]:
    """What op_test draws make_model's keyword arguments from: keep them to values the op accepts."""
    return st.fixed_dictionaries({})  # none yet


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
