# SPDX-License-Identifier: Apache-2.0
"""Writes one-operator Graphs as LiteRT flatbuffers, for tests against TFLite Micro.

Uses the flatbuffer schema bindings that ship with `ai-edge-litert`
(object API: ModelT, SubGraphT, ... with Pack), so the files are written by
LiteRT's own schema code, not by opbridge's reader in reverse.
"""

from typing import Any

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from opbridge.ir import DType, Graph

_TENSOR_TYPES = {
    DType.FLOAT32: schema.TensorType.FLOAT32,
    DType.INT32: schema.TensorType.INT32,
    DType.UINT8: schema.TensorType.UINT8,
    DType.INT64: schema.TensorType.INT64,
    DType.BOOL: schema.TensorType.BOOL,
    DType.INT16: schema.TensorType.INT16,
    DType.INT8: schema.TensorType.INT8,
    DType.UINT32: schema.TensorType.UINT32,
    DType.UINT64: schema.TensorType.UINT64,
}


def single_op_model(
    graph: Graph,
    builtin_code: int,
    version: int,
    options_type: int = 0,
    options: Any = None,
    custom_code: str | None = None,
    custom_options: bytes | None = None,
) -> bytes:
    """`graph` (one node) as .tflite bytes; constants become buffers.

    For a CUSTOM operator pass builtin_code=schema.BuiltinOperator.CUSTOM,
    its `custom_code` and its serialized `custom_options` (a flexbuffer for
    TFLM's Signal operators).
    """
    (node,) = graph.nodes
    buffers = [schema.BufferT()]  # buffer 0: the empty sentinel
    tensors = []
    for tensor in graph.tensors:
        packed = schema.TensorT()
        packed.name = tensor.name
        packed.shape = list(tensor.shape)
        packed.type = _TENSOR_TYPES[tensor.dtype]
        packed.buffer = 0
        packed.isVariable = tensor.is_variable
        if tensor.data is not None:
            buffer = schema.BufferT()
            buffer.data = np.ascontiguousarray(tensor.data, dtype=tensor.dtype.numpy).tobytes()
            buffers.append(buffer)
            packed.buffer = len(buffers) - 1
        if tensor.quantization is not None:
            quantization = schema.QuantizationParametersT()
            quantization.scale = list(tensor.quantization.scales)
            quantization.zeroPoint = list(tensor.quantization.zero_points)
            quantization.quantizedDimension = tensor.quantization.axis or 0
            packed.quantization = quantization
        tensors.append(packed)

    operator_code = schema.OperatorCodeT()
    operator_code.builtinCode = builtin_code
    operator_code.deprecatedBuiltinCode = min(builtin_code, 127)
    operator_code.version = version
    if custom_code is not None:
        operator_code.customCode = custom_code
    operator = schema.OperatorT()
    operator.opcodeIndex = 0
    operator.inputs = [-1 if i is None else i for i in node.inputs]
    operator.outputs = list(node.outputs)
    operator.builtinOptionsType = options_type
    operator.builtinOptions = options
    if custom_options is not None:
        operator.customOptions = list(custom_options)
        operator.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS

    subgraph = schema.SubGraphT()
    subgraph.tensors = tensors
    subgraph.inputs = list(graph.inputs)
    subgraph.outputs = list(graph.outputs)
    subgraph.operators = [operator]
    subgraph.name = "main"

    model = schema.ModelT()
    model.version = 3
    model.operatorCodes = [operator_code]
    model.subgraphs = [subgraph]
    model.buffers = buffers
    model.description = "opbridge single-operator test model"
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())
