# SPDX-License-Identifier: Apache-2.0
"""SPLIT from ONNX: none here. ONNX Split converts to one STRIDED_SLICE per output
(ops/strided_slice/onnx.py), and one ONNX op has one converter."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
