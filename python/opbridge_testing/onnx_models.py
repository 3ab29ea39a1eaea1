# SPDX-License-Identifier: Apache-2.0
"""Small ONNX models for the native plugin tests, built with onnx.helper.

Only the `onnx` package is used (never onnxruntime): the hosts' tests assert
that ONNX Runtime was not imported.
"""

import os
from collections.abc import Sequence
from typing import Any

from onnx import TensorProto, helper

# Workspace-relative: tests run from the runfiles root with the plugins as data.
LEAKY_RELU_ORT = "examples/native_plugins/libort_leaky_relu.so"
LEAKY_RELU_OPBRIDGE = "examples/native_plugins/libleaky_relu_plugin.so"
TEST_PLUGIN = "cc/plugin/libtest_plugin_good.so"

FLOAT_TYPES = {
    "float32": TensorProto.FLOAT,
    "float64": TensorProto.DOUBLE,
    "float16": TensorProto.FLOAT16,
    "bfloat16": TensorProto.BFLOAT16,
}


def plugin_path(relative: str) -> str:
    return os.path.abspath(relative)


def single_node_model(
    op_type: str,
    *,
    domain: str = "com.example",
    elem_type: int = TensorProto.FLOAT,
    output_type: int | None = None,
    input_shape: Sequence[int | str] | None = ("n", "m"),
    domain_version: int | None = 1,
    inputs: int = 1,
    **attributes: Any,
) -> bytes:
    """One node of `domain::op_type` from graph inputs x0.. to graph output y."""
    names = [f"x{i}" for i in range(inputs)]
    node = helper.make_node(op_type, names, ["y"], domain=domain, name=f"{op_type.lower()}_node", **attributes)
    graph = helper.make_graph(
        [node],
        "single_node",
        [helper.make_tensor_value_info(name, elem_type, input_shape) for name in names],
        [helper.make_tensor_value_info("y", elem_type if output_type is None else output_type, None)],
    )
    opsets = [helper.make_opsetid("", 21)]
    if domain_version is not None and domain:
        opsets.append(helper.make_opsetid(domain, domain_version))
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


def leaky_relu_model(dtype: str = "float32", alpha: float | None = 0.1, **kwargs: Any) -> bytes:
    attributes = {} if alpha is None else {"alpha": alpha}
    return single_node_model("LeakyRelu", elem_type=FLOAT_TYPES[dtype], **attributes, **kwargs)
