# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's float32 LOG_SOFTMAX (reference_ops::LogSoftmax), rounded step by step.

Per row of the last axis: the maximum (from -FLT_MAX, std::max in order, so
a NaN never becomes it), sum = 0 + exp(x_0 - max) + exp(x_1 - max) + ... in
order, log_sum = log(sum), output (x_c - max) - log_sum; each step one
float32 rounding. exp and log are float64 rounded once to float32 (the C
kernel's and TFLite Micro's expf and logf may differ by an ulp).
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import FLOAT32_LOWEST, float32_exp, require_float32


def float32_log(values: Array) -> Array:
    """log in float64, rounded once to float32 (libm's logf is within an ulp of it)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(np.asarray(values, dtype=np.float64)).astype(np.float32)


def log_softmax_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    values = np.asarray(call.value(0), dtype=np.float32)
    rows = values.reshape(-1, values.shape[-1])
    with np.errstate(all="ignore"):
        maximum = np.full(rows.shape[0], FLOAT32_LOWEST, dtype=np.float32)
        for column in rows.T:
            maximum = np.where(maximum < column, column, maximum)  # std::max(maximum, x)
        total = np.zeros(rows.shape[0], dtype=np.float32)
        for column in rows.T:
            total = total + float32_exp(column - maximum)
        log_sum = float32_log(total)
        result = (rows - maximum[:, None]) - log_sum[:, None]
    return [result.astype(np.float32).reshape(output.shape)]
