# SPDX-License-Identifier: Apache-2.0
"""Small float32 ONNX models built with onnx.helper (seeded weights): an MLP and a CNN.

`python models.py OUT_DIR` writes mlp.onnx and cnn.onnx (for aot_model in BUILD.bazel).
"""

import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def _weights(rng: np.random.Generator, shape: tuple[int, ...], scale: float = 0.3) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def constant(self, name: str, array: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attributes: object) -> str:
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attributes))
        return output

    def model(
        self, name: str, input_shape: list[int], output: str, output_shape: list[int], opset: int
    ) -> onnx.ModelProto:
        graph = helper.make_graph(
            self.nodes,
            name,
            [helper.make_tensor_value_info("input", TensorProto.FLOAT, input_shape)],
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, output_shape)],
            self.initializers,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        onnx.checker.check_model(model, full_check=True)
        return model


def mlp_model(opset: int = OPSET, seed: int = 1) -> onnx.ModelProto:
    """input[1, 20] -> Gemm(32) -> Relu -> MatMul(16) + bias -> Clip(0, 6) -> Gemm(5) (logits)."""
    b = _Builder(seed)
    h = b.node(
        "Gemm",
        ["input", b.constant("w1", _weights(b.rng, (32, 20))), b.constant("b1", _weights(b.rng, (32,)))],
        "fc1",
        transB=1,
    )
    h = b.node("Relu", [h], "relu1")
    h = b.node("MatMul", [h, b.constant("w2", _weights(b.rng, (32, 16)))], "fc2")
    h = b.node("Add", [h, b.constant("b2", _weights(b.rng, (16,)))], "fc2_bias")
    h = b.node("Clip", [h, b.constant("low", np.float32(0.0)), b.constant("high", np.float32(6.0))], "relu6")
    h = b.node(
        "Gemm", [h, b.constant("w3", _weights(b.rng, (16, 5))), b.constant("b3", _weights(b.rng, (1, 5)))], "fc3"
    )
    b.node("Softmax", [h], "probabilities", axis=-1)
    return b.model("mlp", [1, 20], "probabilities", [1, 5], opset)


def cnn_model(opset: int = OPSET, seed: int = 2) -> onnx.ModelProto:
    """input[1, 3, 12, 12]: Conv 3x3 (pads 1) -> Relu -> MaxPool 2x2 -> (Conv 3x3 | Conv 1x1) -> Add ->
    depthwise Conv 3x3 stride 2 -> Clip(0, 6) -> AveragePool 3x3 (SAME) -> Concat with GlobalAveragePool
    -> Flatten -> Gemm(4) -> Softmax."""
    b = _Builder(seed)
    h = b.node(
        "Conv",
        ["input", b.constant("c1_w", _weights(b.rng, (8, 3, 3, 3))), b.constant("c1_b", _weights(b.rng, (8,)))],
        "conv1",
        pads=[1, 1, 1, 1],
    )
    h = b.node("Relu", [h], "relu1")
    h = b.node("MaxPool", [h], "pool1", kernel_shape=[2, 2], strides=[2, 2])
    wide = b.node(
        "Conv",
        [h, b.constant("c2_w", _weights(b.rng, (8, 8, 3, 3))), b.constant("c2_b", _weights(b.rng, (8,)))],
        "conv2",
        pads=[1, 1, 1, 1],
    )
    narrow = b.node("Conv", [h, b.constant("c3_w", _weights(b.rng, (8, 8, 1, 1)))], "conv3")
    h = b.node("Add", [wide, narrow], "sum")
    h = b.node(
        "Conv",
        [h, b.constant("dw_w", _weights(b.rng, (8, 1, 3, 3))), b.constant("dw_b", _weights(b.rng, (8,)))],
        "depthwise",
        group=8,
        strides=[2, 2],
        pads=[0, 0, 1, 1],
    )
    h = b.node("Clip", [h, b.constant("low", np.float32(0.0)), b.constant("high", np.float32(6.0))], "relu6")
    pooled = b.node("AveragePool", [h], "pool2", kernel_shape=[3, 3], strides=[1, 1], auto_pad="SAME_UPPER")
    mean = b.node("GlobalAveragePool", [h], "mean")
    h = b.node(
        "Concat", [b.node("Flatten", [pooled], "flat_pool"), b.node("Flatten", [mean], "flat_mean")], "features", axis=1
    )
    h = b.node(
        "Gemm",
        [h, b.constant("fc_w", _weights(b.rng, (4, 8 * 3 * 3 + 8), 0.1)), b.constant("fc_b", _weights(b.rng, (4,)))],
        "fc",
        transB=1,
    )
    b.node("Softmax", [h], "probabilities", axis=1)
    return b.model("cnn", [1, 3, 12, 12], "probabilities", [1, 4], opset)


def mlp_layers_model(opset: int = OPSET, seed: int = 3) -> onnx.ModelProto:
    """The float32 MLP that qdq_models.py quantizes: input[1, 20] -> Gemm(32, transB) -> Relu -> MatMul(16)
    -> Gemm(5) (logits)."""
    b = _Builder(seed)
    h = b.node(
        "Gemm",
        ["input", b.constant("w1", _weights(b.rng, (32, 20))), b.constant("b1", _weights(b.rng, (32,)))],
        "fc1",
        transB=1,
    )
    h = b.node("Relu", [h], "relu1")
    h = b.node("MatMul", [h, b.constant("w2", _weights(b.rng, (32, 16)))], "fc2")
    b.node("Gemm", [h, b.constant("w3", _weights(b.rng, (16, 5))), b.constant("b3", _weights(b.rng, (5,)))], "fc3")
    return b.model("mlp_layers", [1, 20], "fc3", [1, 5], opset)


def cnn_layers_model(opset: int = OPSET, seed: int = 4) -> onnx.ModelProto:
    """The float32 CNN that qdq_models.py quantizes: input[1, 3, 12, 12] -> Conv 3x3 (pads 1) -> Relu ->
    MaxPool 2x2 -> depthwise Conv 3x3 stride 2 -> Relu -> Conv 1x1 -> Flatten -> Gemm(4) (logits)."""
    b = _Builder(seed)
    h = b.node(
        "Conv",
        ["input", b.constant("c1_w", _weights(b.rng, (8, 3, 3, 3))), b.constant("c1_b", _weights(b.rng, (8,)))],
        "conv1",
        pads=[1, 1, 1, 1],
    )
    h = b.node("Relu", [h], "relu1")
    h = b.node("MaxPool", [h], "pool1", kernel_shape=[2, 2], strides=[2, 2])
    h = b.node(
        "Conv",
        [h, b.constant("dw_w", _weights(b.rng, (8, 1, 3, 3))), b.constant("dw_b", _weights(b.rng, (8,)))],
        "depthwise",
        group=8,
        strides=[2, 2],
        pads=[0, 0, 1, 1],
    )
    h = b.node("Relu", [h], "relu2")
    h = b.node("Conv", [h, b.constant("c2_w", _weights(b.rng, (16, 8, 1, 1)))], "conv2")
    h = b.node("Flatten", [h], "flat")
    b.node(
        "Gemm",
        [h, b.constant("fc_w", _weights(b.rng, (4, 16 * 3 * 3), 0.1)), b.constant("fc_b", _weights(b.rng, (4,)))],
        "fc",
        transB=1,
    )
    return b.model("cnn_layers", [1, 3, 12, 12], "fc", [1, 4], opset)


def cnn1d_layers_model(opset: int = OPSET, seed: int = 5) -> onnx.ModelProto:
    """A 1-D audio-style CNN: input[1, 4, 32] -> Conv1d k5 (pads 2) -> Relu -> MaxPool1d 2 -> grouped Conv1d
    (group 2) k3 -> Relu -> depthwise Conv1d k3 stride 2 -> Relu -> Conv1d 1x1 -> Flatten -> Gemm(3) (logits)."""
    b = _Builder(seed)
    h = b.node(
        "Conv",
        ["input", b.constant("c1_w", _weights(b.rng, (8, 4, 5))), b.constant("c1_b", _weights(b.rng, (8,)))],
        "conv1",
        pads=[2, 2],
    )
    h = b.node("Relu", [h], "relu1")
    h = b.node("MaxPool", [h], "pool1", kernel_shape=[2], strides=[2])
    h = b.node(
        "Conv",
        [h, b.constant("g_w", _weights(b.rng, (8, 4, 3))), b.constant("g_b", _weights(b.rng, (8,)))],
        "grouped",
        group=2,
        pads=[1, 1],
    )
    h = b.node("Relu", [h], "relu2")
    h = b.node(
        "Conv",
        [h, b.constant("dw_w", _weights(b.rng, (8, 1, 3))), b.constant("dw_b", _weights(b.rng, (8,)))],
        "depthwise",
        group=8,
        strides=[2],
        pads=[1, 1],
    )
    h = b.node("Relu", [h], "relu3")
    h = b.node("Conv", [h, b.constant("c2_w", _weights(b.rng, (6, 8, 1)))], "conv2")
    h = b.node("Flatten", [h], "flat")
    b.node(
        "Gemm",
        [h, b.constant("fc_w", _weights(b.rng, (3, 6 * 8), 0.1)), b.constant("fc_b", _weights(b.rng, (3,)))],
        "fc",
        transB=1,
    )
    return b.model("cnn1d_layers", [1, 4, 32], "fc", [1, 3], opset)


MODELS = {"mlp": mlp_model, "cnn": cnn_model, "cnn1d": cnn1d_layers_model}

if __name__ == "__main__":
    for output in sys.argv[1:]:
        path = pathlib.Path(output)
        onnx.save(MODELS[path.stem](), str(path))
