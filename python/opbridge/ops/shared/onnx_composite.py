# SPDX-License-Identifier: Apache-2.0
"""ONNX ops that are not one opbridge operator: Identity and Dropout (aliases), Sum (ADDs), Clip (RELU,
RELU6, or MINIMUM and MAXIMUM), a BatchNormalization that could not be folded into a Conv (MUL and ADD
per channel), InstanceNormalization (MEAN, SUB, MUL, ADD, SQRT, DIV), Softsign (ABS, ADD, DIV) and
HardSigmoid (MUL, ADD, MINIMUM, MAXIMUM). HardSwish is HARD_SWISH's (ops/hard_swish/onnx.py)."""

import numpy as np

from opbridge.frontends.onnx.batch_norm_folding import batch_norm_factors
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import convert_variadic, reshape, reshape_to
from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.div.attributes import DivAttributes
from opbridge.ops.mean.attributes import MeanAttributes


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


def convert_softsign(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Softsign: x / (1 + |x|), as ABS, ADD and DIV (the float32 operations onnxruntime does)."""
    x = conversion.value(node.inputs[0], node)
    one = conversion.constant(np.array(1.0, np.float32), DType.FLOAT32, f"{node.name}/one")
    (magnitude,) = conversion.emit("ABS", [x], None, name=f"{node.name}/abs")
    (denominator,) = conversion.emit("ADD", [magnitude, one], AddAttributes(), name=f"{node.name}/plus_one")
    conversion.emit("DIV", [x, denominator], DivAttributes(), name=node.name, outputs=node.outputs)


def hard_sigmoid(conversion: OnnxConversion, node: OnnxNode, x: int, alpha: float, beta: float, outputs: tuple) -> int:
    """max(0, min(1, alpha * x + beta)) as MUL, ADD, MINIMUM and MAXIMUM (onnxruntime's order)."""
    name = node.name
    alpha_index = conversion.constant(np.array(alpha, np.float32), DType.FLOAT32, f"{name}/alpha")
    beta_index = conversion.constant(np.array(beta, np.float32), DType.FLOAT32, f"{name}/beta")
    zero = conversion.constant(np.array(0.0, np.float32), DType.FLOAT32, f"{name}/zero")
    one = conversion.constant(np.array(1.0, np.float32), DType.FLOAT32, f"{name}/one")
    (scaled,) = conversion.emit("MUL", [x, alpha_index], AddAttributes(), name=f"{name}/scaled")
    (shifted,) = conversion.emit("ADD", [scaled, beta_index], AddAttributes(), name=f"{name}/shifted")
    (capped,) = conversion.emit("MINIMUM", [shifted, one], None, name=f"{name}/at_most_one")
    hard = outputs or 1
    return conversion.emit("MAXIMUM", [capped, zero], None, name=f"{name}/hard_sigmoid", outputs=hard)[0]


def convert_hard_sigmoid(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    alpha, beta = float(node.attribute("alpha", 0.2)), float(node.attribute("beta", 0.5))
    hard_sigmoid(conversion, node, x, alpha, beta, node.outputs)


def convert_instance_normalization(conversion: OnnxConversion, node: OnnxNode) -> None:
    """InstanceNormalization(x, scale, B) on float32 [N, C, spatial...]: per sample and channel,
    (x - mean) / sqrt(variance + epsilon) * scale + B, with the mean and the (biased) variance over
    the spatial axes, from MEAN, SUB, MUL, ADD, SQRT and DIV."""
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    rank = len(shape)
    if rank < 3 or conversion.tensor(x).dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {conversion.tensor(x).describe()}: expected float32 of rank 3 or more")
    per_channel = (1, -1) + (1,) * (rank - 2)
    scale = conversion.constant_value(node.inputs[1], node, "the scale").astype(np.float32).reshape(per_channel)
    bias = conversion.constant_value(node.inputs[2], node, "the bias").astype(np.float32).reshape(per_channel)
    epsilon = np.float32(node.attribute("epsilon", 1e-5))
    name = node.name
    axes = conversion.constant(np.arange(2, rank, dtype=np.int32), DType.INT32, f"{name}/axes")
    kept = MeanAttributes(keep_dims=True)
    (mean,) = conversion.emit("MEAN", [x, axes], kept, name=f"{name}/mean")
    (centred,) = conversion.emit("SUB", [x, mean], AddAttributes(), name=f"{name}/centred")
    (squares,) = conversion.emit("MUL", [centred, centred], AddAttributes(), name=f"{name}/squares")
    (variance,) = conversion.emit("MEAN", [squares, axes], kept, name=f"{name}/variance")
    epsilon_index = conversion.constant(np.array(epsilon), DType.FLOAT32, f"{name}/epsilon")
    (shifted,) = conversion.emit("ADD", [variance, epsilon_index], AddAttributes(), name=f"{name}/plus_epsilon")
    (deviation,) = conversion.emit("SQRT", [shifted], None, name=f"{name}/deviation")
    (normalized,) = conversion.emit("DIV", [centred, deviation], DivAttributes(), name=f"{name}/normalized")
    scale_index = conversion.constant(scale, DType.FLOAT32, f"{name}/scale")
    (scaled,) = conversion.emit("MUL", [normalized, scale_index], AddAttributes(), name=f"{name}/scaled")
    bias_index = conversion.constant(bias, DType.FLOAT32, f"{name}/bias")
    conversion.emit("ADD", [scaled, bias_index], AddAttributes(), name=name, outputs=node.outputs)


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
    OnnxConverter("Sum", convert_variadic("ADD", AddAttributes())),
    OnnxConverter("InstanceNormalization", convert_instance_normalization),
    OnnxConverter("Softsign", convert_softsign),
    OnnxConverter("HardSigmoid", convert_hard_sigmoid),
    OnnxConverter("Clip", convert_clip),
    OnnxConverter("BatchNormalization", convert_batch_normalization),
)
