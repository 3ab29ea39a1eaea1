# SPDX-License-Identifier: Apache-2.0
"""PAD's and PADV2's schemas: an int8 or float32 tensor padded by constant int32 [rank, 2] paddings."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import constant_input, element_count


def infer_pad(ctx: InferenceContext) -> list[TensorType]:
    """Each size plus its padding before and after (paddings[i] = [before, after] for axis i)."""
    info = ctx.input(0)
    rank = len(info.shape)
    paddings = constant_input(ctx, 1, "paddings")
    if paddings.shape != (rank, 2):
        raise ctx.fail(
            f"the paddings have shape {list(paddings.shape)}; they must be [{rank}, 2], [before, after] per axis"
        )
    if (paddings < 0).any():
        raise ctx.fail(f"the paddings {paddings.tolist()} are negative somewhere", hint="TFLite pads, never crops")
    if ctx.has_input(2) and element_count(ctx.input(2).shape) not in (1, -1):
        raise ctx.fail(f"the pad value has shape {list(ctx.input(2).shape)}; it must hold one value")
    shape = tuple(
        -1 if size == -1 else size + int(before) + int(after)
        for size, (before, after) in zip(info.shape, paddings, strict=True)
    )
    return [TensorType(info.dtype, shape)]


def pad_schema(name: str, doc: str, constant: bool) -> OpSchema:
    inputs = (
        FormalParameter("input", "T", "int8 or float32 values"),
        FormalParameter("paddings", "Tind", "constant int32 [rank, 2]: elements added before and after each axis"),
    )
    if constant:
        inputs += (
            FormalParameter(
                "constant_values", "T", "one value to pad with (default: the output's zero point, or 0.0)",
                ParameterOption.OPTIONAL,
            ),
        )  # fmt: skip
    return OpSchema(
        domain=BUILTIN_DOMAIN,
        name=name,
        since_version=1,
        doc=doc,
        inputs=inputs,
        outputs=(FormalParameter("output", "T", "each size plus its paddings"),),
        type_constraints=(
            TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),
            TypeConstraint("Tind", (DType.INT32,), "int32 paddings"),
        ),
        infer=infer_pad,
    )


PAD_SCHEMA = pad_schema("PAD", "Constant padding with real 0 (int8: the output's zero point).", constant=False)
PADV2_SCHEMA = pad_schema(
    "PADV2",
    "Constant padding with the given value, or real 0 (int8: the output's zero point) without one.",
    constant=True,
)
