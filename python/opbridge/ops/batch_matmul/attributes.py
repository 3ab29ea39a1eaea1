# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL's attributes (TFLite's BatchMatMulOptions)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class BatchMatMulAttributes:
    # Whether the lhs (adj_x) or the rhs (adj_y) is stored transposed in its last two dimensions.
    adj_x: bool = False
    adj_y: bool = False
