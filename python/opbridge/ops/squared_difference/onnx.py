# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE from ONNX: none (ONNX has no squared-difference operator; Sub then Mul stay two nodes)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
