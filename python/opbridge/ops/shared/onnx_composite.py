# SPDX-License-Identifier: Apache-2.0
"""ONNX ops that are not one opbridge operator: Identity and Dropout (aliases), Sum (ADDs), Clip (RELU,
RELU6, or MINIMUM and MAXIMUM) and a BatchNormalization that could not be folded into a Conv (MUL and ADD
per channel)."""

import numpy as np

from opbridge.frontends.onnx.batch_norm_folding import batch_norm_factors
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import reshape, reshape_to
from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import OnnxConverter


def convert_clip(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)

    def bound(position: int, default: float) -> float:
        if len(node.inputs) <= position or not node.inputs[position]:
            return default
        return float(conversion.constant_value(node.inputs[position], node, "the clip bound").reshape(()))

    low, high = bound(1, float("-inf")), bound(2, float("inf"))
    if (low, high) == (0.0, 6.0):
        conversion.emit("RELU6", [x], None, name=node.name, outputs=node.outputs)
    elif (low, high) == (0.0, float("inf")):
        conversion.emit("RELU", [x], None, name=node.name, outputs=node.outputs)
    elif high == float("inf") and low == float("-inf"):
        convert_identity(conversion, node)
    else:
        # An unbounded side needs no node (and no infinite constant).
        dtype = conversion.tensor(x).dtype
        if high != float("inf"):
            upper = conversion.constant(np.array(high), dtype, f"{node.name}/max")
            outputs = node.outputs if low == float("-inf") else 1
            (x,) = conversion.emit("MINIMUM", [x, upper], None, name=f"{node.name}/minimum", outputs=outputs)
        if low != float("-inf"):
            lower = conversion.constant(np.array(low), dtype, f"{node.name}/min")
            conversion.emit("MAXIMUM", [x, lower], None, name=node.name, outputs=node.outputs)


def convert_identity(conversion: OnnxConversion, node: OnnxNode) -> None:
    conversion.alias(node.outputs[0], conversion.value(node.inputs[0], node))


def convert_dropout(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Dropout at inference is the identity; its optional mask output is all true (a constant)."""
    if len(node.inputs) > 2 and node.inputs[2]:
        training = conversion.constant_value(node.inputs[2], node, "training_mode")
        if bool(np.asarray(training).reshape(-1)[0]):
            raise node.unsupported("training_mode is true", hint="export the model in inference mode (model.eval())")
    x = conversion.value(node.inputs[0], node)
    conversion.alias(node.outputs[0], x)
    if len(node.outputs) > 1 and node.outputs[1]:
        mask = conversion.constant(np.ones(conversion.tensor(x).shape, np.bool_), DType.BOOL, f"{node.name}/mask")
        conversion.alias(node.outputs[1], mask)


def convert_sum(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Sum of n inputs (broadcast): n - 1 ADDs, left to right as onnxruntime adds them."""
    inputs = [conversion.value(name, node) for name in node.inputs]
    if len(inputs) == 1:
        conversion.alias(node.outputs[0], inputs[0])
        return
    total = inputs[0]
    for position, operand in enumerate(inputs[1:], start=1):
        outputs: tuple[str, ...] | int = node.outputs if position == len(inputs) - 1 else 1
        name = node.name if position == len(inputs) - 1 else f"{node.name}/{position}"
        (total,) = conversion.emit("ADD", [total, operand], AddAttributes(), name=name, outputs=outputs)


def convert_batch_normalization(conversion: OnnxConversion, node: OnnxNode) -> None:
    """A BatchNormalization that fold_batch_norms could not fold into a Conv: MUL then ADD per channel."""
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if rank < 2 or conversion.tensor(x).dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {conversion.tensor(x).describe()}: expected float32 of rank 2 or more")
    factor, shift = batch_norm_factors(conversion, node)
    shape = conversion.tensor(x).shape
    if rank > 4:  # the element-wise kernels take rank 4 at most: the spatial axes as one
        x = reshape(conversion, x, (shape[0], shape[1], int(np.prod(shape[2:]))), f"{node.name}/flatten")
        rank = 3
    per_channel = (1, -1) + (1,) * (rank - 2)
    scale_input = conversion.constant(factor.reshape(per_channel), DType.FLOAT32, f"{node.name}/factor")
    shift_input = conversion.constant(shift.reshape(per_channel), DType.FLOAT32, f"{node.name}/shift")
    (scaled,) = conversion.emit("MUL", [x, scale_input], AddAttributes(), name=f"{node.name}/scale")
    if len(shape) == rank:
        conversion.emit("ADD", [scaled, shift_input], AddAttributes(), name=node.name, outputs=node.outputs)
        return
    (shifted,) = conversion.emit("ADD", [scaled, shift_input], AddAttributes(), name=f"{node.name}/shift")
    reshape_to(conversion, node, shifted, shape)


# Registered by the ONNX frontend itself: no operator folder owns these.
COMPOSITE_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Identity", convert_identity),
    OnnxConverter("Dropout", convert_dropout),
    OnnxConverter("Sum", convert_sum),
    OnnxConverter("Clip", convert_clip),
    OnnxConverter("BatchNormalization", convert_batch_normalization),
)
