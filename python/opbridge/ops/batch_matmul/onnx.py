# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL from ONNX: none here. ONNX MatMul converts in ops/fully_connected/onnx.py."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
