# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS from ONNX: none (ONNX's Unsqueeze converts onto RESHAPE, ops/reshape/onnx.py)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
