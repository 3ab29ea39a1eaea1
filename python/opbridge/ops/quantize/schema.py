# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE's schema: a float32 tensor quantized, or an integer tensor requantized, to a tensor of its shape, for
the (input, output) type pairs TFLite Micro's QUANTIZE runs (QUANTIZE_PAIRS)."""

from opbridge.ir import DType
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

# The (input, output) pairs TFLite Micro's QUANTIZE kernel evaluates: float32 is quantized (to int8 or int16),
# the integer types requantized. Its Prepare accepts a few more (float32 -> uint8 or int32, int32 -> int32,
# uint8 -> uint8...) that its Eval then fails on; opbridge refuses those when it reads the model.
QUANTIZE_PAIRS = (
    (DType.FLOAT32, DType.INT8),
    (DType.FLOAT32, DType.INT16),
    (DType.INT8, DType.INT8),
    (DType.INT8, DType.UINT8),
    (DType.INT8, DType.INT16),
    (DType.INT8, DType.INT32),
    (DType.UINT8, DType.INT8),
    (DType.INT16, DType.INT8),
    (DType.INT16, DType.INT16),
    (DType.INT16, DType.INT32),
    (DType.INT32, DType.INT8),
    (DType.INT32, DType.INT16),
)
QUANTIZE_INPUT_DTYPES = tuple(dict.fromkeys(source for source, _ in QUANTIZE_PAIRS))
QUANTIZE_OUTPUT_DTYPES = tuple(dict.fromkeys(target for _, target in QUANTIZE_PAIRS))


def supported_pairs() -> str:
    """QUANTIZE_PAIRS for an error's hint: 'float32 -> int8 or int16; int8 -> int8, uint8, int16 or int32; ...'."""
    phrases = []
    for source in QUANTIZE_INPUT_DTYPES:
        targets = [target.value for pair_source, target in QUANTIZE_PAIRS if pair_source is source]
        listed = targets[0] if len(targets) == 1 else f"{', '.join(targets[:-1])} or {targets[-1]}"
        phrases.append(f"{source.value} -> {listed}")
    return "; ".join(phrases)


def unsupported_pair(source: DType | str, target: DType | str) -> tuple[str, str]:
    """The problem and hint of an error about a pair outside QUANTIZE_PAIRS (types or their names)."""
    names = [dtype.value if isinstance(dtype, DType) else dtype for dtype in (source, target)]
    return (
        f"QUANTIZE from {names[0]} to {names[1]} is not supported (nor by TFLite Micro's QUANTIZE)",
        f"QUANTIZE takes {supported_pairs()}; quantize the model so that this node converts one of those",
    )


def infer_quantize(ctx: InferenceContext) -> list[TensorType]:
    # The output dtype is the attribute (the output tensor's type in a LiteRT model).
    attributes = ctx.attributes if ctx.attributes is not None else QuantizeAttributes()
    source, target = ctx.input(0).dtype, attributes.output_dtype
    if (source, target) not in QUANTIZE_PAIRS:
        problem, hint = unsupported_pair(source, target)
        raise ctx.fail(problem, hint=hint)
    return [TensorType(target, ctx.input(0).shape)]


QUANTIZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="QUANTIZE",
    since_version=1,
    doc="float32 -> int8 or int16 (divide by the output scale, round half away from zero, or to even with "
    "requantization=onnx, add the zero point), or an integer type -> another (requantize to the output's scale "
    f"and zero point, TFLite Micro's Requantize, saturated to the output type); the pairs: {supported_pairs()}.",
    inputs=(FormalParameter("input", "T1", "float32 values, or integer values with their own quantization"),),
    outputs=(FormalParameter("output", "T2", "values of the input's shape, in the output's quantization"),),
    type_constraints=(
        TypeConstraint("T1", QUANTIZE_INPUT_DTYPES, "float32 to quantize, or an integer type to requantize"),
        TypeConstraint("T2", QUANTIZE_OUTPUT_DTYPES, "the quantized type (the pairs: see the doc)"),
    ),
    infer=infer_quantize,
    attributes_class=QuantizeAttributes,
)
