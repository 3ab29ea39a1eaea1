# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE: reference implementation, TFLite Micro's: 0 of the output's type in every element (+0.0 for float32;
for int8 the stored 0, not the zero point)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall


def zeros_like_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    return [np.zeros(output.shape, dtype=output.dtype.numpy)]
