# SPDX-License-Identifier: Apache-2.0
"""UNPACK from ONNX: none. ONNX has no unstack operator (exporters write Split and Squeeze, which
convert to STRIDED_SLICE and RESHAPE)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
