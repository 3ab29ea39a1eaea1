# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D from ONNX: AveragePool, 1-D and 2-D (and, through convert_pool, MAX_POOL_2D's MaxPool,
with explicit pads and with dilations whose strides are multiples of them). AveragePool's explicit pads
are the pool's own `pads` with count_include_pad=0 (each output divided by the input positions its
window covers), a PAD of zeros before a VALID pool with count_include_pad=1."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import (
    Converter,
    bind_from_nhwc,
    ints,
    require_attribute,
    spatial_padding,
    spatial_rank,
    to_nhwc,
    with_unit_height,
)
from opbridge.ir import DType
from opbridge.ir.attribute_types import Padding
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.strided_slice.onnx import strided_slice


def convert_pool(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        x = conversion.value(node.inputs[0], node)
        spatial = spatial_rank(conversion, node, x)
        original = node
        if spatial == 1:
            node = with_unit_height(node)
        require_attribute(node, "ceil_mode", 0, 0)
        kernel = ints(node, "kernel_shape", ())
        strides = ints(node, "strides", (1, 1))
        dilations = ints(node, "dilations", (1, 1))
        if len(kernel) != 2 or len(strides) != 2 or len(dilations) != 2:
            raise node.unsupported(f"kernel_shape {list(kernel)}, strides {list(strides)}, dilations {list(dilations)}")
        shape = conversion.tensor(x).shape
        input_hw = (1, shape[2]) if spatial == 1 else shape[2:4]
        if dilations != (1, 1):
            if op_key != "MAX_POOL_2D" or any(s % d for s, d in zip(strides, dilations, strict=True)):
                raise original.unsupported(
                    f"dilations={list(ints(original, 'dilations', ()))} with strides="
                    f"{list(ints(original, 'strides', ()))}: only a MaxPool whose strides are multiples of its "
                    "dilations is dilated"
                )
            result = dilated_max_pool(conversion, node, to_nhwc(conversion, node, x), kernel, strides, dilations)
            bind_from_nhwc(conversion, node, result, spatial)
            return
        padding = spatial_padding(node, input_hw, kernel, strides, (1, 1))  # type: ignore[arg-type]
        nhwc = to_nhwc(conversion, node, x)
        counts_pads = op_key == "AVERAGE_POOL_2D" and bool(node.attribute("count_include_pad", 0))
        if counts_pads and padding.padding is Padding.SAME:
            # TFLite's SAME averages over the valid elements only; counting the pads is a PAD first
            # (with no pads at all, SAME is VALID).
            pads = padding.amounts
            padding = dataclasses.replace(
                padding, padding=Padding.VALID, explicit=pads if any(pads[0] + pads[1]) else None
            )
        pads: tuple[int, ...] = ()
        if padding.explicit is not None and op_key == "AVERAGE_POOL_2D" and not counts_pads:
            # Explicit pads whose zeros are not counted (count_include_pad=0): the pool's own pads,
            # which its windows skip (each output divides by the input positions it covers).
            (top, bottom), (left, right) = padding.explicit
            pads = (top, bottom, left, right)
            padding = dataclasses.replace(padding, padding=Padding.VALID, explicit=None)
        elif padding.explicit is not None:
            # Explicit pads that are not TFLite's SAME: pad first (max: with the lowest value, which no
            # window picks over a real one; average: with zeros, counted as ONNX's count_include_pad=1
            # counts them), then pool VALID.
            nhwc = pad_for_pool(conversion, node, nhwc, padding.explicit, op_key == "MAX_POOL_2D")
            padding = dataclasses.replace(padding, padding=Padding.VALID, explicit=None)
        attributes = Pool2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            filter_height=kernel[0],
            filter_width=kernel[1],
            pads=pads,
        )
        bind_from_nhwc(conversion, node, conversion.emit(op_key, [nhwc], attributes, name=node.name)[0], spatial)

    return convert


def pad_for_pool(
    conversion: OnnxConversion, node: OnnxNode, nhwc: int, explicit: tuple, lowest: bool, name: str = "pad"
) -> int:
    """An NHWC input padded by explicit ((top, bottom), (left, right)): zeros (PAD), or the dtype's
    lowest value (PADV2) for a max pool."""
    tensor = conversion.tensor(nhwc)
    (top, bottom), (left, right) = explicit
    paddings = np.array([[0, 0], [top, bottom], [left, right], [0, 0]], np.int32)
    paddings_index = conversion.constant(paddings, DType.INT32, f"{node.name}/{name}/paddings")
    if not lowest:
        return conversion.emit("PAD", [nhwc, paddings_index], None, name=f"{node.name}/{name}")[0]
    floor = np.iinfo(np.int8).min if tensor.dtype is DType.INT8 else np.finfo(np.float32).min
    value = conversion.constant(np.array(floor), tensor.dtype, f"{node.name}/{name}/value", tensor.quantization)
    inputs: list[int | None] = [nhwc, paddings_index, value]
    return conversion.emit("PADV2", inputs, None, name=f"{node.name}/{name}", quantization=[tensor.quantization])[0]


def dilated_max_pool(
    conversion: OnnxConversion,
    node: OnnxNode,
    nhwc: int,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
) -> int:
    """A MaxPool with dilations d and strides s = m * d on the kernels that exist: with explicit pads
    (PADV2 of the lowest value) the window of output o reads x[o*s + k*d] = y[o*m + k] where
    y = x[::d] (a STRIDED_SLICE), so a VALID MAX_POOL_2D of stride m over y computes it."""
    if node.attribute("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        raise node.unsupported(f"auto_pad={node.attribute('auto_pad')!r} with dilations", hint="give explicit pads")
    pads = ints(node, "pads", (0, 0, 0, 0)) if node.attribute("auto_pad", "NOTSET") == "NOTSET" else (0, 0, 0, 0)
    if len(pads) != 4:
        raise node.unsupported(f"pads={list(pads)} is not 2-D padding")
    explicit = ((pads[0], pads[2]), (pads[1], pads[3]))
    if any(explicit[0]) or any(explicit[1]):
        nhwc = pad_for_pool(conversion, node, nhwc, explicit, lowest=True)
    batch, height, width, channels = conversion.tensor(nhwc).shape
    outputs, steps = [], []
    for size, k, s, d in zip((height, width), kernel, strides, dilations, strict=True):
        count = (size - ((k - 1) * d + 1)) // s + 1
        if count < 1:
            raise node.unsupported(f"a dilated window of {(k - 1) * d + 1} wider than the padded input ({size})")
        outputs.append(count)
        steps.append(s // d)
    bounds = [(0, batch, 1)]
    for count, k, m, d in zip(outputs, kernel, steps, dilations, strict=True):
        bounds.append((0, ((count - 1) * m + k - 1) * d + 1, d))
    bounds.append((0, channels, 1))
    sampled = strided_slice(conversion, node, nhwc, bounds, f"{node.name}/every_dilation", None)
    attributes = Pool2DAttributes(
        padding=Padding.VALID,
        stride_height=steps[0],
        stride_width=steps[1],
        filter_height=kernel[0],
        filter_width=kernel[1],
    )
    return conversion.emit("MAX_POOL_2D", [sampled], attributes, name=node.name)[0]


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("AveragePool", convert_pool("AVERAGE_POOL_2D")),)
