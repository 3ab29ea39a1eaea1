# SPDX-License-Identifier: Apache-2.0
"""OnnxInt8Torch's one-operator test model (an ONNX node of domain DOMAIN): make_model() for the tests; run as a
program, it writes the model to argv[1] (the golden test's model)."""

import pathlib
import sys

from hypothesis import strategies as st
from onnx import TensorProto, helper

from onnx_int8_torch.plugin import DOMAIN, NAME

SHAPE = (1, 4, 8, 8)


def make_model(shape: tuple[int, ...] = SHAPE, alpha: float = 0.25) -> bytes:
    """x -> OnnxInt8Torch -> y; op_test draws the keyword arguments from drawn_parameters()."""
    node = helper.make_node(NAME, ["x"], ["y"], domain=DOMAIN, name="onnx_int8_torch_node", alpha=alpha)
    graph = helper.make_graph(
        [node],
        "onnx_int8_torch",
        [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


def drawn_parameters() -> st.SearchStrategy[dict[str, object]]:
    """What op_test draws make_model's keyword arguments from: keep them to values the op accepts."""
    return st.fixed_dictionaries({"alpha": st.floats(0.0, 1.0, width=32)})


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
