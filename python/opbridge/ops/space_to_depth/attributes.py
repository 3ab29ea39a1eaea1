# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH's attributes: DEPTH_TO_SPACE's (the block size)."""

from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes

__all__ = ["BlockSizeAttributes"]
