# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX's schema: an int8 or float32 tensor reduced over constant int32 axes; MEAN's inputs, attributes
and shapes. Equal int8 quantization is checked where the node is run or emitted (reference.py)."""

from opbridge.ir import DType
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.mean.schema import infer_mean
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint

REDUCE_MAX_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="REDUCE_MAX",
    since_version=1,
    doc="The maximum over the given axes (TFLite Micro's reference: the type's lowest value, then each input in "
    "row-major order where it compares greater; int8 compares the stored values).",
    inputs=(
        FormalParameter("input", "T", "int8 or float32 values"),
        FormalParameter("axes", "Tind", "the axes to reduce: a constant int32 scalar or vector"),
    ),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape without the axes (size 1 with keep_dims)"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8 (input and output alike), or float32"),
        TypeConstraint("Tind", (DType.INT32,), "int32 axes"),
    ),
    attributes_class=MeanAttributes,
    infer=infer_mean,
)
