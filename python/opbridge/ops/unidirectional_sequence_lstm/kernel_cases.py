# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM: the nodes of its per-kernel golden test
(//cc/kernels:unidirectional_sequence_lstm_kernel_test).

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
    draw_scale,
    int16_symmetric,
    per_tensor,
    values,
)

from opbridge.ir import DType, Quantization


def lstm(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """UNIDIRECTIONAL_SEQUENCE_LSTM, batch-major (variant 0) or time-major (1), its hidden and cell states
    variable tensors; int8 quantized as TFLite's converter does (symmetric weights, but for int8's
    variant 1; biases at input x weight scale, an int16 cell state of scale 2^-11); 16x8 likewise with
    int16 input and hidden state (zero points 0) and int64 biases."""
    time, batch = int(rng.integers(1, 3, endpoint=True)), int(rng.integers(1, 2, endpoint=True))
    input_size, units = int(rng.integers(1, 6, endpoint=True)), int(rng.integers(1, 5, endpoint=True))
    time_major = variant % 2 == 1
    shape = (time, batch, input_size) if time_major else (batch, time, input_size)
    node_attributes = attributes(
        "UNIDIRECTIONAL_SEQUENCE_LSTM", time_major=time_major, cell_clip=float(rng.choice([0.0, 3.0]))
    )
    inputs: list[TensorSpec | None] = [None] * 24
    gates = range(4)
    if path.source is DType.FLOAT32:
        f32 = DType.FLOAT32
        inputs[0] = TensorSpec("input", f32, shape)
        for g in gates:
            inputs[1 + g] = TensorSpec(f"w{g}", f32, (units, input_size), data=values(rng, f32, (units, input_size)))
            inputs[5 + g] = TensorSpec(f"r{g}", f32, (units, units), data=values(rng, f32, (units, units)))
            inputs[12 + g] = TensorSpec(f"b{g}", f32, (units,), data=values(rng, f32, (units,)))
        inputs[18] = TensorSpec("output_state", f32, (batch, units), is_variable=True)
        inputs[19] = TensorSpec("cell_state", f32, (batch, units), is_variable=True)
        return NodeSpec(inputs, node_attributes)
    wide = path.source is DType.INT16
    if wide:
        # About the int8 path's real ranges: inputs up to a few units, the hidden state about [-1, 1].
        input_q, output_q = int16_symmetric(rng, 2e-5, 2e-4), Quantization((float(np.float32(1 / 32768)),), (0,))
    else:
        input_q, output_q = per_tensor(rng, 0.005, 0.05), Quantization((float(np.float32(2 / 255)),), (0,))
    bias_dtype, bias_limit = (DType.INT64, 200_000) if wide else (DType.INT32, 2000)
    for g in gates:
        for base, depth, source_q in ((1, input_size, input_q), (5, units, output_q)):
            # int8's variant 1 gives its weights zero points (the kernels' weight offsets; TFLite's
            # converter writes 0).
            zero_point = int(rng.integers(-20, 21)) if not wide and variant == 1 else 0
            weight_q = Quantization((draw_scale(rng, 0.002, 0.02),), (zero_point,))
            data = values(rng, DType.INT8, (units, depth))
            inputs[base + g] = TensorSpec(f"w{base + g}", DType.INT8, (units, depth), weight_q, data)
            if base == 1:
                bias_q = Quantization((float(np.float32(source_q.scales[0]) * np.float32(weight_q.scales[0])),), (0,))
                bias = rng.integers(-bias_limit, bias_limit, units).astype(bias_dtype.numpy)
                inputs[12 + g] = TensorSpec(f"b{g}", bias_dtype, (units,), bias_q, bias)
    inputs[0] = TensorSpec("input", path.source, shape, input_q)
    inputs[18] = TensorSpec("output_state", path.source, (batch, units), output_q, is_variable=True)
    inputs[19] = TensorSpec(
        "cell_state", DType.INT16, (batch, units), Quantization((2.0**-11,), (0,)), is_variable=True
    )
    return NodeSpec(inputs, node_attributes, output_q)


CASES = {
    "UNIDIRECTIONAL_SEQUENCE_LSTM": KernelCases(lstm, int16=True),
}
