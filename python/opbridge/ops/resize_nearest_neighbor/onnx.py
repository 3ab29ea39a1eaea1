# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR from ONNX: none. ONNX Resize divides by its scale (out / in) where TFLite multiplies
by in / out in float32, so the source indices are not the same at every size; no mode maps exactly."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
