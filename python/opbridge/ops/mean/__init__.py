# SPDX-License-Identifier: Apache-2.0
"""MEAN over constant axes: int8 (TFLite Micro's sum-then-rescale algorithm; with
requantization=Requantization.ONNX, the sum rescaled by one float32 scale as onnxruntime's
QLinearGlobalAveragePool does) or float32.

float32 is TFLite Micro's float reference: each output is 0 plus its inputs
in row-major order (one float32 rounding per addition), divided by their
count. The reference adds column by column in that order, never with np.sum.
"""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.mean.emit_c import emit_mean, mean_scratch_bytes
from opbridge.ops.mean.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.mean.onnx import ONNX_CONVERTERS
from opbridge.ops.mean.reference import mean_reference
from opbridge.ops.mean.schema import MEAN_SCHEMA
from opbridge.ops.mean.torch import TORCH_CONVERTERS

MEAN = OperatorDefinition(
    op_type="MEAN",
    reference=mean_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_mean,
    c_kernels=("opbridge_elementwise_s8.c", "opbridge_mean_f32.c", "opbridge_mean_s8_helium.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=MEAN_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    memory=NodeMemory(scratch=mean_scratch_bytes),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (MEAN,)
