# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE's schema: a float32, int8 or int16 tensor to an int8 or int16 tensor of its shape."""

from opbridge.ir import DType
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_quantize(ctx: InferenceContext) -> list[TensorType]:
    # The output dtype is the attribute (the output tensor's type in a LiteRT model). TFLite
    # also quantizes to uint8 and int32; opbridge's reference and C kernels produce int8 and int16.
    attributes = ctx.attributes if ctx.attributes is not None else QuantizeAttributes()
    if attributes.output_dtype not in QUANTIZE_OUTPUT_DTYPES:
        raise ctx.fail(
            f"QUANTIZE to {attributes.output_dtype.value} is not supported",
            hint="quantize to int8, or to int16 (TFLite's 16x8 quantization)",
        )
    return [TensorType(attributes.output_dtype, ctx.input(0).shape)]


QUANTIZE_OUTPUT_DTYPES = (DType.INT8, DType.INT16)


QUANTIZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="QUANTIZE",
    since_version=1,
    doc="float32 -> int8 or int16 (divide by the output scale, round half away from zero, or to even with "
    "requantization=onnx, add the zero point), "
    "or int8/int16 -> int8/int16 (requantize to the output's scale and zero point, TFLite Micro's Requantize).",
    inputs=(FormalParameter("input", "T1", "float32 values, or int8 or int16 values with their own quantization"),),
    outputs=(
        FormalParameter("output", "T2", "int8 or int16 values of the input's shape, in the output's quantization"),
    ),
    type_constraints=(
        TypeConstraint("T1", (DType.FLOAT32, DType.INT8, DType.INT16), "float32, or int8 or int16 to requantize"),
        TypeConstraint("T2", QUANTIZE_OUTPUT_DTYPES, "int8 or int16 (opbridge does not quantize to uint8 or int32)"),
    ),
    infer=infer_quantize,
    attributes_class=QuantizeAttributes,
)
