# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION from ONNX: LRN over the channels of an NCHW input (the rank onnxruntime takes).

ONNX's y = x / (bias + alpha / size * sum of x_i^2)^beta over the channels i from c - floor((size - 1) / 2)
to c + ceil((size - 1) / 2) is TFLite's form with radius_before = floor((size - 1) / 2),
radius_after = size - 1 - radius_before and alpha / size (divided in float32, as onnxruntime divides it).
The input is transposed to NHWC (channels last); between NHWC ops the transposes cancel.
"""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import bind_nchw, to_nhwc
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.lrn.attributes import LocalResponseNormalizationAttributes


def convert_lrn(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if rank != 4:
        raise node.unsupported(f"an input of rank {rank}", hint="LRN is converted for NCHW (rank 4) inputs")
    size = int(node.attribute("size", 0))
    if size < 1:
        raise node.unsupported(f"size={size}", hint="give the window's size in channels (1 or more)")
    before = (size - 1) // 2
    attributes = LocalResponseNormalizationAttributes(
        radius_before=before,
        radius_after=size - 1 - before,
        bias=float(np.float32(node.attribute("bias", 1.0))),
        alpha=float(np.float32(node.attribute("alpha", 0.0001)) / np.float32(size)),
        beta=float(np.float32(node.attribute("beta", 0.75))),
    )
    nhwc = to_nhwc(conversion, node, x)
    (result,) = conversion.emit("LOCAL_RESPONSE_NORMALIZATION", [nhwc], attributes, name=node.name)
    bind_nchw(conversion, node, result)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("LRN", convert_lrn),)
