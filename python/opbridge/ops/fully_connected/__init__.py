# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED: output = input x filter^T + bias: int8 with int32 bias, int16 with int8 weights and int64 or int32
bias (16x8), or float32."""

from opbridge.ops.definition import NO_MEMORY, OWN, Layout, OperatorDefinition
from opbridge.ops.fully_connected.emit_c import emit_fully_connected, folded_bias_input, kernel_path
from opbridge.ops.fully_connected.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.fully_connected.onnx import ONNX_CONVERTERS
from opbridge.ops.fully_connected.reference import fully_connected_reference
from opbridge.ops.fully_connected.schema import FULLY_CONNECTED_SCHEMA
from opbridge.ops.fully_connected.torch import TORCH_CONVERTERS
from opbridge.ops.shared.folded import FOLDED_KERNEL_FILES
from opbridge.ops.shared.macs import fully_connected_macs

FULLY_CONNECTED = OperatorDefinition(
    op_type="FULLY_CONNECTED",
    reference=fully_connected_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_fully_connected,
    absorbed_constants=folded_bias_input,
    c_kernels=(
        "opbridge_fully_connected_s8.c",
        "opbridge_fully_connected_s16.c",
        "opbridge_fully_connected_s16_dsp.c",
        "opbridge_fully_connected_s16_helium.c",
        "opbridge_fully_connected_f32.c",
        *FOLDED_KERNEL_FILES,
    ),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=FULLY_CONNECTED_SCHEMA,
    macs=fully_connected_macs,
    cost_class=kernel_path,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (FULLY_CONNECTED,)
