# SPDX-License-Identifier: Apache-2.0
"""SUM's schema: a float32 tensor summed over constant int32 axes; MEAN's inputs, attributes and shapes.

Only float32 is admitted (TFLite's int8 SUM rescales like MEAN but is not implemented), so a model with
an int8 SUM is refused when it is read; MeanAttributes' int8-only `requantization` has no effect on it.
"""

from opbridge.ir import DType
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.mean.schema import infer_mean
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint

SUM_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SUM",
    since_version=1,
    doc="The sum over the given axes (TFLite Micro's float reference: 0 plus the inputs in row-major order).",
    inputs=(
        FormalParameter("input", "T", "float32 values"),
        FormalParameter("axes", "Tind", "the axes to reduce: a constant int32 scalar or vector"),
    ),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape without the axes (size 1 with keep_dims)"),),
    type_constraints=(
        TypeConstraint("T", (DType.FLOAT32,), "float32 (int8 is not supported yet)"),
        TypeConstraint("Tind", (DType.INT32,), "int32 axes"),
    ),
    attributes_class=MeanAttributes,
    infer=infer_mean,
)
