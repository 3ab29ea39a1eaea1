# SPDX-License-Identifier: Apache-2.0
"""ONNX models around SoftClip (examples/soft_clip), and the runtimes the OpenVINO tests run them in.

The libraries come from Bazel (tests/openvino/BUILD.bazel, through the environment):
SoftClip's OpenVINO extension and onnxruntime library, the scaffolded int8 PyTorch
op's OpenVINO extension, and SoftClip's extension compiled for another OpenVINO release.
"""

import os
import pathlib
import tempfile
from collections.abc import Sequence

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
from onnx import TensorProto, helper, numpy_helper
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.models import load_model
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from soft_clip.plugin import DOMAIN, NAME, customize_registry

SOFT_CLIP_EXTENSION = os.path.abspath(os.environ["OPBRIDGE_SOFT_CLIP_OPENVINO_EXTENSION"])
SOFT_CLIP_ORT_LIBRARY = os.path.abspath(os.environ["OPBRIDGE_SOFT_CLIP_ORT_LIBRARY"])
# The CPU plugin keeps float32 float32 on every CPU (no bf16/f16 inference precision).
CPU_FLOAT32 = {"INFERENCE_PRECISION_HINT": "f32"}
SOFT_CLIP_CONTEXT = build_default_registry_context(customizers=[customize_registry])

Dim = int | str  # a dim, or the name of a dynamic one


def soft_clip_core() -> ov.Core:
    """A new Core with SoftClip's extension."""
    core = ov.Core()
    core.add_extension(SOFT_CLIP_EXTENSION)
    return core


def onnx_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[tuple[str, int, Sequence[Dim]]],
    outputs: Sequence[tuple[str, int, Sequence[Dim] | None]],
    initializers: Sequence[onnx.TensorProto] = (),
    domains: Sequence[str] = (DOMAIN,),
) -> onnx.ModelProto:
    graph = helper.make_graph(
        list(nodes),
        "openvino_test",
        [helper.make_tensor_value_info(name, dtype, shape) for name, dtype, shape in inputs],
        [helper.make_tensor_value_info(name, dtype, shape) for name, dtype, shape in outputs],
        list(initializers),
    )
    opsets = [helper.make_opsetid("", 17), *(helper.make_opsetid(domain, 1) for domain in domains)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8)


def soft_clip_node(source: str, destination: str, limit: float) -> onnx.NodeProto:
    return helper.make_node(NAME, [source], [destination], domain=DOMAIN, name="soft_clip", limit=limit)


def conv_soft_clip_relu(
    input_shape: Sequence[Dim], weights: np.ndarray, bias: np.ndarray, limit: float
) -> onnx.ModelProto:
    """x -> Conv (stride 1, "same" padding) -> c -> SoftClip -> Relu -> y; outputs y and c (the Conv's result)."""
    kernel = weights.shape[2]
    output_shape = [input_shape[0], weights.shape[0], *input_shape[2:]]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[kernel // 2] * 4),
        soft_clip_node("c", "s", limit),
        helper.make_node("Relu", ["s"], ["y"], name="relu"),
    ]
    return onnx_model(
        nodes,
        [("x", TensorProto.FLOAT, input_shape)],
        [("y", TensorProto.FLOAT, output_shape), ("c", TensorProto.FLOAT, output_shape)],
        [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")],
    )


def soft_clip_relu(shape: Sequence[Dim], limit: float) -> onnx.ModelProto:
    """c -> SoftClip -> Relu -> y: the part of conv_soft_clip_relu after the Conv."""
    nodes = [soft_clip_node("c", "s", limit), helper.make_node("Relu", ["s"], ["y"], name="relu")]
    return onnx_model(nodes, [("c", TensorProto.FLOAT, shape)], [("y", TensorProto.FLOAT, shape)])


def soft_clip_alone(shape: Sequence[Dim], limit: float, dtype: int = TensorProto.FLOAT) -> onnx.ModelProto:
    """x -> SoftClip -> y (y's shape left to inference)."""
    return onnx_model([soft_clip_node("x", "y", limit)], [("x", dtype, shape)], [("y", dtype, None)])


def save(model: onnx.ModelProto, folder: pathlib.Path, name: str = "model.onnx") -> pathlib.Path:
    path = folder / name
    onnx.save(model, path)
    return path


def reference(
    model: onnx.ModelProto, inputs: Sequence[np.ndarray], context: RegistryContext = SOFT_CLIP_CONTEXT
) -> list[np.ndarray]:
    """The model's outputs in opbridge's reference interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        graph = load_model(save(model, pathlib.Path(folder)), context)
    return ReferenceInterpreter(graph, context).run(list(inputs))


def run_openvino(core: ov.Core, model: ov.Model | pathlib.Path, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The model's outputs, in its output order, compiled for the CPU in float32."""
    compiled = core.compile_model(model if isinstance(model, ov.Model) else str(model), "CPU", CPU_FLOAT32)
    results = compiled(list(inputs))
    return [np.asarray(results[output]) for output in compiled.outputs]


def run_onnxruntime(model: pathlib.Path, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The model's outputs in onnxruntime, SoftClip from its generated custom-op library."""
    options = ort.SessionOptions()
    options.register_custom_ops_library(SOFT_CLIP_ORT_LIBRARY)
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs, strict=True)))
