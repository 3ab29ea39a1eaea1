# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V from ONNX: none here. ONNX Split (sizes from its 'split' input, or opset 18's num_outputs)
converts to one STRIDED_SLICE per output (ops/strided_slice/onnx.py), and one ONNX op has one converter."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
