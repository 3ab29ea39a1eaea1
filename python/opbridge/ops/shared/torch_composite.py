# SPDX-License-Identifier: Apache-2.0
"""torch ops that are no single opbridge operator: the identities of inference (clone, dropout in
eval, alias, detach), tuple element reads (operator.getitem), assertions torch.export records, and
batch_norm (folded into the convolution before it by the ONNX frontend's pass, else MUL and ADD)."""

from typing import Any

import numpy as np

from opbridge.frontends.torch.converter_helpers import alias, case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, Value
from opbridge.ir import DType
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_getitem(translation: TorchTranslation, node: TorchNode) -> None:
    """tuple[i] of a multi-output node: that node's i-th output value."""
    source, index = node.args[0], node.args[1]
    if not isinstance(source, Value) or not isinstance(index, int):
        raise node.unsupported(f"reads element {index!r} of {source!r}")
    translation.alias(node.output_names[0], f"{source.name}.{index}")


def convert_nothing(translation: TorchTranslation, node: TorchNode) -> None:
    """Checks torch.export records (_assert_tensor_metadata, ...): no operation at inference."""


def convert_dropout(translation: TorchTranslation, node: TorchNode) -> None:
    if node.args[2]:
        raise node.unsupported("dropout with train=True", hint="export the model in eval mode (model.eval())")
    alias(translation, node)


def batch_norm(translation: TorchTranslation, node: TorchNode, operands: tuple[Any, ...], epsilon: float) -> None:
    """BatchNormalization(x, scale, bias, mean, var); a missing weight or bias (affine=False) is 1 or 0."""
    x, weight, bias, mean, var = operands
    channels = translation.meta(x).shape[1]
    names = [translation.name(x)]
    for value, default, role in ((weight, 1.0, "weight"), (bias, 0.0, "bias")):
        if value is None:
            names.append(translation.constant(np.full(channels, default, np.float32), DType.FLOAT32, role))
        else:
            names.append(translation.name(value, role))
    names += [translation.name(mean, "running mean"), translation.name(var, "running var")]
    translation.onnx("BatchNormalization", names, outputs=node.output_names[:1], epsilon=float(epsilon))


def convert_batch_norm(translation: TorchTranslation, node: TorchNode) -> None:
    """batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)."""
    if node.args[5]:
        raise node.unsupported("batch_norm in training mode", hint="export the model in eval mode (model.eval())")
    batch_norm(translation, node, node.args[:5], node.args[7])


def convert_native_batch_norm(translation: TorchTranslation, node: TorchNode) -> None:
    """_native_batch_norm_legit_no_training(x, weight, bias, mean, var, momentum, eps) -> (y, -, -)."""
    batch_norm(translation, node, node.args[:5], node.args[6])


def _lone_batch_norm(t: Any) -> tuple[Any, tuple[Any, ...]]:
    model = case_module(t, lambda m, x: m.bn(t.relu(x)), bn=t.nn.BatchNorm2d(3))
    with t.no_grad():
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 2.0)
        model.bn.weight.uniform_(0.5, 1.5)
    return model, (t.randn(1, 3, 4, 4),)


def _dropout(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: m.drop(x).clone() + 1.0, drop=t.nn.Dropout(0.3)), (t.randn(2, 5),)


COMPOSITE_TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("operator.getitem", convert_getitem),
    TorchConverter(
        "aten.batch_norm.default", convert_batch_norm, cases=(TorchCase("alone", _lone_batch_norm, int8=False),)
    ),
    TorchConverter(
        "aten._native_batch_norm_legit_no_training.default",
        convert_native_batch_norm,
        cases=(TorchCase("decomposed", _lone_batch_norm, int8=False, decomposed=True),),
    ),
    TorchConverter(
        "aten.dropout.default", convert_dropout, cases=(TorchCase("dropout and clone", _dropout, int8=False),)
    ),
    TorchConverter("aten.clone.default", alias),
    TorchConverter("aten.alias.default", alias),
    TorchConverter("aten.detach.default", alias),
    TorchConverter("aten.contiguous.default", alias),
    TorchConverter("aten.lift_fresh_copy.default", alias),
    TorchConverter("aten._assert_tensor_metadata.default", convert_nothing),
)
