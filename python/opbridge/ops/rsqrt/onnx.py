# SPDX-License-Identifier: Apache-2.0
"""RSQRT from ONNX: none (ONNX has no reciprocal square root operator; Sqrt then Reciprocal stay two nodes)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
