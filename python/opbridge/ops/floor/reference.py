# SPDX-License-Identifier: Apache-2.0
"""FLOOR: reference implementation, TFLite Micro's std::floor on float32 (exact: -0.0 for -0.0, infinities and NaN
pass unchanged)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def floor_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, np.floor)
