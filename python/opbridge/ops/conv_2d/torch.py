# SPDX-License-Identifier: Apache-2.0
"""CONV_2D and DEPTHWISE_CONV_2D from torch.export: conv1d, conv2d (any groups; padding as numbers,
"same" or "valid") and convolution (what run_decompositions leaves; transposed: TRANSPOSE_CONV),
through the ONNX Conv and ConvTranspose converters."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module, spatial_ints
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def _padding_attributes(node: TorchNode, padding: Any, spatial: int) -> dict[str, Any]:
    if padding == "same":
        return {"auto_pad": "SAME_UPPER"}  # torch puts an odd padding's extra element at the end, as SAME_UPPER
    if padding == "valid":
        return {"pads": [0] * (2 * spatial)}
    return {"pads": spatial_ints(padding, node, "padding", spatial) * 2}


def _operands(translation: TorchTranslation, x: Any, weight: Any, bias: Any) -> list[str]:
    bias_name = "" if bias is None else translation.name(bias, "bias")
    return [translation.name(x), translation.name(weight, "weight"), bias_name]


def convolution(translation: TorchTranslation, node: TorchNode, spatial: int) -> None:
    """conv1d / conv2d (input, weight, bias, stride, padding, dilation, groups)."""
    x, weight, bias, stride, padding, dilation, groups = node.args[:7]
    translation.onnx(
        "Conv",
        _operands(translation, x, weight, bias),
        strides=spatial_ints(stride, node, "stride", spatial),
        dilations=spatial_ints(dilation, node, "dilation", spatial),
        group=int(groups),
        **_padding_attributes(node, padding, spatial),
    )


def convert_conv1d(translation: TorchTranslation, node: TorchNode) -> None:
    convolution(translation, node, 1)


def convert_conv2d(translation: TorchTranslation, node: TorchNode) -> None:
    convolution(translation, node, 2)


def convert_convolution(translation: TorchTranslation, node: TorchNode) -> None:
    """convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)."""
    x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = node.args[:9]
    spatial = len(translation.meta(x).shape) - 2
    if spatial not in (1, 2):
        raise node.unsupported(f"a {spatial}-D convolution", hint="opbridge converts 1-D and 2-D convolutions")
    attributes: dict[str, Any] = {
        "strides": spatial_ints(stride, node, "stride", spatial),
        "dilations": spatial_ints(dilation, node, "dilation", spatial),
        "group": int(groups),
        **_padding_attributes(node, padding, spatial),
    }
    if transposed:
        attributes["output_padding"] = spatial_ints(output_padding, node, "output_padding", spatial)
    translation.onnx("ConvTranspose" if transposed else "Conv", _operands(translation, x, weight, bias), **attributes)


def _conv_bn_relu6(t: Any) -> tuple[Any, tuple[Any, ...]]:
    model = case_module(
        t,
        lambda m, x: t.nn.functional.relu6(m.bn(m.conv(x))),
        conv=t.nn.Conv2d(3, 6, 3, padding=1),
        bn=t.nn.BatchNorm2d(6),
    )
    with t.no_grad():  # statistics of a trained network, not the identity
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 2.0)
    return model, (t.randn(1, 3, 8, 8),)


def _transposed(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return t.nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1).eval(), (t.randn(1, 4, 5, 5),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.conv2d.default",
        convert_conv2d,
        cases=(
            TorchCase(
                "3x3 stride 2", lambda t: (t.nn.Conv2d(4, 8, 3, stride=2, padding=1).eval(), (t.randn(1, 4, 9, 9),))
            ),
            TorchCase(
                "depthwise", lambda t: (t.nn.Conv2d(8, 8, 3, padding=1, groups=8).eval(), (t.randn(1, 8, 6, 6),))
            ),
            TorchCase(
                "grouped, no bias",
                lambda t: (t.nn.Conv2d(8, 4, 1, groups=2, bias=False).eval(), (t.randn(1, 8, 5, 5),)),
            ),
            TorchCase("dilated", lambda t: (t.nn.Conv2d(3, 4, 3, dilation=2).eval(), (t.randn(1, 3, 9, 9),))),
            TorchCase("batch norm folded, relu6 fused", _conv_bn_relu6),
        ),
    ),
    TorchConverter(
        "aten.conv2d.padding",
        convert_conv2d,
        cases=(
            TorchCase("same", lambda t: (t.nn.Conv2d(4, 4, (3, 4), padding="same").eval(), (t.randn(1, 4, 7, 7),))),
        ),
    ),
    TorchConverter(
        "aten.conv1d.default",
        convert_conv1d,
        cases=(
            TorchCase("stride 2", lambda t: (t.nn.Conv1d(4, 6, 3, stride=2, padding=1).eval(), (t.randn(1, 4, 16),))),
        ),
    ),
    TorchConverter(
        "aten.conv1d.padding",
        convert_conv1d,
        cases=(TorchCase("same", lambda t: (t.nn.Conv1d(2, 3, 5, padding="same").eval(), (t.randn(1, 2, 12),))),),
    ),
    TorchConverter(
        "aten.convolution.default",
        convert_convolution,
        cases=(
            TorchCase(
                "decomposed conv2d",
                lambda t: (t.nn.Conv2d(3, 4, 3, padding=1).eval(), (t.randn(1, 3, 6, 6),)),
                int8=False,
                decomposed=True,
            ),
            TorchCase("transposed", _transposed, int8=False, decomposed=True),
        ),
    ),
)
