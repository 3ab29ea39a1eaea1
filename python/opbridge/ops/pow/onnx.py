# SPDX-License-Identifier: Apache-2.0
"""POW from ONNX: Pow(X, Y) with a float32 base.

A float32 exponent converts as it is. A constant exponent of another type (int32 or int64, often a
scalar 2 or 3) becomes a float32 constant when every value is exactly a float32, so the exponent is
the same number. A run-time exponent of another type is refused. onnxruntime's powf (and its x * x * x
for a scalar exponent 3) is within an ulp of the reference.
"""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter


def exactly_float32(values: np.ndarray) -> bool:
    """Every value (int or float) is a float32 (NaN included); Python compares int and float exactly."""
    singles = values.astype(np.float32)
    return all(
        (value == single) or (single != single and value != value)
        for value, single in zip(values.ravel().tolist(), singles.ravel().tolist(), strict=True)
    )


def convert_pow(conversion: OnnxConversion, node: OnnxNode) -> None:
    base, exponent = conversion.value(node.inputs[0], node), conversion.value(node.inputs[1], node)
    base_tensor, exponent_tensor = conversion.tensor(base), conversion.tensor(exponent)
    if base_tensor.dtype is not DType.FLOAT32:
        raise node.unsupported(
            f"base X ({base_tensor.name!r}) is {base_tensor.dtype.value}; opbridge's POW is float32 only",
            hint="export the model in float32 (or Cast X to float32 before Pow)",
        )
    if exponent_tensor.dtype is not DType.FLOAT32:
        data = exponent_tensor.data
        if data is None:
            raise node.unsupported(
                f"exponent Y ({exponent_tensor.name!r}) is a run-time {exponent_tensor.dtype.value} tensor; "
                "opbridge's POW takes a float32 exponent",
                hint="Cast Y to float32 in the model (Cast to=FLOAT), or make it a constant",
            )
        values = np.asarray(data)
        if values.dtype.kind not in "iuf" or not exactly_float32(values):
            raise node.unsupported(
                f"constant exponent Y ({exponent_tensor.name!r}, {exponent_tensor.dtype.value}) has values that "
                "are not exactly float32",
                hint="use a float32 exponent (integers up to 2**24 in magnitude convert exactly)",
            )
        exponent = conversion.constant(values.astype(np.float32), DType.FLOAT32, f"{node.name}/exponent")
    conversion.emit("POW", [base, exponent], None, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Pow", convert_pow),)
