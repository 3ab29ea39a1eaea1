# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED from torch.export: linear, addmm and mm / matmul with constant weights, through
the ONNX Gemm and MatMul converters (int8 when PT2E quantized linear's input and weights)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_linear(translation: TorchTranslation, node: TorchNode) -> None:
    """linear(x, weight [out, in], bias): Gemm with transB for a 2-D x, else MatMul and Add."""
    x, weight, bias = node.args[:3]
    x_name, w_name = translation.name(x), translation.name(weight, "weight")
    if len(translation.meta(x).shape) == 2:
        bias_name = "" if bias is None else translation.name(bias, "bias")
        translation.onnx("Gemm", [x_name, w_name, bias_name], transB=1)
        return
    transposed = translation.onnx("Transpose", [w_name], outputs=1, perm=[1, 0])
    if bias is None:
        translation.onnx("MatMul", [x_name, transposed[0]])
        return
    product = translation.onnx("MatMul", [x_name, transposed[0]], outputs=1)
    translation.onnx("Add", [product[0], translation.name(bias, "bias")])


def convert_addmm(translation: TorchTranslation, node: TorchNode) -> None:
    """addmm(bias, x, w, beta, alpha) = beta * bias + alpha * (x @ w): Gemm."""
    bias, x, weight, beta, alpha = node.args[:5]
    translation.onnx(
        "Gemm",
        [translation.name(x), translation.name(weight, "weight"), translation.name(bias, "bias")],
        alpha=float(alpha),
        beta=float(beta),
    )


def convert_mm(translation: TorchTranslation, node: TorchNode) -> None:
    translation.onnx("MatMul", [translation.name(node.args[0]), translation.name(node.args[1], "weight")])


def _linear_relu(t: Any) -> tuple[Any, tuple[Any, ...]]:
    model = case_module(t, lambda m, x: t.relu(m.fc(x)), fc=t.nn.Linear(12, 5))
    return model, (t.randn(2, 12),)


def _matmul(t: Any) -> tuple[Any, tuple[Any, ...]]:
    weight = t.randn(6, 3)
    return case_module(t, lambda m, x: t.matmul(x, m.w), w=t.nn.Parameter(weight, requires_grad=False)), (
        t.randn(4, 6),
    )


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.linear.default",
        convert_linear,
        cases=(
            TorchCase("linear + relu", _linear_relu),
            TorchCase("no bias", lambda t: (t.nn.Linear(8, 3, bias=False).eval(), (t.randn(1, 8),))),
            TorchCase("rank 3", lambda t: (t.nn.Linear(4, 6).eval(), (t.randn(1, 5, 4),)), int8=False),
        ),
    ),
    TorchConverter(
        "aten.addmm.default",
        convert_addmm,
        cases=(
            TorchCase(
                "decomposed linear",
                lambda t: (t.nn.Linear(10, 4).eval(), (t.randn(3, 10),)),
                int8=False,
                decomposed=True,
            ),
        ),
    ),
    TorchConverter(
        "aten.mm.default",
        convert_mm,
        cases=(
            TorchCase(
                "decomposed linear without bias",
                lambda t: (t.nn.Linear(7, 2, bias=False).eval(), (t.randn(2, 7),)),
                int8=False,
                decomposed=True,
            ),
        ),
    ),
    TorchConverter(
        "aten.matmul.default", convert_mm, cases=(TorchCase("constant right operand", _matmul, int8=False),)
    ),
)
