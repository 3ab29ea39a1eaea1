# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED from ONNX: Gemm and MatMul (float32; B constant, or a 2-D matrix the model
computes), QLinearMatMul and onnxruntime's QGemm (int8)."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import Int8Operands, require_attribute, reshape, reshape_to, transpose
from opbridge.frontends.onnx.quantized_helpers import MICROSOFT_DOMAIN, int32_bias, qlinear_operands, requantization_of
from opbridge.ir import DType
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes


def convert_gemm(conversion: OnnxConversion, node: OnnxNode) -> None:
    a = conversion.value(node.inputs[0], node)
    has_c = len(node.inputs) > 2 and bool(node.inputs[2]) and float(node.attribute("beta", 1.0)) != 0.0
    if conversion.tensor(conversion.value(node.inputs[1], node)).data is None or (
        has_c and conversion.tensor(conversion.value(node.inputs[2], node)).data is None
    ):
        activation_product(conversion, node, a, has_c)
        return
    b = conversion.constant_value(node.inputs[1], node, "B")
    c = conversion.constant_value(node.inputs[2], node, "C") if has_c else None
    if c is not None:
        c = (np.float32(node.attribute("beta", 1.0)) * c.astype(np.float32)).astype(np.float32)
    gemm(conversion, node, a, b, c, None)


def activation_product(conversion: OnnxConversion, node: OnnxNode, a: int, has_c: bool) -> None:
    """A float32 Gemm or MatMul whose B (or C) is computed by the model, not a constant: B transposed to
    [units, depth] by a TRANSPOSE (unless transB), a FULLY_CONNECTED reading it as its weights, then
    an ADD of C (broadcast) when C is not constant."""
    require_attribute(node, "transA", 0, 0)
    require_attribute(node, "alpha", 1.0, 1.0)
    b = conversion.value(node.inputs[1], node)
    b_tensor = conversion.tensor(b)
    if len(b_tensor.shape) != 2 or b_tensor.dtype is not DType.FLOAT32:
        raise node.unsupported(f"B {b_tensor.describe()}: a computed B must be a 2-D float32 matrix")
    if not node.attribute("transB", 0):
        b = transpose(conversion, b, (1, 0), f"{node.name}/b_transposed")
    attributes = FullyConnectedAttributes(
        keep_num_dims=node.op_type == "MatMul" and len(conversion.tensor(a).shape) > 2
    )
    if not has_c:
        conversion.emit("FULLY_CONNECTED", [a, b], attributes, name=node.name, outputs=node.outputs)
        return
    require_attribute(node, "beta", 1.0, 1.0)
    (product,) = conversion.emit("FULLY_CONNECTED", [a, b], attributes, name=f"{node.name}/product")
    c = conversion.value(node.inputs[2], node)
    conversion.emit("ADD", [product, c], AddAttributes(), name=node.name, outputs=node.outputs)


def gemm(
    conversion: OnnxConversion, node: OnnxNode, a: int, b: np.ndarray, c: np.ndarray | None, int8: Int8Operands | None
) -> None:
    """Gemm (float32) or QGemm (int8: `int8` set, C int32) as a FULLY_CONNECTED."""
    require_attribute(node, "transA", 0, 0)
    require_attribute(node, "alpha", 1.0, 1.0)
    if b.ndim != 2:
        raise node.unsupported(f"B has rank {b.ndim}; only a 2-D constant B is supported")
    weights = b if node.attribute("transB", 0) else b.T  # FULLY_CONNECTED takes [units, depth]
    bias = None
    if c is not None:
        units = weights.shape[0]
        if c.size not in (1, units):
            raise node.unsupported(f"C of shape {list(c.shape)}: only one bias per output unit ({units}) or a scalar")
        bias = np.broadcast_to(c.reshape(-1), (units,))
    fully_connected(conversion, node, a, weights, bias, int8, keep_num_dims=False)


def convert_matmul(conversion: OnnxConversion, node: OnnxNode) -> None:
    a = conversion.value(node.inputs[0], node)
    a_shape = conversion.tensor(a).shape
    if len(a_shape) == 1:
        # A vector times a matrix is [1, K] x [K, N] with the 1 dropped (numpy.matmul's rule).
        matrix = reshape(conversion, a, (1, a_shape[0]), f"{node.name}/as_row")
        row_node = dataclasses.replace(
            node, inputs=(f"{node.name}/as_row:value", *node.inputs[1:]), outputs=(f"{node.name}/row",)
        )
        conversion.alias(row_node.inputs[0], matrix)
        convert_matmul(conversion, row_node)
        row = conversion.value(row_node.outputs[0], node)
        reshape_to(conversion, node, row, conversion.tensor(row).shape[1:])
        return
    if conversion.tensor(conversion.value(node.inputs[1], node)).data is None:
        activation_product(conversion, node, a, has_c=False)
        return
    b = conversion.constant_value(node.inputs[1], node, "B (the second operand)")
    if b.ndim != 2:
        raise node.unsupported(f"B has rank {b.ndim}; only a 2-D constant B is supported")
    fully_connected(conversion, node, a, b.T, None, None, keep_num_dims=len(conversion.tensor(a).shape) > 2)


def fully_connected(
    conversion: OnnxConversion,
    node: OnnxNode,
    a: int,
    weights: np.ndarray,
    bias: np.ndarray | None,
    int8: Int8Operands | None,
    *,
    keep_num_dims: bool,
) -> None:
    """A FULLY_CONNECTED of [units, depth] weights; int8 (ONNX requantization) when `int8` is set."""
    dtype = conversion.tensor(a).dtype
    filter_q = None if int8 is None else int8.filter_quantization(axis=0)
    inputs: list[int | None] = [a, conversion.constant(weights, dtype, f"{node.name}/weights", filter_q)]
    if bias is not None:
        bias_dtype = DType.INT32 if int8 is not None else dtype
        inputs.append(conversion.constant(bias, bias_dtype, f"{node.name}/bias"))
    attributes = FullyConnectedAttributes(
        activation=Activation.NONE if int8 is None else int8.activation,
        keep_num_dims=keep_num_dims,
        requantization=Requantization.TFLITE if int8 is None else requantization_of(node),
    )
    quantization = None if int8 is None else [int8.output]
    conversion.emit(
        "FULLY_CONNECTED", inputs, attributes, name=node.name, outputs=node.outputs, quantization=quantization
    )


def convert_qlinear_matmul(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp), b a 2-D constant -> int8 FULLY_CONNECTED."""
    a, b, int8 = qlinear_operands(
        conversion, node, weights_rank=2, channels=lambda w: w.shape[1], output_at=6, symmetric=False
    )
    keep = len(conversion.tensor(a).shape) > 2
    fully_connected(conversion, node, a, b.T, None, int8, keep_num_dims=keep)


def convert_qgemm(conversion: OnnxConversion, node: OnnxNode) -> None:
    """onnxruntime's QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp) -> int8 FULLY_CONNECTED."""
    if len(node.inputs) < 8 or not node.inputs[7]:
        raise node.unsupported("no y_scale: QGemm then outputs float32", hint="quantize the output")
    units_axis = 0 if node.attribute("transB", 0) else 1
    a, b, int8 = qlinear_operands(
        conversion, node, weights_rank=2, channels=lambda w: w.shape[units_axis], output_at=7, symmetric=False
    )
    gemm(conversion, node, a, b, int32_bias(conversion, node, 6), int8)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Gemm", convert_gemm),
    OnnxConverter("MatMul", convert_matmul),
    OnnxConverter("QLinearMatMul", convert_qlinear_matmul),
    OnnxConverter("QGemm", convert_qgemm, domain=MICROSOFT_DOMAIN, min_opset=13, max_opset=21),
)
