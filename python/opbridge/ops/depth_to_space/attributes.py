# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE's attributes (SPACE_TO_DEPTH's are the same)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class BlockSizeAttributes:
    # The side of the square block, >= 1 (TFLite's DepthToSpaceOptions and SpaceToDepthOptions.block_size).
    block_size: int = 2
