# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE: the LiteRT importer (builtin code, versions, DepthToSpaceOptions parser).

TFLite versions DEPTH_TO_SPACE 1 for float32 and 2 for int8. A missing options table reads as FlatBuffers'
default block size, 0, which the reference and the emitter refuse.
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes


def parse_litert_options(operator: Any) -> BlockSizeAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return BlockSizeAttributes(block_size=0)
    options = tflite.DepthToSpaceOptions()
    options.Init(table.Bytes, table.Pos)
    return BlockSizeAttributes(block_size=int(options.BlockSize()))


LITERT_CODE = BuiltinOperator.DEPTH_TO_SPACE
LITERT_VERSIONS = frozenset({1, 2})
