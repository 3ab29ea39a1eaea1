# SPDX-License-Identifier: Apache-2.0
"""QDQ int8 versions of small ONNX models, built with onnx.helper: an MLP and a CNN.

`qdq_model` quantizes a float32 model the way onnxruntime's static
quantizer does with QuantFormat.QDQ and int8 activations and weights: each
activation gets a QuantizeLinear -> DequantizeLinear pair whose scale and
zero point come from its range over calibration inputs (asymmetric; a
Relu's output starts at 0, so its zero point is -128), weights become int8
constants behind a DequantizeLinear (symmetric, per output channel for Conv
and Gemm, per tensor for MatMul), biases int32 at scale input * weight.
MaxPool and Flatten keep their input's quantization. A Relu right after a
Conv or Gemm is kept in the graph; its QDQ pair follows it.

The models output their last int8 tensor dequantized ("<name>_dq": exactly
scale * (q - zero_point), so comparing it compares the int8 values bit for
bit). onnxruntime fuses every DequantizeLinear -> op -> QuantizeLinear
group of these models into QLinearConv, QLinearMatMul and QGemm, but only
while the QuantizeLinear output has one reader and is not a graph output;
hence no int8 graph output and no float op (a Softmax) after the logits.

`python qdq_models.py OUT_DIR/qdq_mlp.onnx ...` writes them (for aot_model).
"""

import pathlib
import sys

import numpy as np
import onnx
import onnxruntime
from models import OPSET, cnn1d_layers_model, cnn_layers_model, mlp_layers_model
from onnx import TensorProto, helper, numpy_helper

WEIGHTED = ("Conv", "Gemm", "MatMul")
SAME_QUANTIZATION = ("MaxPool", "Flatten", "Reshape")


def activation_ranges(model: onnx.ModelProto, calibration: np.ndarray) -> dict[str, tuple[float, float]]:
    """(min, max) of the input and of every node output over the calibration batch, run by onnxruntime."""
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    known = {output.name for output in probe.graph.output}
    for node in probe.graph.node:
        for name in node.output:
            if name not in known:
                probe.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    session = onnxruntime.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [output.name for output in session.get_outputs()]
    low = {name: np.inf for name in [*names, "input"]}
    high = {name: -np.inf for name in [*names, "input"]}
    for sample in calibration:
        values = dict(zip(names, session.run(None, {"input": sample[None]}), strict=True))
        values["input"] = sample
        for name, value in values.items():
            low[name] = min(low[name], float(value.min()))
            high[name] = max(high[name], float(value.max()))
    return {name: (low[name], high[name]) for name in low}


def asymmetric(low: float, high: float) -> tuple[np.float32, np.int8]:
    low, high = min(low, 0.0), max(high, 0.0)
    scale = np.float32(max(high - low, 1e-6) / 255.0)
    zero_point = int(np.clip(np.round(-128 - low / float(scale)), -128, 127))
    return scale, np.int8(zero_point)


class _QdqBuilder:
    def __init__(self, model: onnx.ModelProto) -> None:
        self.float_weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.quantization: dict[str, tuple[np.float32, np.int8]] = {}  # float value -> its QDQ parameters

    def constant(self, name: str, array: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def qdq(self, value: str, scale: np.float32, zero_point: np.int8) -> str:
        """value -> QuantizeLinear -> DequantizeLinear; returns the DequantizeLinear output."""
        s = self.constant(f"{value}_scale", np.array(scale, np.float32))
        z = self.constant(f"{value}_zero_point", np.array(zero_point, np.int8))
        self.nodes.append(helper.make_node("QuantizeLinear", [value, s, z], [f"{value}_q"], name=f"{value}_q"))
        self.nodes.append(
            helper.make_node("DequantizeLinear", [f"{value}_q", s, z], [f"{value}_dq"], name=f"{value}_dq")
        )
        self.quantization[value] = (scale, zero_point)
        return f"{value}_dq"

    def weights(self, node: onnx.NodeProto, input_scale: np.float32) -> list[str]:
        """The weight and bias inputs of a Conv, Gemm or MatMul as DequantizeLinear outputs."""
        weights = self.float_weights[node.input[1]]
        transposed = node.op_type == "Gemm" and any(a.name == "transB" and a.i for a in node.attribute)
        if node.op_type == "MatMul":  # per tensor
            axis, scales = None, np.array([np.abs(weights).max() / 127.0], np.float32)
        else:  # per output channel: Conv's axis 0, Gemm's B column (row if transB)
            axis = 0 if node.op_type == "Conv" or transposed else 1
            other = tuple(a for a in range(weights.ndim) if a != axis)
            scales = (np.abs(weights).max(axis=other) / 127.0).astype(np.float32)
        shape = [-1 if a == axis else 1 for a in range(weights.ndim)]
        quantized = np.clip(np.round(weights / scales.reshape(shape)), -127, 127).astype(np.int8)
        attributes = {} if axis is None else {"axis": axis}
        scale_name = self.constant(f"{node.name}_w_scale", scales if axis is not None else scales[0])
        zero_name = self.constant(
            f"{node.name}_w_zero_point", np.zeros(scales.shape if axis is not None else (), np.int8)
        )
        w_q = self.constant(f"{node.name}_w_q", quantized)
        inputs = [self._dequantize(f"{node.name}_w", [w_q, scale_name, zero_name], attributes)]
        if len(node.input) > 2:
            bias = self.float_weights[node.input[2]].reshape(-1)
            bias_scales = (input_scale * scales).astype(np.float32)
            quantized_bias = np.round(bias / bias_scales).astype(np.int32)
            b_scale = self.constant(f"{node.name}_b_scale", bias_scales if axis is not None else bias_scales[0])
            b_zero = self.constant(
                f"{node.name}_b_zero_point", np.zeros(bias_scales.shape if axis is not None else (), np.int32)
            )
            b_q = self.constant(f"{node.name}_b_q", quantized_bias)
            inputs.append(
                self._dequantize(f"{node.name}_b", [b_q, b_scale, b_zero], {"axis": 0} if axis is not None else {})
            )
        return inputs

    def _dequantize(self, name: str, inputs: list[str], attributes: dict) -> str:
        self.nodes.append(helper.make_node("DequantizeLinear", inputs, [f"{name}_dq"], name=f"{name}_dq", **attributes))
        return f"{name}_dq"


def qdq_model(model: onnx.ModelProto, calibration: np.ndarray) -> onnx.ModelProto:
    """The QDQ int8 form of a float32 chain of Conv, Gemm, MatMul, Relu, MaxPool and Flatten."""
    ranges = activation_ranges(model, calibration)
    builder = _QdqBuilder(model)
    readers: dict[str, list[str]] = {}
    for node in model.graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node.op_type)
    renamed = {"input": builder.qdq("input", *asymmetric(*ranges["input"]))}
    logits = ""
    for node in model.graph.node:
        inputs = [renamed.get(name, name) for name in node.input]
        output = node.output[0]
        if node.op_type in WEIGHTED:
            inputs = [inputs[0], *builder.weights(node, builder.quantization[node.input[0]][0])]
        elif node.op_type not in ("Relu", *SAME_QUANTIZATION):
            raise ValueError(f"qdq_model does not quantize {node.op_type}")
        fused = helper.make_node(node.op_type, inputs, [output], name=node.name)
        fused.attribute.extend(node.attribute)
        builder.nodes.append(fused)
        if node.op_type in SAME_QUANTIZATION:
            renamed[output] = builder.qdq(output, *builder.quantization[node.input[0]])
        elif readers.get(output) != ["Relu"]:  # a Relu right after keeps the QDQ pair after it
            renamed[output] = builder.qdq(output, *asymmetric(*ranges[output]))
            logits = output
    input_shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    output_shape = [d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    graph = helper.make_graph(
        builder.nodes,
        f"qdq_{model.graph.name}",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, input_shape)],
        [helper.make_tensor_value_info(f"{logits}_dq", TensorProto.FLOAT, output_shape)],
        builder.initializers,
    )
    quantized = helper.make_model(graph, opset_imports=list(model.opset_import))
    onnx.checker.check_model(quantized, full_check=True)
    return quantized


def calibration_inputs(model: onnx.ModelProto, count: int = 32, seed: int = 7) -> np.ndarray:
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    return np.random.default_rng(seed).uniform(-1, 1, size=(count, *shape[1:])).astype(np.float32)


def qdq_mlp_model(opset: int = OPSET) -> onnx.ModelProto:
    model = mlp_layers_model(opset)
    return qdq_model(model, calibration_inputs(model))


def qdq_cnn_model(opset: int = OPSET) -> onnx.ModelProto:
    model = cnn_layers_model(opset)
    return qdq_model(model, calibration_inputs(model))


def qdq_cnn1d_model(opset: int = OPSET) -> onnx.ModelProto:
    model = cnn1d_layers_model(opset)
    return qdq_model(model, calibration_inputs(model))


QDQ_MODELS = {"qdq_mlp": qdq_mlp_model, "qdq_cnn": qdq_cnn_model, "qdq_cnn1d": qdq_cnn1d_model}

if __name__ == "__main__":
    for output in sys.argv[1:]:
        path = pathlib.Path(output)
        onnx.save(QDQ_MODELS[path.stem](), str(path))
