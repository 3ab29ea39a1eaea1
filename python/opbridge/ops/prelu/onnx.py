# SPDX-License-Identifier: Apache-2.0
"""PRELU from ONNX: PRelu(X, slope) on float32, the slope broadcast to X (unidirectionally, as ONNX requires).
onnxruntime keeps -0.0 and propagates NaN as TFLite Micro does, so the two agree bit for bit."""

from opbridge.errors import ModelFormatError
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import reshape, reshape_to
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter


def convert_prelu(conversion: OnnxConversion, node: OnnxNode) -> None:
    x, slope = conversion.value(node.inputs[0], node), conversion.value(node.inputs[1], node)
    x_tensor, slope_tensor = conversion.tensor(x), conversion.tensor(slope)
    for role, tensor in (("X", x_tensor), ("slope", slope_tensor)):
        if tensor.dtype is not DType.FLOAT32:
            raise node.unsupported(
                f"{role} ({tensor.name!r}) is {tensor.dtype.value}; opbridge's PRELU is float32 only",
                hint="export the model in float32 (or Cast the operands to float32 before PRelu)",
            )
    x_shape, slope_shape = x_tensor.shape, slope_tensor.shape
    aligned = zip(reversed(slope_shape), reversed(x_shape), strict=False)
    if len(slope_shape) > len(x_shape) or any(size not in (1, x_size) for size, x_size in aligned):
        raise ModelFormatError(
            f"{node.describe()}: slope shape {list(slope_shape)} does not broadcast to X's {list(x_shape)}",
            hint="ONNX PRelu broadcasts the slope to X's shape only; the model is inconsistent",
        )
    if len(x_shape) > 4 and slope_tensor.data is not None:
        merged = merged_axes(x_shape, (1,) * (len(x_shape) - len(slope_shape)) + tuple(slope_shape))
        if merged is not None:
            x_merged, slope_merged = merged
            flat = reshape(conversion, x, x_merged, f"{node.name}/merge")
            slope = conversion.constant(slope_tensor.data.reshape(slope_merged), DType.FLOAT32, f"{node.name}/slope")
            (result,) = conversion.emit("PRELU", [flat, slope], None, name=f"{node.name}/prelu")
            reshape_to(conversion, node, result, x_shape)
            return
    conversion.emit("PRELU", [x, slope], None, name=node.name, outputs=node.outputs)


def merged_axes(
    x_shape: tuple[int, ...], slope_shape: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """X's and the slope's shapes with neighbouring axes merged where the slope is broadcast on all
    of them or on none (the kernels take rank 4 at most), or None when that leaves more than 4 axes."""
    groups: list[tuple[int, int]] = []  # (X size, slope size) per merged axis
    for x_size, slope_size in zip(x_shape, slope_shape, strict=True):
        broadcast = slope_size == 1 and x_size != 1
        if groups and (groups[-1][1] == 1 and groups[-1][0] != 1) == broadcast:
            groups[-1] = (groups[-1][0] * x_size, groups[-1][1] * slope_size)
        else:
            groups.append((x_size, slope_size))
    if len(groups) > 4:
        return None
    return tuple(g[0] for g in groups), tuple(g[1] for g in groups)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("PRelu", convert_prelu),)
