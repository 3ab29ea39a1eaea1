# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED: the nodes of its per-kernel golden test (//cc/kernels:fully_connected_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import (
    DTypePath,
    KernelCases,
    NodeSpec,
    TensorSpec,
    attributes,
    draw_activation,
    draw_shape,
    int16_symmetric,
    per_tensor,
    symmetric_filter,
    values,
)

from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Requantization


def fully_connected(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """int8 with TFLite (variant 0) or ONNX (variant 1) requantization; float32 keeping the
    leading dimensions (variant 0) or flattening them."""
    dtype = path.source
    depth, units = int(rng.integers(1, 24, endpoint=True)), int(rng.integers(1, 12, endpoint=True))
    if dtype is DType.FLOAT32:
        leading = draw_shape(rng, 1, 3, 3)
        inputs = [
            TensorSpec("input", dtype, (*leading, depth)),
            TensorSpec("filter", dtype, (units, depth), data=values(rng, dtype, (units, depth))),
            TensorSpec("bias", dtype, (units,), data=values(rng, dtype, (units,))) if rng.random() < 0.5 else None,
        ]
        node_attributes = attributes(
            "FULLY_CONNECTED", activation=draw_activation(rng), keep_num_dims=variant == 0 and len(leading) > 1
        )
        return NodeSpec(inputs, node_attributes)
    if dtype is DType.INT16:
        return fully_connected_int16(rng, depth, units, variant)
    batches = int(rng.integers(1, 3, endpoint=True))
    input_q = per_tensor(rng)
    filter_q = symmetric_filter(rng, units, 0, per_channel=rng.random() < 0.5)
    bias_q = Quantization(tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis)
    filter_data = rng.integers(-127, 127, size=(units, depth), endpoint=True).astype(np.int8)
    bias_data = rng.integers(-20000, 20000, size=(units,)).astype(np.int32)
    inputs = [
        TensorSpec("input", dtype, (batches, depth), input_q),
        TensorSpec("filter", dtype, (units, depth), filter_q, filter_data),
        TensorSpec("bias", DType.INT32, (units,), bias_q, bias_data) if rng.random() < 0.7 else None,
    ]
    node_attributes = attributes(
        "FULLY_CONNECTED",
        activation=draw_activation(rng),
        requantization=(Requantization.TFLITE, Requantization.ONNX)[variant % 2],
    )
    return NodeSpec(inputs, node_attributes, per_tensor(rng, 0.01, 2.0))


def fully_connected_int16(rng: np.random.Generator, depth: int, units: int, variant: int) -> NodeSpec:
    """16x8: int16 input and output (zero points 0), int8 symmetric weights, an int64 bias (variant 0, sometimes
    none) or an int32 one (variant 1)."""
    batches = int(rng.integers(1, 3, endpoint=True))
    input_q = int16_symmetric(rng)
    filter_q = symmetric_filter(rng, units, 0, per_channel=rng.random() < 0.5)
    bias_q = Quantization(tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis)
    filter_data = rng.integers(-127, 127, size=(units, depth), endpoint=True).astype(np.int8)
    bias_dtype = DType.INT64 if variant == 0 else DType.INT32
    bias_data = rng.integers(-(2**20), 2**20, size=(units,)).astype(bias_dtype.numpy)
    bias = TensorSpec("bias", bias_dtype, (units,), bias_q, bias_data)
    inputs = [
        TensorSpec("input", DType.INT16, (batches, depth), input_q),
        TensorSpec("filter", DType.INT8, (units, depth), filter_q, filter_data),
        bias if variant == 1 or rng.random() < 0.7 else None,
    ]
    node_attributes = attributes("FULLY_CONNECTED", activation=draw_activation(rng))
    return NodeSpec(inputs, node_attributes, int16_symmetric(rng, 1e-4, 1e-1))


CASES = {
    "FULLY_CONNECTED": KernelCases(fully_connected, int16=True),
}
