# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE from ONNX: none (ONNX has no ZerosLike operator; ConstantOfShape takes a shape, not a tensor)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
