# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.softmax.attributes import SoftmaxAttributes


def parse_litert_options(operator: Any) -> SoftmaxAttributes:
    """beta from SoftmaxOptions; int16_output when an int8 input's output tensor is int16.

    The operator is a table of the model's flatbuffer, so its bytes are the whole model; the reader reads
    subgraph 0, the one the operator is in, and has checked the tensor indices before any options are parsed (as
    for QUANTIZE and CAST).
    """
    subgraph = tflite.Model.GetRootAs(operator._tab.Bytes, 0).Subgraphs(0)
    input_type = subgraph.Tensors(int(operator.Inputs(0))).Type()
    output_type = subgraph.Tensors(int(operator.Outputs(0))).Type()
    int16_output = input_type == tflite.TensorType.INT8 and output_type == tflite.TensorType.INT16
    table = operator.BuiltinOptions()
    if table is None:
        return SoftmaxAttributes(int16_output=int16_output)
    options = tflite.SoftmaxOptions()
    options.Init(table.Bytes, table.Pos)
    return SoftmaxAttributes(beta=float(options.Beta()), int16_output=int16_output)


LITERT_CODE = BuiltinOperator.SOFTMAX
LITERT_VERSIONS = frozenset({1, 2, 3})
