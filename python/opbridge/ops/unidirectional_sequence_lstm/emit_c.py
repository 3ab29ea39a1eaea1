# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM -> opbridge_lstm_f32, opbridge_lstm_s8 or (16x8: int16 activations, int64
biases) opbridge_lstm_s16 (cc/kernels/opbridge_lstm.h), the hidden and cell states in the node's
persistent memory (lstm_persistent_bytes), reset by the module's init as TFLite Micro resets variable
tensors."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode, c_int_list, constants_placement
from opbridge.backends.c.kernel_call import (
    ArrayValue,
    CExpression,
    FloatValue,
    ParamStruct,
    StructValue,
    fields,
    int_array,
)
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.shared.quantized import require_quantization
from opbridge.ops.unidirectional_sequence_lstm.attributes import LstmAttributes
from opbridge.ops.unidirectional_sequence_lstm.reference import (
    SIGMOID_TABLE,
    cell_state_scale_power,
    integer_multipliers,
    quantized_cell_clip,
    tanh_parameters,
)
from opbridge.ops.unidirectional_sequence_lstm.schema import (
    BIASES,
    CELL_STATE,
    HIDDEN_STATE,
    INPUT,
    INPUT_WEIGHTS,
    RECURRENT_WEIGHTS,
)

LSTM_HEADER = "cc/kernels/opbridge_lstm.h"
GATES = 4
# The kernel for each activation type.
KERNELS = {DType.FLOAT32: "f32", DType.INT8: "s8", DType.INT16: "s16"}


def lstm_shape(graph: Graph, node: Node) -> tuple[int, int, int, int, bool]:
    """batches, time_steps, input_size, units, time_major."""
    a: LstmAttributes = node.attributes
    first, second, input_size = graph.tensor(node.inputs[INPUT]).shape
    units = graph.tensor(node.inputs[RECURRENT_WEIGHTS[0]]).shape[0]
    batches, steps = (second, first) if a.time_major else (first, second)
    return batches, steps, input_size, units, a.time_major


def lstm_persistent_bytes(graph: Graph, node: Node) -> int:
    """What opbridge_lstm_*_state_bytes returns: the cell state, then the hidden state."""
    batches, _, _, units, _ = lstm_shape(graph, node)
    rows = batches * units
    activations = graph.tensor(node.inputs[INPUT]).dtype
    if activations is DType.FLOAT32:
        return 2 * rows * 4
    return (rows * 2 + 3) // 4 * 4 + rows * (2 if activations is DType.INT16 else 1)


def s8_parameters(graph: Graph, node: Node) -> dict[str, object]:
    """The int8 and 16x8 kernels' parameters, the reference's numbers (TFLite Micro's Prepare)."""
    a: LstmAttributes = node.attributes

    def tensor(position: int) -> Tensor:
        return graph.tensor(node.inputs[position])

    m = integer_multipliers(node, tensor)
    input_q = require_quantization(node, tensor(INPUT), "input")
    hidden_q = require_quantization(node, tensor(HIDDEN_STATE), "output_state")
    cell_scale = require_quantization(node, tensor(CELL_STATE), "cell_state").scale
    tanh_multiplier, tanh_shift = tanh_parameters(cell_state_scale_power(cell_scale))
    return {
        "input_offset": -input_q.zero_point,
        "hidden_zero_point": hidden_q.zero_point,
        "input_weight_offsets": [-tensor(p).quantization.zero_point for p in INPUT_WEIGHTS],
        "recurrent_weight_offsets": [-tensor(p).quantization.zero_point for p in RECURRENT_WEIGHTS],
        "input_scales": [m[f"input{g}"] for g in range(GATES)],
        "recurrent_scales": [m[f"recurrent{g}"] for g in range(GATES)],
        "forget_times_cell": m["forget_cell"],
        "input_times_cell_gate": m["input_cell"],
        "hidden": m["hidden"],
        "cell_tanh_multiplier": tanh_multiplier,
        "cell_tanh_shift": tanh_shift,
        "cell_clip": quantized_cell_clip(a.cell_clip, cell_scale) if a.cell_clip > 0 else 0,
    }


def _scale(pair: tuple[int, int]) -> StructValue:
    return StructValue("opbridge_lstm_scale", fields(multiplier=int(pair[0]), shift=int(pair[1])))


def emit_lstm(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    batches, steps, input_size, units, time_major = lstm_shape(graph, node)
    activations = graph.tensor(node.inputs[INPUT]).dtype
    if activations not in KERNELS:
        raise UnsupportedTensorError(
            f"{node.describe()}: the C kernel runs float32, int8 and 16x8 (int16) LSTMs, not {activations.value} ones",
            hint="run the LSTM with the reference interpreter, or quantize it to int8 or 16x8",
        )
    float32 = activations is DType.FLOAT32
    for position in (*INPUT_WEIGHTS, *RECURRENT_WEIGHTS, *BIASES):
        if not graph.tensor(node.inputs[position]).is_constant:
            raise UnsupportedTensorError(
                f"{node.describe()}: input {position} of the LSTM is computed, not a constant",
                hint="the C kernel takes constant weights and biases; fold them into the model",
            )
    shape = StructValue(
        "opbridge_lstm_shape",
        fields(batches=batches, time_steps=steps, input_size=input_size, units=units, time_major=int(time_major)),
    )
    params_symbol = ctx.local_symbol(node, "params")
    definitions: list[str | ParamStruct] = []
    if float32:
        kind, ctype, weight_type, bias_type = "f32", "opbridge_lstm_f32_params", "float", "float"
        params = ParamStruct(ctype, params_symbol, fields(shape=shape, cell_clip=FloatValue(node.attributes.cell_clip)))
    else:
        kind, weight_type = KERNELS[activations], "int8_t"
        ctype, bias_type = f"opbridge_lstm_{kind}_params", "int64_t" if kind == "s16" else "int32_t"
        bias_dtype = DType.INT64 if kind == "s16" else DType.INT32
        for position in BIASES:
            bias = graph.tensor(node.inputs[position])
            if bias.dtype is not bias_dtype:
                raise UnsupportedTensorError(
                    f"{node.describe()}: a {activations.value} LSTM's C kernel takes {bias_dtype.value} biases, "
                    f"got {bias.describe()}",
                    hint="quantize the gate biases as TFLite's converter does (int32 for int8, int64 for 16x8)",
                )
        p = s8_parameters(graph, node)
        table_symbol = ctx.local_symbol(node, "sigmoid_table")
        table = f"static const uint16_t {table_symbol}[256] = {{{c_int_list(SIGMOID_TABLE)}}};"
        definitions.append(f"{constants_placement(ctx.prefix)} {table}")
        params = ParamStruct(
            ctype,
            params_symbol,
            fields(
                shape=shape,
                input_offset=p["input_offset"],
                hidden_zero_point=p["hidden_zero_point"],
                input_weight_offsets=int_array(p["input_weight_offsets"]),
                recurrent_weight_offsets=int_array(p["recurrent_weight_offsets"]),
                input_scales=ArrayValue(tuple(_scale(v) for v in p["input_scales"])),
                recurrent_scales=ArrayValue(tuple(_scale(v) for v in p["recurrent_scales"])),
                forget_times_cell=_scale(p["forget_times_cell"]),
                input_times_cell_gate=_scale(p["input_times_cell_gate"]),
                hidden=_scale(p["hidden"]),
                cell_tanh_multiplier=p["cell_tanh_multiplier"],
                cell_tanh_shift=p["cell_tanh_shift"],
                cell_clip=p["cell_clip"],
                sigmoid_table=CExpression(table_symbol),
            ),
        )
    weights = ", ".join(ctx.pointer(node.inputs[q]) for q in (*INPUT_WEIGHTS, *RECURRENT_WEIGHTS))
    biases = ", ".join(ctx.pointer(node.inputs[q]) for q in BIASES)
    state = ctx.persistent_pointer(node, "void")
    call = f"""{{
    const {weight_type} *const weights[8] = {{{weights}}};
    const {bias_type} *const biases[4] = {{{biases}}};
    status = opbridge_lstm_{kind}(&{params_symbol}, {ctx.pointer(node.inputs[INPUT])}, weights, biases, {state},
                               {ctx.pointer(node.outputs[0])});
  }}"""
    reset = f"status = opbridge_lstm_{kind}_reset(&{params_symbol}, {state});"
    # The call sits in a block with the weight and bias pointer arrays: its parameters are a definition.
    definitions.append(params)
    return NodeCode(includes=[LSTM_HEADER], definitions=definitions, statements=[call], init_statements=[reset])
