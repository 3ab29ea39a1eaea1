# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED from ONNX: Gemm and MatMul with a constant B (float32), QLinearMatMul and
onnxruntime's QGemm (int8)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import Int8Operands, require_attribute
from opbridge.frontends.onnx.quantized_helpers import MICROSOFT_DOMAIN, int32_bias, qlinear_operands
from opbridge.ir import DType
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes


def convert_gemm(conversion: OnnxConversion, node: OnnxNode) -> None:
    a = conversion.value(node.inputs[0], node)
    b = conversion.constant_value(node.inputs[1], node, "B")
    c = conversion.constant_value(node.inputs[2], node, "C") if len(node.inputs) > 2 and node.inputs[2] else None
    gemm(conversion, node, a, b, c, None)


def gemm(
    conversion: OnnxConversion, node: OnnxNode, a: int, b: np.ndarray, c: np.ndarray | None, int8: Int8Operands | None
) -> None:
    """Gemm (float32) or QGemm (int8: `int8` set, C int32) as a FULLY_CONNECTED."""
    require_attribute(node, "transA", 0, 0)
    require_attribute(node, "alpha", 1.0, 1.0)
    if int8 is None:
        require_attribute(node, "beta", 1.0, 1.0)
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
        requantization=Requantization.TFLITE if int8 is None else Requantization.ONNX,
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
