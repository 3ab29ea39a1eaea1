# SPDX-License-Identifier: Apache-2.0
"""Writes the starter's model: input int8[1, 16] -> custom-noop -> output int8[1, 16].

bazel run //examples/custom_op:make_model -- /tmp/custom_noop.tflite
"""

import pathlib
import sys

from ai_edge_litert import schema_py_generated as schema
from opbridge.ir import DType
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder

SHAPE = (1, 16)


def custom_noop_model(
    dtype: DType = DType.INT8,
    shape: tuple[int, ...] = SHAPE,
    custom_code: str = "custom-noop",
    output_shape: tuple[int, ...] | None = None,
    output_dtype: DType | None = None,
    custom_options: bytes | None = None,
) -> bytes:
    """A one-node model; the arguments make the rejected variants the tests need."""
    builder = GraphBuilder()
    source = builder.tensor("input", dtype, shape)
    destination = builder.tensor("output", output_dtype or dtype, output_shape or shape)
    graph = builder.single_node_graph("CUSTOM_NOOP", [source], [destination], None)
    return single_op_model(
        graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=custom_code, custom_options=custom_options
    )


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    pathlib.Path(sys.argv[1]).write_bytes(custom_noop_model())
    return 0


if __name__ == "__main__":
    sys.exit(main())
