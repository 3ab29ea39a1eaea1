# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference MINIMUM: np.minimum of the raw values, broadcast (float32: a < b ? a : b)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.min_max import min_max_reference


def minimum_reference(call: ReferenceCall) -> list[Array]:
    return min_max_reference(call, np.minimum)
