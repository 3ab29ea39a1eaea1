# SPDX-License-Identifier: Apache-2.0
"""NEG: reference implementation, TFLite Micro's -x on float32 (exact; -0.0 for 0.0 and 0.0 for -0.0)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def neg_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, np.negative)
