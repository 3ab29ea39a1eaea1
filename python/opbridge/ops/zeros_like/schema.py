# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE's schema: an int8, int32, int64 or float32 tensor to zeros of its shape and dtype (TFLite Micro's
ZEROS_LIKE types)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

ZEROS_LIKE_DTYPES = (DType.INT8, DType.INT32, DType.INT64, DType.FLOAT32)

ZEROS_LIKE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="ZEROS_LIKE",
    since_version=1,
    doc="Zeros of the input's shape and dtype (int8: the stored value 0, whatever the quantization).",
    inputs=(
        FormalParameter("input", "T", "the tensor whose shape and dtype the output takes (its values are unused)"),
    ),
    outputs=(FormalParameter("output", "T", "0 everywhere, of the input's shape"),),
    type_constraints=(TypeConstraint("T", ZEROS_LIKE_DTYPES, "int8, int32, int64 or float32"),),
    infer=same_as_input(0),
)
