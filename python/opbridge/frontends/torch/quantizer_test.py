# SPDX-License-Identifier: Apache-2.0
"""OpbridgeQuantizer annotates like TFLite's int8 converter: checked on the re-exported converted graphs."""

import dataclasses
import math
from collections.abc import Callable

import hypothesis
import hypothesis.strategies as st
import pytest
import torch
import torch.nn.functional as F  # noqa: N812 (torch's own spelling)
from torch import nn
from torch.fx import Graph, Node

from opbridge.errors import ConfigError, InvalidInputError
from opbridge.frontends.torch import spec
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.registry_context import RegistryContext

QUANTIZE = torch.ops.quantized_decomposed.quantize_per_tensor.default
DEQUANTIZE = torch.ops.quantized_decomposed.dequantize_per_tensor.default
DEQUANTIZE_PER_CHANNEL = torch.ops.quantized_decomposed.dequantize_per_channel.default
QDQ = (QUANTIZE, DEQUANTIZE, DEQUANTIZE_PER_CHANNEL)

CALIBRATION_BATCHES = 8


# --- a plugin op, quantized as each test declares ---


@torch.library.custom_op("opb_test::my_op", mutates_args=())
def my_op(x: torch.Tensor) -> torch.Tensor:
    return torch.clamp(x, -1.0, 1.0)


@my_op.register_fake
def _(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


@torch.library.custom_op("opb_test::my_max", mutates_args=())
def my_max(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.maximum(x, y)


@my_max.register_fake
def _(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


MY_OP = "opb_test.my_op.default"
MY_MAX = "opb_test.my_max.default"


# --- helpers ---


class Quantized:
    """A model quantized by quantize_pt2e, re-exported with torch.export (as opbridge reads it)."""

    def __init__(self, model: nn.Module, *shapes: tuple[int, ...], quantizer: OpbridgeQuantizer | None = None) -> None:
        torch.manual_seed(0)
        example = tuple(torch.randn(shape) for shape in shapes)
        calibration = [tuple(torch.randn(shape) * 2 for shape in shapes) for _ in range(CALIBRATION_BATCHES)]
        self.quantizer = quantizer if quantizer is not None else OpbridgeQuantizer()
        self.float_model = model
        self.example = example
        self.module = quantize_pt2e(model, example, calibration, self.quantizer)
        self.program = torch.export.export(self.module, example)
        self.graph: Graph = self.program.graph_module.graph

    def ops(self, target: str) -> list[Node]:
        return [n for n in self.graph.nodes if n.op == "call_function" and str(n.target) == target]

    def op(self, target: str) -> Node:
        (node,) = self.ops(target)
        return node

    def tensor(self, node: Node) -> torch.Tensor:
        """The buffer / constant a placeholder of the exported program stands for."""
        signature = self.program.graph_signature
        for names in (signature.inputs_to_buffers, signature.inputs_to_parameters):
            if node.name in names:
                return self.program.state_dict[names[node.name]]
        return self.program.constants[signature.inputs_to_lifted_tensor_constants[node.name]]


def per_tensor(node: Node) -> tuple[float, int]:
    """(scale, zero point) of an int8 quantize / dequantize per tensor in [-128, 127]."""
    assert node.target in (QUANTIZE, DEQUANTIZE), node.format_node()
    assert tuple(node.args[3:6]) == (-128, 127, torch.int8), node.format_node()
    return float(node.args[1]), int(node.args[2])  # type: ignore[arg-type]


def input_parameters(op: Node, position: int = 0) -> tuple[float, int]:
    """The parameters `op` reads its input `position` with (through its dequantize)."""
    argument = op.args[position]
    assert isinstance(argument, Node) and argument.target == DEQUANTIZE, (
        f"{op.name} input {position} is not dequantized"
    )
    return per_tensor(argument)


def output_parameters(op: Node) -> tuple[float, int]:
    """The parameters `op`'s output is quantized with (its only reader is a quantize)."""
    (user,) = op.users
    assert user.target == QUANTIZE, f"{op.name} output is read by {user.name}, not a quantize"
    return per_tensor(user)


def check_weight(quantized: Quantized, op: Node, weight: torch.Tensor) -> None:
    """`op`'s weight is an int8 buffer dequantized per output channel, symmetric in [-127, 127]."""
    dequantize = op.args[1]
    assert isinstance(dequantize, Node) and dequantize.target == DEQUANTIZE_PER_CHANNEL
    values, scales, zero_points = (quantized.tensor(a) for a in dequantize.args[:3])  # type: ignore[arg-type]
    assert tuple(dequantize.args[3:7]) == (0, -127, 127, torch.int8)
    assert values.dtype == torch.int8 and values.shape == weight.shape
    assert int(values.min()) >= -127
    assert torch.all(zero_points == 0)
    assert scales.shape == (weight.shape[0],)
    amax = weight.detach().abs().reshape(weight.shape[0], -1).amax(dim=1)
    torch.testing.assert_close(scales.float(), amax / 127, rtol=1e-6, atol=1e-12)
    # The largest magnitude of each channel is +-127; every value is within half a step of the float one.
    assert torch.all(values.reshape(weight.shape[0], -1).abs().amax(dim=1) == 127)
    broadcast = scales.reshape(-1, *([1] * (weight.dim() - 1)))
    assert torch.all((values.float() * broadcast - weight.detach()).abs() <= broadcast / 2 + 1e-7)


def check_bias(quantized: Quantized, op: Node, bias: torch.Tensor) -> None:
    """`op`'s bias is an int32 buffer dequantized per output channel with scale input_scale *
    weight_scale (float32) and zero point 0, as TFLite's converter quantizes it."""
    dequantize = op.args[2]
    assert isinstance(dequantize, Node) and dequantize.target == DEQUANTIZE_PER_CHANNEL
    values, scales, zero_points = (quantized.tensor(a) for a in dequantize.args[:3])  # type: ignore[arg-type]
    assert tuple(dequantize.args[3:7]) == (0, -(2**31) + 1, 2**31 - 1, torch.int32)
    assert values.dtype == torch.int32 and torch.all(zero_points == 0)
    input_scale, _ = input_parameters(op)
    weight_scales = quantized.tensor(op.args[1].args[1])  # type: ignore[union-attr,arg-type]
    expected_scales = torch.tensor(input_scale, dtype=torch.float32) * weight_scales.float()
    torch.testing.assert_close(scales.float(), expected_scales, rtol=0, atol=0)
    assert torch.all((values.double() * scales.double() - bias.detach().double()).abs() <= scales.double() / 2 + 1e-9)


def assert_no_qdq_between(first: Node, second: Node) -> None:
    assert second.args[0] is first, f"{second.name} does not read {first.name} directly"
    assert list(first.users) == [second]


def non_qdq_ops(quantized: Quantized) -> list[str]:
    return [str(n.target) for n in quantized.graph.nodes if n.op == "call_function" and n.target not in QDQ]


class Wrap(nn.Module):
    """A module running `function` (and owning `modules`, so that their parameters are exported)."""

    def __init__(self, function: Callable[..., torch.Tensor], **modules: nn.Module) -> None:
        super().__init__()
        self.function = function
        self.parts = nn.ModuleDict(modules)

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        return self.function(self.parts, *inputs)


def random_batch_norm(channels: int) -> nn.BatchNorm2d:
    bn = nn.BatchNorm2d(channels)
    with torch.no_grad():
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
    return bn


# --- convolutions, linear, fused activations ---


def test_conv_batch_norm_relu6_folds_the_batch_norm_and_fuses_the_relu6() -> None:
    torch.manual_seed(1)
    conv, bn = nn.Conv2d(3, 8, 3, padding=1, bias=False), random_batch_norm(8)
    model = nn.Sequential(conv, bn, nn.ReLU6())
    q = Quantized(model, (1, 3, 8, 8))

    assert "aten.batch_norm.default" not in non_qdq_ops(q)
    conv_node, relu6 = q.op("aten.conv2d.default"), q.op("aten.hardtanh.default")
    assert_no_qdq_between(conv_node, relu6)
    # The weight quantized is the conv's weight with the batch norm folded in, the bias int32.
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    check_weight(q, conv_node, conv.weight * scale.reshape(-1, 1, 1, 1))
    check_bias(q, conv_node, bn.bias - bn.running_mean * scale)
    # The graph input is quantized as an activation; the relu6 output observed after the clamp.
    (x,) = q.program.graph_signature.user_inputs
    assert [u.target for u in q.graph.find_nodes(op="placeholder", target=x)[0].users] == [QUANTIZE]
    output_scale, output_zero_point = output_parameters(relu6)
    assert output_zero_point == -128  # relu6 output: the observed range starts at 0
    assert output_scale <= 6 / 255 * (1 + 1e-6)  # observed after the clamp to [0, 6]
    # Quantized result close to the float model (eval mode: the batch norm uses its running statistics).
    model.eval()
    torch.testing.assert_close(q.module(*q.example), model(*q.example), atol=0.1, rtol=0)


def test_quantize_pt2e_leaves_the_model_as_it_was() -> None:
    torch.manual_seed(2)
    model = nn.Sequential(nn.Conv2d(3, 4, 3), random_batch_norm(4), nn.ReLU())
    model.train()
    before = {name: value.clone() for name, value in model.state_dict().items()}
    Quantized(model, (1, 3, 6, 6))
    assert model.training
    after = model.state_dict()
    assert all(torch.equal(before[name], after[name]) for name in before)


@pytest.mark.parametrize("exported_training", [False, True])
@pytest.mark.parametrize("given", ["program", "module"])
def test_a_saved_pt2_quantizes_as_its_nn_module_does(tmp_path: object, exported_training: bool, given: str) -> None:
    """torch.export.load(f) or its .module() (whose eval() raises NotImplementedError in torch): exported
    again and moved to eval mode, the int8 model equals the one quantized from the nn.Module, even for a
    program exported in training mode (dropout off, the batch norm on its running statistics)."""
    import pathlib

    torch.manual_seed(31)
    model = nn.Sequential(nn.Conv2d(2, 4, 3), random_batch_norm(4), nn.ReLU(), nn.Dropout(0.5), nn.Conv2d(4, 3, 1))
    example = (torch.randn(1, 2, 6, 6),)
    calibration = [(torch.randn(1, 2, 6, 6) * 2,) for _ in range(4)]
    model.train(exported_training)
    path = pathlib.Path(str(tmp_path)) / "model.pt2"
    torch.export.save(torch.export.export(model, example), str(path))
    program = torch.export.load(str(path))
    loaded = program if given == "program" else program.module()
    from_pt2 = quantize_pt2e(loaded, example, calibration, OpbridgeQuantizer())
    from_module = quantize_pt2e(model, example, calibration, OpbridgeQuantizer())
    probe = torch.randn(1, 2, 6, 6) * 2
    with torch.no_grad():
        torch.testing.assert_close(from_pt2(probe), from_module(probe), rtol=0, atol=0)
        if given == "module" and exported_training:  # the caller's module is left as it was: dropout on
            assert not torch.equal(loaded(probe), loaded(probe))


def test_depthwise_conv_weights_are_per_output_channel() -> None:
    torch.manual_seed(3)
    depthwise = nn.Conv2d(6, 12, 3, groups=6, padding=1)
    q = Quantized(nn.Sequential(depthwise, nn.ReLU()), (1, 6, 7, 7))
    conv_node = q.op("aten.conv2d.default")
    check_weight(q, conv_node, depthwise.weight)
    assert_no_qdq_between(conv_node, q.op("aten.relu.default"))


def test_linear_relu_is_fused() -> None:
    torch.manual_seed(4)
    linear = nn.Linear(10, 5)
    q = Quantized(nn.Sequential(linear, nn.ReLU()), (2, 10))
    linear_node, relu = q.op("aten.linear.default"), q.op("aten.relu.default")
    check_weight(q, linear_node, linear.weight)
    assert_no_qdq_between(linear_node, relu)
    check_bias(q, linear_node, linear.bias)
    assert output_parameters(relu)[1] == -128


def test_conv_read_twice_is_not_fused_and_the_relu_shares_its_parameters() -> None:
    torch.manual_seed(5)
    model = Wrap(lambda p, x: (lambda y: torch.cat([F.relu(y), y], 1))(p.conv(x)), conv=nn.Conv2d(2, 3, 1))
    q = Quantized(model, (1, 2, 4, 4))
    conv_node, relu = q.op("aten.conv2d.default"), q.op("aten.relu.default")
    conv_output = output_parameters(conv_node)
    assert input_parameters(relu) == conv_output
    assert output_parameters(relu) == conv_output


@hypothesis.settings(max_examples=8, deadline=None)
@hypothesis.given(
    channels=st.integers(1, 4),
    multiplier=st.integers(1, 3),
    kernel=st.integers(1, 3),
    depthwise=st.booleans(),
    bias=st.booleans(),
    one_dimensional=st.booleans(),
)
def test_conv_weights_are_symmetric_per_channel_int8(
    channels: int, multiplier: int, kernel: int, depthwise: bool, bias: bool, one_dimensional: bool
) -> None:
    torch.manual_seed(6)
    groups = channels if depthwise else 1
    conv_class = nn.Conv1d if one_dimensional else nn.Conv2d
    conv = conv_class(channels, channels * multiplier, kernel, groups=groups, bias=bias)
    shape = (1, channels, 5) if one_dimensional else (1, channels, 5, 5)
    q = Quantized(nn.Sequential(conv), shape)
    conv_node = q.op("aten.conv1d.default" if one_dimensional else "aten.conv2d.default")
    check_weight(q, conv_node, conv.weight)
    input_scale, input_zero_point = input_parameters(conv_node)
    assert input_scale > 0 and -128 <= input_zero_point <= 127
    if bias:
        check_bias(q, conv_node, conv.bias)


def test_activation_parameters_are_the_calibration_min_max_as_tflite_computes_them() -> None:
    model = Wrap(lambda p, x: p.linear(x), linear=nn.Linear(4, 4))
    example = (torch.zeros(1, 4),)
    calibration = [(torch.tensor([[-1.0, 0.5, 2.0, 3.0]]),), (torch.tensor([[0.0, -0.5, 1.0, 0.0]]),)]
    module = quantize_pt2e(model, example, calibration)
    (quantize,) = [n for n in module.graph.nodes if n.target == QUANTIZE and n.args[0].op == "placeholder"]
    scale, zero_point = per_tensor(quantize)
    # TFLite: scale = (max - min) / 255, zero point = -128 - round(min / scale).
    assert scale == pytest.approx(4.0 / 255, rel=1e-6)
    assert zero_point == -128 - round(-1.0 / (4.0 / 255))


# --- elementwise, pools, shared parameters ---


def two_branches() -> dict[str, nn.Module]:
    return {"a": nn.Conv2d(3, 4, 1), "b": nn.Conv2d(3, 4, 1)}


def test_add_has_own_input_and_output_parameters() -> None:
    torch.manual_seed(7)
    q = Quantized(Wrap(lambda p, x: p.a(x) + 3 * p.b(x), **two_branches()), (1, 3, 4, 4))
    a, _ = q.ops("aten.conv2d.default")
    add = q.op("aten.add.Tensor")
    assert input_parameters(add, 0) == output_parameters(a)
    assert input_parameters(add, 1) != input_parameters(add, 0)
    outputs = {output_parameters(a), output_parameters(add)}
    assert len(outputs) == 2
    assert output_parameters(add) not in (input_parameters(add, 0), input_parameters(add, 1))


def test_add_relu_and_mul_relu_are_fused() -> None:
    torch.manual_seed(8)
    q = Quantized(Wrap(lambda p, x: F.relu(F.relu(p.a(x) + p.b(x)) * p.b(x)), **two_branches()), (1, 3, 4, 4))
    add, mul = q.op("aten.add.Tensor"), q.op("aten.mul.Tensor")
    first, second = q.ops("aten.relu.default")
    assert_no_qdq_between(add, first)
    assert_no_qdq_between(mul, second)
    assert output_parameters(first)[1] == -128 and output_parameters(second)[1] == -128


def test_cat_inputs_and_output_share_one_set_of_parameters() -> None:
    torch.manual_seed(9)
    model = Wrap(lambda p, x: torch.cat([p.a(x), 5 * p.b(x), x], dim=1), **two_branches())
    q = Quantized(model, (1, 3, 4, 4))
    cat = q.op("aten.cat.default")
    tensors = cat.args[0]
    assert isinstance(tensors, list) and len(tensors) == 3
    parameters = {per_tensor(dequantize) for dequantize in tensors} | {output_parameters(cat)}
    assert len(parameters) == 1
    # The ops producing the inputs are quantized with the concatenation's parameters: no requantize.
    assert output_parameters(q.ops("aten.conv2d.default")[0]) in parameters
    assert output_parameters(q.op("aten.mul.Tensor")) in parameters


@pytest.mark.parametrize(
    ("pool", "target"),
    [
        (Wrap(lambda p, x: x.mean(dim=(2, 3), keepdim=True)), "aten.mean.dim"),
        (nn.Hardswish(), "aten.hardswish.default"),
    ],
)
def test_mean_and_hardswish_have_their_own_output_parameters(pool: nn.Module, target: str) -> None:
    torch.manual_seed(10)
    q = Quantized(nn.Sequential(nn.Conv2d(3, 4, 3), pool), (1, 3, 8, 8))
    node = q.op(target)
    assert input_parameters(node) == output_parameters(q.op("aten.conv2d.default"))
    assert output_parameters(node) != input_parameters(node)


SHARED = [
    (nn.MaxPool2d(2), "aten.max_pool2d.default"),
    # TFLite's int8 AVERAGE_POOL_2D keeps its input's scale and zero point.
    (nn.AvgPool2d(2), "aten.avg_pool2d.default"),
    (nn.AdaptiveAvgPool2d(1), "aten.adaptive_avg_pool2d.default"),
    (nn.Flatten(), "aten.flatten.using_ints"),
    (Wrap(lambda p, x: x.reshape(1, -1)), "aten.reshape.default"),
    (Wrap(lambda p, x: x.view(1, -1)), "aten.view.default"),
    (Wrap(lambda p, x: x.permute(0, 2, 3, 1)), "aten.permute.default"),
    (Wrap(lambda p, x: x.transpose(1, 2)), "aten.transpose.int"),
    (Wrap(lambda p, x: x.unsqueeze(0)), "aten.unsqueeze.default"),
    (Wrap(lambda p, x: x[:, :1].squeeze(1)), "aten.squeeze.dim"),
    (Wrap(lambda p, x: F.pad(x, (1, 1, 1, 1))), "aten.pad.default"),
    (Wrap(lambda p, x: x[:, :, 1:3]), "aten.slice.Tensor"),
    (Wrap(lambda p, x: x.clone()), "aten.clone.default"),
    (Wrap(lambda p, x: F.dropout(x, 0.5, training=False)), "aten.dropout.default"),
    (nn.ReLU(), "aten.relu.default"),
    (nn.Hardtanh(0.0, 6.0), "aten.hardtanh.default"),
]


@pytest.mark.parametrize(("module", "target"), SHARED, ids=[target for _, target in SHARED])
def test_data_movement_shares_the_input_parameters(module: nn.Module, target: str) -> None:
    torch.manual_seed(11)
    # A hardswish in front: its output is fused with nothing, so the op reads a plain quantized tensor.
    model = Wrap(lambda p, x: p.op(F.hardswish(x)), op=module)
    q = Quantized(model, (1, 3, 4, 4))
    node = q.op(target)
    assert input_parameters(node) == output_parameters(q.op("aten.hardswish.default"))
    assert output_parameters(node) == input_parameters(node)


def test_graph_inputs_are_quantized_where_shared_ops_read_them() -> None:
    q = Quantized(nn.MaxPool2d(2), (1, 2, 4, 4))
    pool = q.op("aten.max_pool2d.default")
    (quantize,) = [n for n in q.graph.nodes if n.target == QUANTIZE and n.args[0].op == "placeholder"]
    assert input_parameters(pool) == per_tensor(quantize)
    assert output_parameters(pool) == per_tensor(quantize)


def test_padding_with_another_value_stays_float() -> None:
    q = Quantized(nn.Sequential(nn.Conv2d(2, 2, 1), Wrap(lambda p, x: F.pad(x, (1, 1), value=0.5))), (1, 2, 3, 3))
    pad = q.op("aten.pad.default")
    assert not any(u.target == QUANTIZE for u in pad.users)
    assert [target for _, target in q.quantizer.float_nodes] == ["aten.pad.default"]


# --- fixed output parameters ---


@pytest.mark.parametrize(
    ("module", "target", "expected"),
    [
        (nn.Softmax(dim=-1), "aten.softmax.int", (1 / 256, -128)),
        (nn.Sigmoid(), "aten.sigmoid.default", (1 / 256, -128)),
        (nn.Tanh(), "aten.tanh.default", (1 / 128, 0)),
    ],
)
def test_softmax_sigmoid_tanh_have_tflite_fixed_output_parameters(
    module: nn.Module, target: str, expected: tuple[float, int]
) -> None:
    torch.manual_seed(12)
    q = Quantized(nn.Sequential(nn.Linear(6, 5), module), (2, 6))
    node = q.op(target)
    assert input_parameters(node) == output_parameters(q.op("aten.linear.default"))
    assert output_parameters(node) == expected


def test_a_fixed_output_reaches_its_reader_without_a_requantize() -> None:
    torch.manual_seed(13)
    q = Quantized(Wrap(lambda p, x: (lambda y: y * torch.sigmoid(y))(p.conv(x)), conv=nn.Conv2d(2, 2, 1)), (1, 2, 3, 3))
    mul = q.op("aten.mul.Tensor")
    assert (1 / 256, -128) in {input_parameters(mul, 0), input_parameters(mul, 1)}
    # One quantize per op output, plus the graph input's: nothing requantizes the sigmoid.
    assert len(q.ops(str(QUANTIZE))) == 4


# --- a DS-CNN-like network ---


class DepthwiseSeparable(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.depthwise = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.bn1 = random_batch_norm(channels)
        self.pointwise = nn.Conv2d(channels, channels, 1, bias=False)
        self.bn2 = random_batch_norm(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.bn2(self.pointwise(F.relu(self.bn1(self.depthwise(x))))))


class DsCnn(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(1, 16, (5, 3), stride=(2, 2), padding=(2, 1))
        self.bn = random_batch_norm(16)
        self.blocks = nn.Sequential(DepthwiseSeparable(16), DepthwiseSeparable(16))
        self.dropout = nn.Dropout(0.2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(16, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(F.relu(self.bn(self.stem(x))))
        x = torch.flatten(self.pool(self.dropout(x)), 1)
        return torch.softmax(self.classifier(x), dim=-1)


def test_ds_cnn_is_all_int8() -> None:
    torch.manual_seed(14)
    model = DsCnn()
    q = Quantized(model, (1, 1, 20, 10))
    assert q.quantizer.float_nodes == []
    assert "0 of" not in q.quantizer.report() and "are int8" in q.quantizer.report()
    convs, relus = q.ops("aten.conv2d.default"), q.ops("aten.relu.default")
    assert len(convs) == 5 and len(relus) == 5
    assert "aten.batch_norm.default" not in non_qdq_ops(q)
    for conv_node in convs:
        (relu,) = conv_node.users
        assert_no_qdq_between(conv_node, relu)
        assert isinstance(conv_node.args[1], Node) and conv_node.args[1].target == DEQUANTIZE_PER_CHANNEL
    assert output_parameters(q.op("aten.softmax.int")) == (1 / 256, -128)
    model.eval()
    with torch.no_grad():
        difference = (q.module(*q.example) - model(*q.example)).abs().max()
    assert float(difference) < 3 / 256


# --- plugin ops and the float report ---


def conv_op_conv(function: Callable[..., torch.Tensor]) -> nn.Module:
    return Wrap(lambda p, x: p.after(function(p.before(x))), before=nn.Conv2d(2, 3, 1), after=nn.Conv2d(3, 2, 1))


def test_custom_op_same_as_input_shares_parameters() -> None:
    torch.manual_seed(15)
    quantizer = OpbridgeQuantizer({MY_OP: spec.SAME_AS_INPUT})
    q = Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=quantizer)
    node = q.op(MY_OP)
    before = q.ops("aten.conv2d.default")[0]
    assert input_parameters(node) == output_parameters(before)
    assert output_parameters(node) == input_parameters(node)


def test_custom_op_same_as_input_shares_parameters_across_all_its_inputs() -> None:
    torch.manual_seed(16)
    quantizer = OpbridgeQuantizer({MY_MAX: spec.SAME_AS_INPUT})
    q = Quantized(Wrap(lambda p, x: my_max(p.a(x), 2 * p.b(x)), **two_branches()), (1, 3, 4, 4), quantizer=quantizer)
    node = q.op(MY_MAX)
    assert input_parameters(node, 0) == input_parameters(node, 1) == output_parameters(node)


def test_custom_op_fixed_gets_the_declared_parameters() -> None:
    torch.manual_seed(17)
    quantizer = OpbridgeQuantizer({MY_OP: spec.fixed(1 / 128, 0)})
    q = Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=quantizer)
    node = q.op(MY_OP)
    assert output_parameters(node) == (1 / 128, 0)
    assert input_parameters(q.ops("aten.conv2d.default")[1]) == (1 / 128, 0)


def test_custom_op_own_is_observed() -> None:
    torch.manual_seed(18)
    q = Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=OpbridgeQuantizer({MY_OP: spec.OWN}))
    node = q.op(MY_OP)
    scale, zero_point = output_parameters(node)
    assert scale <= 2 / 255 + 1e-6  # clamped to [-1, 1]
    assert input_parameters(node) != (scale, zero_point)


def test_custom_op_float_runs_between_a_dequantize_and_a_quantize() -> None:
    torch.manual_seed(19)
    quantizer = OpbridgeQuantizer({MY_OP: spec.FLOAT})
    q = Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=quantizer)
    node = q.op(MY_OP)
    assert isinstance(node.args[0], Node) and node.args[0].target == DEQUANTIZE
    assert [u.target for u in node.users] == [QUANTIZE]
    assert quantizer.float_nodes == [("my_op", MY_OP)]
    assert f"my_op ({MY_OP}): declared FLOAT" in quantizer.report()


def test_an_op_with_no_rule_is_reported_and_ops_after_it_quantize_again() -> None:
    torch.manual_seed(20)
    model = Wrap(lambda p, x: p.after(torch.exp(p.before(x)).reshape(1, 3, 4, 4)), before=nn.Conv2d(2, 3, 1))
    model.parts["after"] = nn.Conv2d(3, 2, 1)
    quantizer = OpbridgeQuantizer()
    q = Quantized(model, (1, 2, 4, 4), quantizer=quantizer)
    # The reshape has no parameters to share from the float exp: it stays float too.
    assert quantizer.float_nodes == [("exp", "aten.exp.default"), ("reshape", "aten.reshape.default")]
    report = quantizer.report()
    assert "2 of 4 ops stay float32" in report
    assert "exp (aten.exp.default): no int8 rule" in report
    exp, reshape = q.op("aten.exp.default"), q.op("aten.reshape.default")
    assert isinstance(exp.args[0], Node) and exp.args[0].target == DEQUANTIZE
    assert list(exp.users) == [reshape]
    assert [u.target for u in reshape.users] == [QUANTIZE]


def test_float_declaration_keeps_a_builtin_op_float_and_unfuses_it() -> None:
    torch.manual_seed(21)
    quantizer = OpbridgeQuantizer({"aten.relu.default": spec.FLOAT})
    q = Quantized(nn.Sequential(nn.Conv2d(2, 2, 1), nn.ReLU()), (1, 2, 3, 3), quantizer=quantizer)
    conv_node = q.op("aten.conv2d.default")
    assert [u.target for u in conv_node.users] == [QUANTIZE]
    assert quantizer.float_nodes == [("relu", "aten.relu.default")]


def test_for_context_reads_the_plugins_torch_ops() -> None:
    from opbridge.ir import DType
    from opbridge.ops.definition import OperatorDefinition
    from opbridge.ops.relu.schema import RELU_SCHEMA
    from opbridge.schemas.schema import TypeConstraint

    context = RegistryContext()
    int8_schema = dataclasses.replace(RELU_SCHEMA, domain="opb_test", name="MyOp")
    float_schema = dataclasses.replace(int8_schema, type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),))
    for key, schema in (("MY_OP", int8_schema), ("MY_MAX", int8_schema), ("MY_FLOAT", float_schema)):
        context.operators.add(OperatorDefinition(op_type=key, reference=lambda call: [], schema=schema))
    context.torch_ops.register("MY_OP", spec.TorchOp("MY_OP", "opb_test::my_op", spec.fixed(1 / 256, -128)))
    context.torch_ops.register("MY_MAX", spec.TorchOp("MY_MAX", "opb_test::my_max"))
    context.torch_ops.register("MY_FLOAT", spec.TorchOp("MY_FLOAT", "opb_test::my_float", spec.SAME_AS_INPUT))
    quantizer = OpbridgeQuantizer.for_context(context)
    # A schema that takes no int8 keeps its op float, whatever it declares.
    expected = {MY_OP: spec.fixed(1 / 256, -128), MY_MAX: spec.OWN, "opb_test.my_float.default": spec.FLOAT}
    assert quantizer.custom_ops == expected
    torch.manual_seed(22)
    q = Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=quantizer)
    assert output_parameters(q.op(MY_OP)) == (1 / 256, -128)


def test_the_report_says_a_plugin_op_declared_int8_stays_float_because_its_schema_takes_no_int8() -> None:
    from opbridge.ir import DType
    from opbridge.ops.definition import OperatorDefinition
    from opbridge.ops.relu.schema import RELU_SCHEMA
    from opbridge.schemas.schema import TypeConstraint

    context = RegistryContext()
    float_schema = dataclasses.replace(
        RELU_SCHEMA, domain="opb_test", name="MyOp", type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),)
    )
    context.operators.add(OperatorDefinition(op_type="MY_OP", reference=lambda call: [], schema=float_schema))
    context.torch_ops.register("MY_OP", spec.TorchOp("MY_OP", "opb_test::my_op", spec.OWN))
    quantizer = OpbridgeQuantizer.for_context(context)
    torch.manual_seed(23)
    Quantized(conv_op_conv(my_op), (1, 2, 4, 4), quantizer=quantizer)
    report = quantizer.report()
    assert quantizer.float_nodes == [("my_op", MY_OP)]
    assert "declared FLOAT" not in report
    assert (
        f"my_op ({MY_OP}): declared OWN but the schema of operator MY_OP takes float32 as its first input 'input', "
        "no int8; add int8 to the input's type constraint" in report
    ), report


def test_clamps_without_an_int8_kernel_and_number_operands_stay_float() -> None:
    torch.manual_seed(24)
    model = Wrap(lambda p, x: F.hardtanh(p.conv(x), -2.0, 2.0) + 1.5, conv=nn.Conv2d(2, 2, 1))
    q = Quantized(model, (1, 2, 4, 4))
    reasons = q.quantizer.report()
    assert [target for _, target in q.quantizer.float_nodes] == ["aten.hardtanh.default", "aten.add.Tensor"]
    assert "clamps to (-2.0, 2.0)" in reasons and "Python number" in reasons


def test_declarations_are_checked() -> None:
    with pytest.raises(ConfigError, match="built-in rule"):
        OpbridgeQuantizer({"aten.conv2d.default": spec.OWN})
    with pytest.raises(ConfigError, match="expected an OutputQuantization"):
        OpbridgeQuantizer({MY_OP: "float"})  # type: ignore[dict-item]
    OpbridgeQuantizer({"aten.softmax.int": spec.FLOAT})


# --- quantize_pt2e ---


def test_histogram_observer_can_replace_min_max() -> None:
    from torchao.quantization.pt2e import HistogramObserver

    torch.manual_seed(23)
    q = Quantized(
        nn.Sequential(nn.Linear(4, 4), nn.ReLU()),
        (2, 4),
        quantizer=OpbridgeQuantizer(activation_observer=HistogramObserver),
    )
    scale, zero_point = output_parameters(q.op("aten.relu.default"))
    assert scale > 0 and zero_point == -128


def test_empty_calibration_is_an_error() -> None:
    with pytest.raises(InvalidInputError, match="calibration data is empty"):
        quantize_pt2e(nn.Linear(2, 2), (torch.zeros(1, 2),), [])


def test_calibration_accepts_lone_tensors() -> None:
    module = quantize_pt2e(nn.Linear(2, 2), (torch.zeros(1, 2),), [torch.ones(1, 2), -torch.ones(1, 2)])
    (quantize,) = [n for n in module.graph.nodes if n.target == QUANTIZE and n.args[0].op == "placeholder"]
    scale, zero_point = per_tensor(quantize)
    assert math.isclose(scale, 2 / 255, rel_tol=1e-6) and zero_point in (-1, 0)


def test_the_int8_rules_agree_with_the_operator_definitions() -> None:
    """The quantizer's tables name torch targets; the facts are the definitions' (OperatorDefinition.quantization)
    of the operators those targets convert onto: an own-parameters rule for an OWN op, a shared one for a
    SAME_AS_INPUT op, the definition's fixed parameters for a FIXED one."""
    from opbridge.frontends.torch import quantizer
    from opbridge.ops.definition import QuantizationKind
    from opbridge.registry import default_registry_context

    definition_of = {
        converter.target: definition
        for definition in default_registry_context().operators.definitions()
        for converter in definition.torch_converters
    }
    expected = {
        QuantizationKind.OWN: quantizer.WEIGHTED_OPS | quantizer.BINARY_OPS | quantizer.OWN_OUTPUT_OPS,
        QuantizationKind.SAME_AS_INPUT: quantizer.SHARED_OUTPUT_OPS | quantizer.PAD_OPS | quantizer.CAT_OPS,
        QuantizationKind.FIXED: frozenset(quantizer.FIXED_OUTPUT_OPS),
    }
    checked = 0
    for kind, targets in expected.items():
        for target in sorted(targets):
            definition = definition_of.get(target)
            if definition is None:
                continue  # an in-place variant or a composite (dropout, clone) with no operator of its own
            assert definition.quantization.kind is kind, (target, definition.op_type)
            if kind is QuantizationKind.FIXED:
                fixed = definition.quantization
                assert quantizer.FIXED_OUTPUT_OPS[target] == (fixed.scale, fixed.zero_point), target
            checked += 1
    assert checked >= 40  # the tables' targets nearly all convert onto an operator
