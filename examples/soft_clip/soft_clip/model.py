# SPDX-License-Identifier: Apache-2.0
"""Writes SoftClip's one-operator test model (an ONNX node of domain DOMAIN) to argv[1]."""

import pathlib
import sys

from onnx import TensorProto, helper

from soft_clip.plugin import DOMAIN, NAME

SHAPE = (1, 4, 8, 8)


def make_model(shape: tuple[int, ...] = SHAPE, limit: float = 1.0) -> bytes:
    """x -> DOMAIN::NAME -> y."""
    node = helper.make_node(
        NAME,
        ["x"],
        ["y"],
        domain=DOMAIN,
        name="soft_clip_node",
        limit=limit,
    )
    graph = helper.make_graph(
        [node],
        "soft_clip",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
