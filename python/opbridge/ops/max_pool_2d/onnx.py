# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D from ONNX: MaxPool (without dilation or ceil_mode; AVERAGE_POOL_2D's convert_pool)."""

from opbridge.ops.average_pool_2d.onnx import convert_pool
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("MaxPool", convert_pool("MAX_POOL_2D")),)
