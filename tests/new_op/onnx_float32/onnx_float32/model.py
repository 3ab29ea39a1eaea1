# SPDX-License-Identifier: Apache-2.0
"""Writes OnnxFloat32's one-operator test model (an ONNX node of domain DOMAIN) to argv[1]."""

import pathlib
import sys

from onnx import TensorProto, helper

from onnx_float32.plugin import DOMAIN, NAME

SHAPE = (1, 4, 8, 8)


def make_model(shape: tuple[int, ...] = SHAPE, alpha: float = 0.01) -> bytes:
    """x -> DOMAIN::NAME -> y."""
    node = helper.make_node(
        NAME,
        ["x"],
        ["y"],
        domain=DOMAIN,
        name="onnx_float32_node",
        alpha=alpha,
    )
    graph = helper.make_graph(
        [node],
        "onnx_float32",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
