# SPDX-License-Identifier: Apache-2.0
"""RESHAPE's schema: the same values under the shape its int32 shape input gives."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    ANY_TYPE,
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import element_count


def infer_reshape(ctx: InferenceContext) -> list[TensorType]:
    """The shape input, with its one -1 (if any) stretched to keep the element count.

    TFLite Micro, and opbridge's reference, take the output tensor's own shape
    and only check the element count; TFLite (and this rule) read the shape
    input. A RESHAPE without one (older models keep the shape in
    ReshapeOptions.new_shape, which opbridge does not read) cannot be inferred.
    A shape input computed at run time gives its rank, with every size -1
    (known at run time), which any output tensor of that rank agrees with.
    """
    info = ctx.input(0)
    if not ctx.has_input(1):
        raise ctx.fail(
            "RESHAPE has no shape input, so its output shape cannot be inferred",
            hint="export the model with the new shape as a constant int32 second input",
        )
    shape_input = ctx.input(1)
    if len(shape_input.shape) != 1 or shape_input.shape[0] == -1:
        raise ctx.fail(f"the shape input has shape {list(shape_input.shape)}; it must be a vector of known length")
    if shape_input.value is None:
        return [TensorType(info.dtype, (-1,) * shape_input.shape[0])]
    new_shape = [int(v) for v in shape_input.value.ravel()]
    if new_shape.count(-1) > 1 or any(size < -1 for size in new_shape):
        raise ctx.fail(f"the new shape {new_shape} may hold one -1 and otherwise sizes >= 0")
    count = element_count(info.shape)
    known = element_count(tuple(size for size in new_shape if size != -1))
    if -1 in new_shape:
        if count != -1:
            if known == 0 or count % known:
                raise ctx.fail(f"no size for the -1 of {new_shape} holds the input's {count} elements")
            new_shape[new_shape.index(-1)] = count // known
    elif count not in (known, -1):
        raise ctx.fail(f"the new shape {new_shape} holds {known} elements, the input {list(info.shape)} {count}")
    return [TensorType(info.dtype, tuple(new_shape))]


RESHAPE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="RESHAPE",
    since_version=1,
    doc="The input's values, in order, under a new shape of the same element count.",
    inputs=(
        FormalParameter("input", "T", "any tensor"),
        FormalParameter(
            "shape",
            "TShape",
            "int32 vector: the new shape, at most one -1 (inferred); needed for inference",
            ParameterOption.OPTIONAL,
        ),
    ),
    outputs=(FormalParameter("output", "T", "the input's values under the new shape"),),
    type_constraints=(
        TypeConstraint("T", ANY_TYPE, "any type (the bytes are copied or aliased)"),
        TypeConstraint("TShape", (DType.INT32,), "int32"),
    ),
    infer=infer_reshape,
)
