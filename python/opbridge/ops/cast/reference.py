# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's CAST: a C++ static_cast of each element.

Integer targets keep the low bits of the value (two's complement wrap-around,
not saturation: int32 300 becomes int8 44, int32 -1 becomes uint32
4294967295); float32 targets round to nearest; bools read as 0 or 1.
TFLite Micro also casts from float32, but a float outside the target's
range has no defined result, so opbridge does not take float inputs.
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.integer import wrap_integers

CAST_INPUT_DTYPES = (DType.BOOL, DType.INT8, DType.INT16, DType.INT32, DType.UINT32)
CAST_OUTPUT_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.UINT32, DType.FLOAT32)


def check_cast(node: Node, input_tensor: Tensor, output: Tensor) -> None:
    for role, tensor, allowed in (
        ("input", input_tensor, CAST_INPUT_DTYPES),
        ("output", output, CAST_OUTPUT_DTYPES),
    ):
        if tensor.dtype not in allowed:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; opbridge's CAST "
                f"takes {', '.join(d.value for d in CAST_INPUT_DTYPES)} to "
                f"{', '.join(d.value for d in CAST_OUTPUT_DTYPES)}",
                hint="TFLite Micro casts only between these (and from float32, which opbridge does not take)",
            )
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="the model is inconsistent",
        )


def cast_values(values: Array, dtype: DType) -> Array:
    if dtype is DType.FLOAT32:
        return values.astype(np.float32)  # C's conversion: round to nearest
    return wrap_integers(values.astype(np.int64), dtype)


def cast_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    check_cast(call.node, call.input_tensor(0), output)
    return [cast_values(call.value(0), output.dtype).reshape(output.shape)]
