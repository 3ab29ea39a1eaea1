# SPDX-License-Identifier: Apache-2.0
"""SHAPE from ONNX: none (the ONNX frontend folds Shape on static shapes before conversion, preparation.py)."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
