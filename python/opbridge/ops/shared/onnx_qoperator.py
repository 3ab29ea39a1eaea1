# SPDX-License-Identifier: Apache-2.0
"""onnxruntime's QOperator int8 ops (domain com.microsoft, what `quantize_static` writes with
`QuantFormat.QOperator`), onto the int8 built-ins. Each is a quantized form of one standard op and
converts through that op's own converter where the int8 built-in takes the node's parameters:

- QLinearAdd: ADD (int8, TFLite's arithmetic; onnxruntime adds in float32: within one step).
- QLinearGlobalAveragePool: MEAN over the spatial axes (int8), in onnxruntime's arithmetic
  (Requantization.ONNX: the centred int32 sum times one float32 scale, halves to even): bit-exact.
- QLinearAveragePool: AveragePool's converter on the int8 input when its parameters are the output's
  (AVERAGE_POOL_2D keeps them); otherwise DEQUANTIZE, the float32 pool, QUANTIZE (onnxruntime pools the
  dequantized values in float32 too).
- QLinearSoftmax: SOFTMAX (int8) when the output has TFLite's fixed 1/256 and -128, else DEQUANTIZE,
  the float32 SOFTMAX, QUANTIZE.
- QLinearSigmoid, QLinearLeakyRelu: onnxruntime computes a 256-entry table; so does opbridge, in the
  same float32 arithmetic (quantized_helpers.lookup_table), looked up with CAST, ADD and GATHER:
  bit-exact.
- QLinearConcat: CONCATENATION; an input whose parameters differ from the output's is first
  requantized through onnxruntime's own table (the identity's): bit-exact.

frontends/onnx/qdq_fusion.py turns the QDQ groups onnxruntime fuses into these ops (QDQ models) into the
same nodes. docs/onnx.md ("QOperator models") lists the differences measured against onnxruntime.
These live together, not in the operator folders, because each composes several folders' ops.
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import bind_nchw, reshape, to_nhwc
from opbridge.frontends.onnx.quantized_helpers import (
    MICROSOFT_DOMAIN,
    lookup_table,
    mlas_logistic,
    per_tensor,
    qlinear_input,
    requantization_of,
    same_quantization,
)
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.average_pool_2d.onnx import convert_pool
from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.gather.attributes import GatherAttributes
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.softmax.attributes import SoftmaxAttributes
from opbridge.ops.softmax.onnx import convert_softmax

# SOFTMAX's int8 output (TFLite's): scale 1/256, zero point -128.
SOFTMAX_OUTPUT = Quantization((1.0 / 256.0,), (-128,))


def _dequantize(conversion: OnnxConversion, node: OnnxNode, x: int) -> int:
    return conversion.emit("DEQUANTIZE", [x], None, name=f"{node.name}/dequantize")[0]


def _quantize(conversion: OnnxConversion, node: OnnxNode, x: int, output: Quantization) -> None:
    """The float32 tensor `x` quantized to the node's output as QuantizeLinear does (halves to even)."""
    attributes = QuantizeAttributes(requantization=Requantization.ONNX)
    conversion.emit("QUANTIZE", [x], attributes, name=node.name, outputs=node.outputs, quantization=[output])


def _through_float(conversion: OnnxConversion, node: OnnxNode, x: int, convert: Callable, output: Quantization) -> None:
    """DEQUANTIZE, the standard op's converter on float32, QUANTIZE."""
    dequantized = _dequantize(conversion, node, x)
    float_name = f"{node.name}/float"
    conversion.alias(float_name, dequantized)
    result_name = f"{node.name}/float_result"
    convert(conversion, dataclasses.replace(node, inputs=(float_name,), outputs=(result_name,)))
    _quantize(conversion, node, conversion.value(result_name, node), output)


def look_up(
    conversion: OnnxConversion,
    node: OnnxNode,
    x: int,
    table: np.ndarray,
    output: Quantization,
    *,
    name: str | None = None,
    outputs: tuple[str, ...] | int = 1,
) -> int:
    """GATHER of a 256-entry int8 table (for inputs -128..127) at position x + 128 (CAST to int32, ADD); the
    GATHER named `name` (default: the node's name + "/look_up") and bound to `outputs` (ONNX names, or a
    count of new values)."""
    widened = conversion.emit("CAST", [x], CastAttributes(DType.INT32), name=f"{node.name}/to_int32")[0]
    offset = conversion.constant(np.array(128, np.int32), DType.INT32, f"{node.name}/offset")
    positions = conversion.emit("ADD", [widened, offset], AddAttributes(), name=f"{node.name}/positions")[0]
    values = conversion.constant(table, DType.INT8, f"{node.name}/table", output)
    return conversion.emit(
        "GATHER",
        [values, positions],
        GatherAttributes(axis=0),
        name=f"{node.name}/look_up" if name is None else name,
        outputs=outputs,
        quantization=[output],
    )[0]


def convert_qlinear_add(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearAdd(A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, C_zero_point) -> int8 ADD."""
    a = qlinear_input(conversion, node, 0, 1, 2)
    b = qlinear_input(conversion, node, 3, 4, 5)
    output = per_tensor(conversion, node, 6, 7, "output")
    conversion.emit("ADD", [a, b], AddAttributes(), name=node.name, outputs=node.outputs, quantization=[output])


def _unary_table(function: Callable[[OnnxNode], Callable[[np.ndarray], np.ndarray]]) -> Callable:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        """QLinear<op>(X, X_scale, X_zero_point, Y_scale, Y_zero_point) -> the table lookup."""
        x = qlinear_input(conversion, node, 0, 1, 2)
        output = per_tensor(conversion, node, 3, 4, "output")
        table = lookup_table(conversion.tensor(x).quantization, output, function(node))  # type: ignore[arg-type]
        look_up(conversion, node, x, table, output, name=node.name, outputs=node.outputs)

    return convert


def _leaky_relu(node: OnnxNode) -> Callable[[np.ndarray], np.ndarray]:
    alpha = np.float32(node.attribute("alpha", 0.01))
    return lambda v: np.where(v >= np.float32(0.0), v, (alpha * v).astype(np.float32))


def convert_qlinear_concat(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearConcat(Y_scale, Y_zero_point, (X, X_scale, X_zero_point)...) -> int8 CONCATENATION, each
    input of other parameters than the output's first requantized through onnxruntime's table."""
    if "axis" not in node.attributes:
        raise node.unsupported("no axis attribute", hint="the model is damaged; re-export it")
    if len(node.inputs) < 5 or (len(node.inputs) - 2) % 3:
        raise node.unsupported(f"{len(node.inputs)} inputs: expected Y_scale, Y_zero_point and (X, scale, zero point)s")
    output = per_tensor(conversion, node, 0, 1, "output")
    inputs: list[int | None] = []
    for position in range(2, len(node.inputs), 3):
        x = qlinear_input(conversion, node, position, position + 1, position + 2)
        input_q: Quantization = conversion.tensor(x).quantization  # type: ignore[assignment]
        if not same_quantization(input_q, output):
            table = lookup_table(input_q, output, lambda v: v)
            x = look_up(
                conversion, dataclasses.replace(node, name=f"{node.name}/requantize_{position // 3}"), x, table, output
            )
        inputs.append(x)
    attributes = ConcatenationAttributes(axis=int(node.attribute("axis", 0)))
    conversion.emit("CONCATENATION", inputs, attributes, name=node.name, outputs=node.outputs, quantization=[output])


def convert_qlinear_global_average_pool(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearGlobalAveragePool(X, x_scale, x_zero_point, y_scale, y_zero_point) -> int8 MEAN over the
    spatial axes, kept (channels first, or last with channels_last=1), in onnxruntime's arithmetic (the
    int32 sum, one float32 scale; TFLite's with onnx_int8_arithmetic "tflite"). A 2-D map channels
    first is averaged as NHWC (the kernel's spatial sums; the transposes from the convolutions before
    it cancel); more than two spatial axes are flattened into one first (the same sums)."""
    x = qlinear_input(conversion, node, 0, 1, 2)
    output = per_tensor(conversion, node, 3, 4, "output")
    shape = conversion.tensor(x).shape
    rank = len(shape)
    if rank < 3:
        raise node.unsupported(f"an input of rank {rank}; expected a batch, channels and spatial axes")
    channels_last = bool(int(node.attribute("channels_last", 0)))
    spatial = range(1, rank - 1) if channels_last else range(2, rank)
    attributes = MeanAttributes(keep_dims=True, requantization=requantization_of(node))

    def mean(values: int, axes: list[int], *, name: str | None = None, outputs: tuple[str, ...] | int = 1) -> int:
        axes_index = conversion.constant(np.array(axes, np.int32), DType.INT32, f"{node.name}/axes")
        return conversion.emit(
            "MEAN",
            [values, axes_index],
            attributes,
            name=f"{node.name}/mean" if name is None else name,
            outputs=outputs,
            quantization=[output],
        )[0]

    if rank == 4 and not channels_last:
        bind_nchw(conversion, node, mean(to_nhwc(conversion, node, x), [1, 2]))
    elif rank <= 4:
        mean(x, list(spatial), name=node.name, outputs=node.outputs)
    else:
        batch, positions = shape[0], int(np.prod(shape[1:-1] if channels_last else shape[2:]))
        channels = shape[-1] if channels_last else shape[1]
        flat = (batch, positions, channels) if channels_last else (batch, channels, positions)
        pooled = mean(reshape(conversion, x, flat, f"{node.name}/flatten"), [1 if channels_last else 2])
        kept = [1 if axis in spatial else size for axis, size in enumerate(shape)]
        target = conversion.constant(np.array(kept, np.int32), DType.INT32, f"{node.name}/shape")
        conversion.emit("RESHAPE", [pooled, target], None, name=node.name, outputs=node.outputs)


def convert_qlinear_average_pool(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearAveragePool(X, x_scale, x_zero_point, y_scale, y_zero_point) -> AveragePool's converter on
    int8 when the parameters are equal, else on the dequantized input, then QUANTIZE."""
    if int(node.attribute("channels_last", 0)):
        raise node.unsupported("channels_last=1", hint="quantize the model from its channels-first form")
    x = qlinear_input(conversion, node, 0, 1, 2)
    output = per_tensor(conversion, node, 3, 4, "output")
    pool = convert_pool("AVERAGE_POOL_2D")
    attributes = {k: v for k, v in node.attributes.items() if k != "channels_last"}
    standard = dataclasses.replace(node, domain="", op_type="AveragePool", attributes=attributes)
    if same_quantization(conversion.tensor(x).quantization, output):  # type: ignore[arg-type]
        pool(conversion, dataclasses.replace(standard, inputs=(node.inputs[0],)))
        return
    _through_float(conversion, standard, x, pool, output)


def convert_qlinear_softmax(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearSoftmax(X, X_scale, x_zero_point, y_scale, y_zero_point) -> int8 SOFTMAX over the last axis
    (output scale 1/256, zero point -128), else DEQUANTIZE, SOFTMAX, QUANTIZE."""
    x = qlinear_input(conversion, node, 0, 1, 2)
    output = per_tensor(conversion, node, 3, 4, "output")
    rank = len(conversion.tensor(x).shape)
    opset = int(node.attribute("opset", 13))
    axis = int(node.attribute("axis", -1 if opset >= 13 else 1))
    if axis % max(rank, 1) != rank - 1:
        raise node.unsupported(f"axis={axis} of an input of rank {rank}: only the last axis", hint="transpose it last")
    standard = dataclasses.replace(node, domain="", op_type="Softmax", attributes={"axis": -1})
    if same_quantization(output, SOFTMAX_OUTPUT):
        conversion.emit(
            "SOFTMAX", [x], SoftmaxAttributes(beta=1.0), name=node.name, outputs=node.outputs, quantization=[output]
        )
        return
    _through_float(conversion, standard, x, convert_softmax, output)


QOPERATOR_CONVERTERS: tuple[OnnxConverter, ...] = tuple(
    OnnxConverter(op_type, convert, domain=MICROSOFT_DOMAIN)
    for op_type, convert in (
        ("QLinearAdd", convert_qlinear_add),
        ("QLinearSigmoid", _unary_table(lambda node: mlas_logistic)),
        ("QLinearLeakyRelu", _unary_table(_leaky_relu)),
        ("QLinearConcat", convert_qlinear_concat),
        ("QLinearGlobalAveragePool", convert_qlinear_global_average_pool),
        ("QLinearAveragePool", convert_qlinear_average_pool),
        ("QLinearSoftmax", convert_qlinear_softmax),
    )
)
