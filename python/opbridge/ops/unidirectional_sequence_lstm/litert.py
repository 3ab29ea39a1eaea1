# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM: the LiteRT importer (builtin code, versions, options parser).

LiteRT's versions (its op_version.cc): 1 (float32, and the int8 LSTM with an int16 cell state), 2 and 3
(hybrid: float32 activations with int8 weights, refused by the schema's type check and the reference),
4 (diagonal recurrent tensors, refused), 5 (16x8: int16 activations, int8 weights). TFLite Micro reads
none of the version numbers.
"""

import math
from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedOperatorError
from opbridge.ops.unidirectional_sequence_lstm.attributes import CellGateActivation, LstmAttributes
from opbridge.ops.unidirectional_sequence_lstm.schema import INPUT_COUNT, REQUIRED, UNSUPPORTED_VARIANTS

ACTIVATION_NAMES = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}


def parse_litert_options(operator: Any) -> LstmAttributes:
    inputs = [int(i) for i in operator.InputsAsNumpy()] if operator.InputsLength() else []
    if len(inputs) != INPUT_COUNT:
        raise UnsupportedOperatorError(
            f"UNIDIRECTIONAL_SEQUENCE_LSTM with {len(inputs)} inputs",
            hint=f"TFLite Micro takes the {INPUT_COUNT}-input form (omitted inputs as -1)",
        )
    if any(inputs[p] == -1 for p in REQUIRED):
        missing = [p for p in REQUIRED if inputs[p] == -1]
        cifg = " (a CIFG LSTM, without the input gate, is not supported)" if 1 in missing or 5 in missing else ""
        raise UnsupportedOperatorError(
            f"UNIDIRECTIONAL_SEQUENCE_LSTM without its inputs {missing}{cifg}",
            hint="TFLite Micro needs the input, all four gates' weights and biases and both states",
        )
    for what, positions in UNSUPPORTED_VARIANTS:
        if any(inputs[p] != -1 for p in positions):
            raise UnsupportedOperatorError(
                f"UNIDIRECTIONAL_SEQUENCE_LSTM with {what} is not supported",
                hint="TFLite Micro runs the plain LSTM only; re-export the model without that option",
            )
    table = operator.BuiltinOptions()
    if table is None:
        raise UnsupportedOperatorError(
            "UNIDIRECTIONAL_SEQUENCE_LSTM without UnidirectionalSequenceLSTMOptions",
            hint="re-export the model; the options carry the cell gate's activation and time_major",
        )
    options = tflite.UnidirectionalSequenceLSTMOptions()
    options.Init(table.Bytes, table.Pos)
    if options.AsymmetricQuantizeInputs():
        raise UnsupportedOperatorError(
            "UNIDIRECTIONAL_SEQUENCE_LSTM with asymmetric_quantize_inputs (a hybrid kernel) is not supported",
            hint="quantize the whole model to int8 (int16 cell state), or keep it float32",
        )
    if options.DiagonalRecurrentTensors():
        raise UnsupportedOperatorError(
            "UNIDIRECTIONAL_SEQUENCE_LSTM with diagonal_recurrent_tensors is not supported",
            hint="TFLite Micro needs full [units, units] recurrent weights",
        )
    code = int(options.FusedActivationFunction())
    if code != CellGateActivation.TANH.value:
        raise UnsupportedOperatorError(
            f"UNIDIRECTIONAL_SEQUENCE_LSTM with fused_activation_function {ACTIVATION_NAMES.get(code, code)} "
            "is not supported",
            hint="TFLite Micro's kernel applies only TANH to the cell gate (other activations leave the gate "
            "unactivated in release builds); export the LSTM with tanh",
        )
    cell_clip, proj_clip = float(options.CellClip()), float(options.ProjClip())
    for name, value in (("cell_clip", cell_clip), ("proj_clip", proj_clip)):
        if not math.isfinite(value) or value < 0:
            raise UnsupportedOperatorError(
                f"UNIDIRECTIONAL_SEQUENCE_LSTM with {name} {value}", hint=f"{name} must be 0 (none) or positive"
            )
    return LstmAttributes(
        activation=CellGateActivation(code),
        cell_clip=cell_clip,
        proj_clip=proj_clip,
        time_major=bool(options.TimeMajor()),
    )


LITERT_CODE = BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM
LITERT_VERSIONS = frozenset({1, 2, 3, 5})
