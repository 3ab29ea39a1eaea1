# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM: an LSTM over a sequence (time-major or batch-major) whose hidden and
cell states (variable tensors) carry over from run to run, as TFLite Micro runs it: the plain LSTM
(no peephole, projection, layer norm or CIFG), float32, or int8 or 16x8 (int16 activations with int8
weights and int64 biases) with an int16 cell state."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.unidirectional_sequence_lstm.emit_c import emit_lstm, lstm_persistent_bytes
from opbridge.ops.unidirectional_sequence_lstm.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.unidirectional_sequence_lstm.reference import lstm_macs, lstm_reference
from opbridge.ops.unidirectional_sequence_lstm.schema import LSTM_SCHEMA

UNIDIRECTIONAL_SEQUENCE_LSTM = OperatorDefinition(
    op_type="UNIDIRECTIONAL_SEQUENCE_LSTM",
    reference=lstm_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_lstm,
    c_kernels=("opbridge_lstm.c",),
    doc=__doc__ or "",
    schema=LSTM_SCHEMA,
    stateful=True,
    macs=lstm_macs,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    memory=NodeMemory(persistent=lstm_persistent_bytes),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (UNIDIRECTIONAL_SEQUENCE_LSTM,)
