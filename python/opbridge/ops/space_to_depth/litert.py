# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH: the LiteRT importer (builtin code, versions, SpaceToDepthOptions parser).

TFLite versions SPACE_TO_DEPTH 1 for float32 and 2 for int8. A missing options table reads as FlatBuffers'
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
    options = tflite.SpaceToDepthOptions()
    options.Init(table.Bytes, table.Pos)
    return BlockSizeAttributes(block_size=int(options.BlockSize()))


LITERT_CODE = BuiltinOperator.SPACE_TO_DEPTH
LITERT_VERSIONS = frozenset({1, 2})
