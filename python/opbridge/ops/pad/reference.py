# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's PAD and PADV2: constant padding of int8 or float32 tensors.

int8 pads with the output's zero point (real 0) or PADV2's constant value;
float32 pads with 0.0 or PADV2's constant value. The paddings must be a
constant int32 [rank, 2] tensor ([before, after] per axis).
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_quantization


def constant_paddings(graph: Graph, node: Node) -> np.ndarray:
    """The [rank, 2] paddings, which must be a constant tensor."""
    paddings = graph.tensor(node.inputs[1])
    if paddings.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: paddings {paddings.describe()} must be a constant",
            hint="TFLite Micro plans PAD ahead of time; fold the paddings into the model",
        )
    return paddings.data.astype(np.int64).reshape(-1, 2)


def pad_value_index(node: Node) -> int | None:
    """The tensor of PADV2's constant value, if given."""
    return node.inputs[2] if len(node.inputs) > 2 else None


def padding_and_value(graph: Graph, node: Node) -> tuple[np.ndarray, int]:
    """int8: ([rank, 2] paddings, pad value); the pad value must be a constant."""
    paddings = constant_paddings(graph, node)
    output_q = require_quantization(node, graph.tensor(node.outputs[0]), "output")
    value = output_q.zero_point
    value_index = pad_value_index(node)
    if value_index is not None:
        constant = graph.tensor(value_index)
        if constant.data is None:
            raise UnsupportedTensorError(f"{node.describe()}: the pad value must be a constant", hint="fold it")
        value = int(constant.data.ravel()[0])
    return paddings, value


def pad_float32_reference(call: ReferenceCall) -> list[Array]:
    value_index = pad_value_index(call.node)
    operands = [("input", call.input_tensor(0)), ("output", call.outputs[0])]
    if value_index is not None:
        operands.append(("pad value", call.graph.tensor(value_index)))
    require_float32(call.node, operands)
    paddings = constant_paddings(call.graph, call.node)
    value = np.float32(0.0) if value_index is None else call.value(2).ravel()[0]
    padded = np.pad(call.value(0), [tuple(p) for p in paddings], constant_values=value)
    return [padded.astype(np.float32).reshape(call.outputs[0].shape)]


def pad_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return pad_float32_reference(call)
    paddings, value = padding_and_value(call.graph, call.node)
    return [np.pad(call.value(0), [tuple(p) for p in paddings], constant_values=value).astype(np.int8)]
