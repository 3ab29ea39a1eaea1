# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE from ONNX: none here. ONNX DepthToSpace (NCHW, DCR and CRD modes) converts in
ops/transpose/onnx.py to RESHAPE, TRANSPOSE, RESHAPE, which covers both modes on the ONNX layout."""

from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = ()
