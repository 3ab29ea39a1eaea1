# SPDX-License-Identifier: Apache-2.0
"""ChannelShuffle's one-operator test model (an ONNX node of domain DOMAIN): make_model() for the tests; run as a
program, it writes the model to argv[1] (the golden test's model)."""

import pathlib
import sys

from hypothesis import strategies as st
from onnx import TensorProto, helper

from channel_shuffle.plugin import DOMAIN, NAME

SHAPE = (1, 8, 5, 3)


def make_model(shape: tuple[int, ...] = SHAPE, groups: int = 4) -> bytes:
    """x -> ChannelShuffle -> y (int8); op_test draws the keyword arguments from drawn_parameters()."""
    node = helper.make_node(NAME, ["x"], ["y"], domain=DOMAIN, name="channel_shuffle_node", groups=groups)
    graph = helper.make_graph(
        [node],
        "channel_shuffle",
        [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()


def drawn_parameters(shape: tuple[int, ...]) -> st.SearchStrategy[dict[str, object]]:
    """What op_test draws make_model's keyword arguments from: a group count that divides the channels."""
    channels = shape[1]
    return st.fixed_dictionaries({"groups": st.sampled_from([g for g in range(1, channels + 1) if channels % g == 0])})


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
