# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE's schema: an int8 or int16 tensor to a float32 tensor of its shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_dequantize(ctx: InferenceContext) -> list[TensorType]:
    # DEQUANTIZE always produces float32 (in TFLite too, for the int8 and int16 inputs opbridge takes).
    return [TensorType(DType.FLOAT32, ctx.input(0).shape)]


DEQUANTIZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="DEQUANTIZE",
    since_version=1,
    doc="int8 or int16 -> float32: scale * (q - zero_point), one float32 multiply per element.",
    inputs=(FormalParameter("input", "T1", "int8 or int16 values with their quantization"),),
    outputs=(FormalParameter("output", "T2", "float32 values of the input's shape"),),
    type_constraints=(
        # TFLite also dequantizes uint8 and float16; opbridge's C kernels take int8 and int16 (version 3).
        TypeConstraint("T1", (DType.INT8, DType.INT16), "quantized int8 or int16"),
        TypeConstraint("T2", (DType.FLOAT32,), "float32"),
    ),
    infer=infer_dequantize,
)
