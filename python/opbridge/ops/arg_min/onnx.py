# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN from ONNX: ArgMin, as ArgMax converts (ops/arg_max/onnx.py): select_last_index 0, keepdims 1 by a
RESHAPE, the axis as ONNX numbers it, int64 indices."""

from opbridge.ops.arg_max.onnx import arg_min_max_converter
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("ArgMin", arg_min_max_converter("ARG_MIN")),)
