# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION from ONNX: none (ONNX's LpNormalization divides by the norm with no epsilon, and its int8 form
would need TFLite's fixed output scale; not converted)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
