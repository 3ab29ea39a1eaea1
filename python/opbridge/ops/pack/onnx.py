# SPDX-License-Identifier: Apache-2.0
"""PACK from ONNX: none. ONNX has no stack operator (exporters write Unsqueeze and Concat, which
convert to RESHAPE and CONCATENATION)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
