# SPDX-License-Identifier: Apache-2.0
"""float32 numerics the operators share: every result is one float32 operation on float32 arrays,
rounded as the C kernels round it (IEEE-754 round to nearest, no fused multiply-add); sums are explicit
loops in the kernels' order, never np.sum (pairwise). Transcendental functions are computed in float64
and rounded once to float32 (libm's expf and tanhf may differ by an ulp or so)."""

from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.definition import Array, ReferenceCall

# std::numeric_limits<float>::lowest() and max(): the float32 clamp without a fused activation.
FLOAT32_LOWEST = float(np.finfo(np.float32).min)


FLOAT32_MAX = float(np.finfo(np.float32).max)


def float_activation_range(activation: Activation) -> tuple[float, float]:
    """TFLite's CalculateActivationRange for float32: the clamp of a fused activation.

    Without one the bounds are -FLT_MAX and FLT_MAX (not infinities), so an
    infinite float32 ADD, SUB, MUL, DIV or pooling result becomes +-FLT_MAX,
    as in TFLite Micro.
    """
    return {
        Activation.NONE: (FLOAT32_LOWEST, FLOAT32_MAX),
        Activation.RELU: (0.0, FLOAT32_MAX),
        Activation.RELU6: (0.0, 6.0),
        Activation.RELU_N1_TO_1: (-1.0, 1.0),
    }[activation]


def require_float32(node: Node, operands: list[tuple[str, Tensor]]) -> None:
    """Checks that each (role, tensor) is float32 (TFLite Micro's float kernels take one type throughout)."""
    for role, tensor in operands:
        if tensor.dtype is not DType.FLOAT32:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; the float32 "
                f"{node.op_type} needs float32 inputs and outputs",
                hint="give every input and output of the node one type (quantize the whole node, or none of it)",
            )


def clamp_float32(values: Array, low: float, high: float) -> Array:
    """TFLite's ActivationFunctionWithMinMax, std::min(std::max(x, low), high), on float32 (NaN passes)."""
    low_value, high_value = np.float32(low), np.float32(high)
    raised = np.where(values < low_value, low_value, values)
    return np.where(high_value < raised, high_value, raised).astype(np.float32)


def float32_exp(values: Array) -> Array:
    """exp in float64, rounded once to float32: a correctly rounded expf but for rare double roundings.

    libm's expf (glibc, newlib) is within an ulp of it; the golden C tests allow for that.
    """
    with np.errstate(over="ignore"):
        return np.exp(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_tanh(values: Array) -> Array:
    """tanh in float64, rounded once to float32 (libm's tanhf is within an ulp or two)."""
    return np.tanh(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_binary_reference(
    call: ReferenceCall, operation: Callable[[Array, Array], Array], activation: Activation | None
) -> list[Array]:
    """`operation` on two float32 inputs (broadcast NumPy-style), then the fused activation's clamp if any."""
    output = call.outputs[0]
    require_float32(
        call.node, [("input 0", call.input_tensor(0)), ("input 1", call.input_tensor(1)), ("output", output)]
    )
    first = np.asarray(call.value(0), dtype=np.float32)
    second = np.asarray(call.value(1), dtype=np.float32)
    with np.errstate(all="ignore"):  # x / 0 and overflow give inf or NaN, as in C
        result = np.asarray(operation(first, second), dtype=np.float32)
    if activation is not None:
        result = clamp_float32(result, *float_activation_range(activation))
    return [np.ascontiguousarray(np.broadcast_to(result, output.shape), dtype=np.float32)]


def float32_unary_reference(call: ReferenceCall, operation: Callable[[Array], Array]) -> list[Array]:
    """`operation` on one float32 input, element by element, as float32."""
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    with np.errstate(all="ignore"):
        result = operation(np.asarray(call.value(0), dtype=np.float32))
    return [np.asarray(result, dtype=np.float32).reshape(output.shape)]
