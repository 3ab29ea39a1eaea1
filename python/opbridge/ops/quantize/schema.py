# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE's schema: a float32 or int8 tensor to an int8 tensor of its shape."""

from opbridge.ir import DType
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_quantize(ctx: InferenceContext) -> list[TensorType]:
    # The output dtype is fixed, not read from anywhere: TFLite also quantizes to
    # int16 and uint8 (the output tensor's type decides), but opbridge's reference
    # and C kernels produce int8 only, so the schema allows int8 and nothing else.
    return [TensorType(DType.INT8, ctx.input(0).shape)]


QUANTIZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="QUANTIZE",
    since_version=1,
    doc="float32 -> int8 (divide by the output scale, round half away from zero, or to even with "
    "requantization=onnx, add the zero point), "
    "or int8 -> int8 (requantize to the output's scale and zero point).",
    inputs=(FormalParameter("input", "T1", "float32 values, or int8 values with their own quantization"),),
    outputs=(FormalParameter("output", "T2", "int8 values of the input's shape, in the output's quantization"),),
    type_constraints=(
        TypeConstraint("T1", (DType.FLOAT32, DType.INT8), "float32, or int8 to requantize"),
        TypeConstraint("T2", (DType.INT8,), "int8 (opbridge does not quantize to int16 or uint8)"),
    ),
    infer=infer_quantize,
    attributes_class=QuantizeAttributes,
)
