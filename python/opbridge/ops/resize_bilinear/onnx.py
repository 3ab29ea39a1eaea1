# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR from ONNX: none. ONNX Resize (linear) computes its source positions by dividing by out / in
and interpolates in another order, and TFLite's int8 path is 10-bit fixed point, so no mode matches bit for
bit."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
