# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM's schema: LiteRT's 24 inputs, as TFLite Micro reads them.

input [time, batch, input_size] (time_major) or [batch, time, input_size]; the four input weights
[units, input_size] and four recurrent weights [units, units] (input, forget, cell, output gates);
four gate biases [units]; the hidden state (output_state) and the cell state, variable tensors of
batch * units elements -> output [time, batch, units] or [batch, time, units].

TFLite Micro supports the plain LSTM only: the peephole weights (9-11), the projection (16-17) and
the layer-norm coefficients (20-23) must be absent, and so must nothing else (no CIFG: the input gate's
weights are required). float32 throughout; int8 input, weights and hidden state with an int16 cell
state and int32 biases; or the 16x8 LSTM: int16 input and hidden state, int8 weights, int64 biases.
"""

from opbridge.ir import DType
from opbridge.ops.unidirectional_sequence_lstm.attributes import LstmAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import require_rank

INPUT = 0
INPUT_WEIGHTS = (1, 2, 3, 4)  # input, forget, cell, output gates
RECURRENT_WEIGHTS = (5, 6, 7, 8)
PEEPHOLE_WEIGHTS = (9, 10, 11)
BIASES = (12, 13, 14, 15)
PROJECTION = (16, 17)
HIDDEN_STATE = 18
CELL_STATE = 19
LAYER_NORM = (20, 21, 22, 23)
INPUT_COUNT = 24
REQUIRED = (INPUT, *INPUT_WEIGHTS, *RECURRENT_WEIGHTS, *BIASES, HIDDEN_STATE, CELL_STATE)

# The LSTM variants TFLite Micro refuses, by the inputs that make them.
UNSUPPORTED_VARIANTS = (
    ("peephole connections (cell_to_*_weights, inputs 9-11)", PEEPHOLE_WEIGHTS),
    ("a projection (projection_weights and projection_bias, inputs 16-17)", PROJECTION),
    ("layer normalization (*_layer_norm_coefficients, inputs 20-23)", LAYER_NORM),
)
GATES = ("input", "forget", "cell", "output")


def infer_lstm(ctx: InferenceContext) -> list[TensorType]:
    a: LstmAttributes = ctx.attributes
    for what, positions in UNSUPPORTED_VARIANTS:
        if any(ctx.has_input(p) for p in positions):
            raise ctx.fail(f"an LSTM with {what} is not supported (TFLite Micro has the plain LSTM only)")
    info = ctx.input(INPUT)
    require_rank(ctx, info.shape, 3, "the input ([time, batch, input_size] or [batch, time, input_size])")
    first, second, input_size = info.shape
    batch = second if a.time_major else first
    units = ctx.input(RECURRENT_WEIGHTS[1]).shape[0]
    for gate, w, r, b in zip(GATES, INPUT_WEIGHTS, RECURRENT_WEIGHTS, BIASES, strict=True):
        if not ctx.has_input(w) or not ctx.has_input(r):
            raise ctx.fail(
                f"the {gate} gate's weights are missing (a CIFG LSTM is not supported by TFLite Micro)"
                if gate == "input"
                else f"the {gate} gate's weights are missing"
            )
        if ctx.input(w).shape != (units, input_size):
            raise ctx.fail(
                f"input_to_{gate}_weights has shape {list(ctx.input(w).shape)}, expected [{units}, {input_size}]"
            )
        if ctx.input(r).shape != (units, units):
            raise ctx.fail(
                f"recurrent_to_{gate}_weights has shape {list(ctx.input(r).shape)}, expected [{units}, {units}]"
            )
        if not ctx.has_input(b) or ctx.input(b).shape != (units,):
            raise ctx.fail(f"the {gate} gate's bias must be given with shape [{units}]")
    for position, name in ((HIDDEN_STATE, "the hidden (output) state"), (CELL_STATE, "the cell state")):
        state = ctx.input(position)
        count = 1
        for d in state.shape:
            count *= d
        if count != batch * units:
            raise ctx.fail(
                f"{name} has shape {list(state.shape)}, expected {batch * units} elements ([{batch}, {units}])"
            )
    hidden, cell = ctx.input(HIDDEN_STATE), ctx.input(CELL_STATE)
    weight_dtype = ctx.input(INPUT_WEIGHTS[0]).dtype
    expected = {
        DType.FLOAT32: (DType.FLOAT32,) * 4,
        DType.INT8: (DType.INT8, DType.INT8, DType.INT16, DType.INT32),
        DType.INT16: (DType.INT8, DType.INT16, DType.INT16, DType.INT64),
    }.get(info.dtype)
    got = (weight_dtype, hidden.dtype, cell.dtype, ctx.input(BIASES[0]).dtype)
    if got != expected:
        raise ctx.fail(
            f"a {info.dtype.value} input with {weight_dtype.value} weights, a {hidden.dtype.value} hidden state, "
            f"a {cell.dtype.value} cell state and {got[3].value} biases",
            hint="float32 throughout; or int8 input, weights and hidden state with an int16 cell state and "
            "int32 biases; or int16 input and hidden state with int8 weights, an int16 cell state and int64 "
            "biases (hybrid LSTMs are not supported)",
        )
    return [TensorType(info.dtype, (first, second, units))]


def _parameters() -> tuple[FormalParameter, ...]:
    optional = ParameterOption.OPTIONAL
    names = [
        ("input", "T", "[time, batch, input_size] or [batch, time, input_size]", None),
        *[(f"input_to_{g}_weights", "TW", "[units, input_size]", None) for g in GATES],
        *[(f"recurrent_to_{g}_weights", "TW", "[units, units]", None) for g in GATES],
        *[(f"cell_to_{g}_weights", "TW", "[units], not supported", optional) for g in ("input", "forget", "output")],
        *[(f"{g}_gate_bias", "TBias", "[units]", None) for g in GATES],
        ("projection_weights", "TW", "not supported", optional),
        ("projection_bias", "TBias", "not supported", optional),
        ("output_state", "T", "[batch, units], a variable tensor", None),
        ("cell_state", "TCell", "[batch, units], a variable tensor", None),
        *[(f"{g}_layer_norm_coefficients", "TCell", "not supported", optional) for g in GATES],
    ]
    return tuple(
        FormalParameter(name, type_name, doc) if option is None else FormalParameter(name, type_name, doc, option)
        for name, type_name, doc, option in names
    )


LSTM_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="UNIDIRECTIONAL_SEQUENCE_LSTM",
    since_version=1,
    doc="An LSTM over a sequence; the hidden and cell states carry over from run to run.",
    inputs=_parameters(),
    outputs=(FormalParameter("output", "T", "[time, batch, units] or [batch, time, units]"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.INT16, DType.FLOAT32), "input, hidden state and output"),
        TypeConstraint("TW", (DType.INT8, DType.FLOAT32), "int8 or float32 weights"),
        TypeConstraint("TCell", (DType.INT16, DType.FLOAT32), "int16 or float32 cell state"),
        TypeConstraint(
            "TBias", (DType.INT32, DType.INT64, DType.FLOAT32), "int32 biases for int8, int64 for int16, float32"
        ),
    ),
    attributes_class=LstmAttributes,
    infer=infer_lstm,
)
