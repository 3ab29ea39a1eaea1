# SPDX-License-Identifier: Apache-2.0
"""ABS: reference implementation, TFLite Micro's std::abs on float32 (exact; the sign bit clears, -0.0 -> 0.0)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def abs_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, np.abs)
