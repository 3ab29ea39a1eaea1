# SPDX-License-Identifier: Apache-2.0
"""PAD from torch.export: pad (constant, reflect, replicate) and constant_pad_nd, through the ONNX Pad
converter. torch lists (before, after) pairs from the last dim backwards; ONNX all befores, then all afters."""

from typing import Any

import numpy as np

from opbridge.frontends.torch.converter_helpers import case_module, int64
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, ints
from opbridge.ops.definition import TorchCase, TorchConverter

MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}


def _pad(translation: TorchTranslation, node: TorchNode, amounts: Any, mode: str, value: Any) -> None:
    x = translation.name(node.args[0])
    meta = translation.meta(x)
    pairs = ints(amounts, node, "pad")
    if len(pairs) % 2 or len(pairs) // 2 > len(meta.shape):
        raise node.unsupported(f"pad {list(pairs)} for a rank-{len(meta.shape)} input")
    if mode not in MODES:
        raise node.unsupported(f"mode {mode!r}", hint=f"supported: {', '.join(MODES)}")
    if any(p < 0 for p in pairs):
        raise node.unsupported(f"negative pad {list(pairs)} (a crop)", hint="slice the tensor instead")
    befores, afters = [0] * len(meta.shape), [0] * len(meta.shape)
    for index in range(len(pairs) // 2):
        befores[-1 - index], afters[-1 - index] = pairs[2 * index], pairs[2 * index + 1]
    inputs = [x, int64(translation, befores + afters, "pads")]
    if mode == "constant" and value not in (None, 0, 0.0):
        inputs.append(translation.constant(np.array(value), meta.dtype, "value"))
    translation.onnx("Pad", inputs, mode=MODES[mode])


def convert_pad(translation: TorchTranslation, node: TorchNode) -> None:
    _pad(translation, node, node.args[1], node.args[2], node.args[3])


def convert_constant_pad_nd(translation: TorchTranslation, node: TorchNode) -> None:
    _pad(translation, node, node.args[1], "constant", node.args[2])


def _zeros(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.pad(x, (1, 2, 0, 1))), (t.randn(1, 2, 4, 4),)


def _reflect(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.pad(x, (2, 1), mode="reflect")), (t.randn(1, 2, 6),)


def _value(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.pad(x, (1, 1), value=0.5)), (t.randn(2, 3),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.pad.default",
        convert_pad,
        cases=(
            TorchCase("zeros", _zeros, int8=False),
            TorchCase("reflect", _reflect, int8=False),
            TorchCase("a value", _value, int8=False),
        ),
    ),
    TorchConverter(
        "aten.constant_pad_nd.default",
        convert_constant_pad_nd,
        cases=(TorchCase("decomposed", _value, int8=False, decomposed=True),),
    ),
)
