# SPDX-License-Identifier: Apache-2.0
"""SVDF: the nodes of its per-kernel golden test (//cc/kernels:svdf_kernel_test).

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
    draw_scale,
    per_tensor,
    values,
)

from opbridge.ir import DType, Quantization


def svdf(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SVDF, its state a variable tensor; int8 with an int16 state (variant 0) or an int8 one (variant 1),
    scales as TFLite's converter sets them (symmetric weights, bias at state x weights_time)."""
    batch, input_size = int(rng.integers(1, 2, endpoint=True)), int(rng.integers(1, 10, endpoint=True))
    rank, units, memory = (int(rng.integers(1, n, endpoint=True)) for n in (2, 4, 5))
    filters = rank * units
    node_attributes = attributes("SVDF", rank=rank, activation=draw_activation(rng))
    if path.source is DType.FLOAT32:
        f32 = DType.FLOAT32
        inputs = [
            TensorSpec("input", f32, (batch, input_size)),
            TensorSpec("weights_feature", f32, (filters, input_size), data=values(rng, f32, (filters, input_size))),
            TensorSpec("weights_time", f32, (filters, memory), data=values(rng, f32, (filters, memory))),
            TensorSpec("bias", f32, (units,), data=values(rng, f32, (units,))) if rng.random() < 0.7 else None,
            TensorSpec("state", f32, (batch, memory * filters), is_variable=True),
        ]
        return NodeSpec(inputs, node_attributes)
    state_dtype, state_limit = (DType.INT16, 32767) if variant % 2 == 0 else (DType.INT8, 127)
    input_q, feature_q = per_tensor(rng), Quantization((draw_scale(rng, 0.002, 0.05),), (0,))
    # The newest state values span about a quarter of the state's range.
    state_scale = input_q.scales[0] * feature_q.scales[0] * 128 * 127 * np.sqrt(input_size) / (state_limit / 4)
    state_q = Quantization(
        (float(np.float32(state_scale)),), (0 if state_dtype is DType.INT16 else int(rng.integers(-3, 4)),)
    )
    time_q = Quantization((draw_scale(rng, 1e-3, 1e-2),), (0,))
    bias_q = Quantization((float(np.float32(state_q.scales[0]) * np.float32(time_q.scales[0])),), (0,))
    sums = state_limit / 4 * state_limit * np.sqrt(memory * rank) / 2
    output_q = Quantization((float(np.float32(bias_q.scales[0] * sums / 64)),), (int(rng.integers(-5, 6)),))
    feature = values(rng, DType.INT8, (filters, input_size))
    time = rng.integers(-state_limit, state_limit, (filters, memory), endpoint=True).astype(state_dtype.numpy)
    bias = rng.integers(-int(sums), int(sums), units).astype(np.int32)
    inputs = [
        TensorSpec("input", DType.INT8, (batch, input_size), input_q),
        TensorSpec("weights_feature", DType.INT8, (filters, input_size), feature_q, feature),
        TensorSpec("weights_time", state_dtype, (filters, memory), time_q, time),
        TensorSpec("bias", DType.INT32, (units,), bias_q, bias) if rng.random() < 0.7 else None,
        TensorSpec("state", state_dtype, (batch, memory * filters), state_q, is_variable=True),
    ]
    return NodeSpec(inputs, node_attributes, output_q)


CASES = {
    "SVDF": KernelCases(svdf),
}
