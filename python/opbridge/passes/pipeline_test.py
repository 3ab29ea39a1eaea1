# SPDX-License-Identifier: Apache-2.0
"""The graph passes on drawn graphs shaped as the ONNX and PyTorch frontends write them (NCHW values,
every convolution between transposes, explicit PADs, RELUs after ADDs and convolutions, reshapes that
undo each other), int8 and float32: the rewritten graph's reference equals the original's bit for bit,
and each pass did its work (no PAD, RELU or inner TRANSPOSE left where it could go)."""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies

from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Padding
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.passes.pipeline import run_graph_passes
from opbridge.passes.transposes import channels_last_inputs
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()
TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)


@dataclasses.dataclass
class FrontendGraph:
    """Builds a graph as a frontend does: values in NCHW, each NHWC op wrapped in transposes."""

    dtype: DType
    draw: st.DrawFn
    tensors: list[Tensor] = dataclasses.field(default_factory=list)
    nodes: list[Node] = dataclasses.field(default_factory=list)
    fusable: int = 0  # activations the fusion pass must remove
    pads: int = 0
    requantizes: int = 0  # int8 -> int8 QUANTIZEs that change the parameters (kept)

    def tensor(self, shape: tuple[int, ...], q: Quantization | None = None, data: np.ndarray | None = None) -> int:
        dtype = self.dtype if data is None else DType(str(data.dtype))
        q = None if dtype is DType.FLOAT32 else q
        self.tensors.append(Tensor(len(self.tensors), f"t{len(self.tensors)}", dtype, shape, q, data))
        return len(self.tensors) - 1

    def activation_q(self) -> Quantization | None:
        return self.draw(strategies.per_tensor(0.01, 0.2)) if self.dtype is DType.INT8 else None

    def node(self, op_type: str, inputs: list[int | None], output: int, attributes: object = None) -> int:
        self.nodes.append(Node(len(self.nodes), f"n{len(self.nodes)}", op_type, inputs, [output], attributes))
        return output

    def transpose(self, x: int, perm: tuple[int, ...]) -> int:
        source = self.tensors[x]
        shape = tuple(source.shape[p] for p in perm)
        perm_index = self.tensor((4,), data=np.array(perm, np.int32))
        return self.node("TRANSPOSE", [x, perm_index], self.tensor(shape, source.quantization))

    def convolution(self, x: int, out_channels: int, stride: int, depthwise: bool) -> int:
        """NCHW x -> TRANSPOSE -> [PAD] -> CONV_2D or DEPTHWISE_CONV_2D -> TRANSPOSE, as ONNX's Conv converts."""
        source = self.tensors[x]
        nhwc = self.transpose(x, TO_NHWC)
        _, height, width, channels = self.tensors[nhwc].shape
        taps = self.draw(st.sampled_from([1, 3]))
        padding = Padding.SAME
        if taps == 3 and self.draw(st.booleans()):  # PyTorch's padding=1, stride 2: a PAD, then VALID
            amounts = np.array([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32)
            padded_shape = (1, height + 2, width + 2, channels)
            nhwc = self.node(
                "PAD", [nhwc, self.tensor((4, 2), data=amounts)], self.tensor(padded_shape, source.quantization)
            )
            padding, self.pads = Padding.VALID, self.pads + 1
        if depthwise:
            out_channels = channels
        filter_shape = (1, taps, taps, out_channels) if depthwise else (out_channels, taps, taps, channels)
        rng = np.random.default_rng(self.draw(st.integers(0, 2**32 - 1)))
        if self.dtype is DType.INT8:
            filter_q = self.draw(strategies.symmetric_filter(out_channels, 3 if depthwise else 0))
            weights = self.tensor(filter_shape, filter_q, rng.integers(-127, 128, filter_shape).astype(np.int8))
            scales = tuple(source.quantization.scale * s for s in filter_q.scales)  # type: ignore[union-attr]
            bias_q = Quantization(scales, (0,) * len(scales), 0 if len(scales) > 1 else None)
            bias = self.tensor((out_channels,), bias_q, rng.integers(-2000, 2000, out_channels).astype(np.int32))
        else:
            weights = self.tensor(filter_shape, None, rng.standard_normal(filter_shape).astype(np.float32))
            bias = self.tensor((out_channels,), None, rng.standard_normal(out_channels).astype(np.float32))
        common = {"padding": padding, "stride_height": stride, "stride_width": stride}
        attributes = DepthwiseConv2DAttributes(**common) if depthwise else Conv2DAttributes(**common)
        size = self.tensors[nhwc].shape[1]
        out_size = (size + stride - 1) // stride if padding is Padding.SAME else (size - taps) // stride + 1
        output = self.tensor((1, out_size, out_size, out_channels), self.activation_q())
        return self.transpose(
            self.node("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", [nhwc, weights, bias], output, attributes),
            TO_NCHW,
        )

    def activation(self, x: int) -> int:
        """RELU or RELU6; int8 with the input's quantization (fusable) or, sometimes, its own (kept)."""
        op_type = self.draw(st.sampled_from(["RELU", "RELU6"]))
        q = self.tensors[x].quantization
        own = self.dtype is DType.INT8 and op_type == "RELU" and self.draw(st.integers(0, 3)) == 0
        self.fusable += not own
        if own:  # a RELU that requantizes: another scale
            q = Quantization((q.scale * 1.5,), (q.zero_point,))  # type: ignore[union-attr]
        return self.node(op_type, [x], self.tensor(self.tensors[x].shape, q))

    def add(self, a: int, b: int) -> int:
        return self.node("ADD", [a, b], self.tensor(self.tensors[a].shape, self.activation_q()), AddAttributes())

    def requantize(self, x: int) -> int:
        """int8: a QUANTIZE to the same parameters (an identity, removed) or to others (kept)."""
        if self.dtype is not DType.INT8:
            return x
        q = self.tensors[x].quantization
        if self.draw(st.booleans()):
            q = Quantization((q.scale * 1.25,), (q.zero_point,))  # type: ignore[union-attr]
            self.requantizes += 1
        return self.node("QUANTIZE", [x], self.tensor(self.tensors[x].shape, q), QuantizeAttributes())

    def reshape_pair(self, x: int) -> int:
        shape = self.tensors[x].shape
        flat = (1, int(np.prod(shape)))
        x = self.node(
            "RESHAPE",
            [x, self.tensor((2,), data=np.array(flat, np.int32))],
            self.tensor(flat, self.tensors[x].quantization),
        )
        return self.node(
            "RESHAPE",
            [x, self.tensor((4,), data=np.array(shape, np.int32))],
            self.tensor(shape, self.tensors[x].quantization),
        )


KINDS = ("conv", "residual", "strided", "depthwise", "reshapes", "requantize")


@st.composite
def frontend_graphs(draw: st.DrawFn, dtype: DType, first: str | None = None) -> tuple[FrontendGraph, Graph]:
    """A drawn graph of 1-3 blocks; `first`: the kind of the first block (else drawn)."""
    builder = FrontendGraph(dtype, draw)
    channels = draw(st.sampled_from([4, 8]))
    size = draw(st.sampled_from([6, 8]))
    x = builder.tensor((1, channels, size, size), builder.activation_q())
    graph_input = x
    for block in range(draw(st.integers(1, 3))):
        kind = first if block == 0 and first else draw(st.sampled_from(KINDS))
        if kind == "reshapes":
            x = builder.reshape_pair(x)
            continue
        if kind == "requantize":
            x = builder.requantize(x)
            continue
        if kind == "residual":
            y = builder.activation(builder.convolution(x, channels, 1, depthwise=False))
            y = builder.add(builder.convolution(y, channels, 1, depthwise=False), x)
        else:
            y = builder.convolution(
                x, channels if kind != "strided" else 2 * channels, 2 if kind == "strided" else 1, kind == "depthwise"
            )
            channels = builder.tensors[y].shape[1]
        x = builder.activation(y) if draw(st.booleans()) else y
    graph = Graph("drawn", builder.tensors, builder.nodes, [graph_input], [x])
    return builder, graph


def draw_inputs(graph: Graph, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    tensor = graph.input_tensors()[0]
    if tensor.dtype is DType.INT8:
        return [rng.integers(-128, 128, tensor.shape).astype(np.int8)]
    return [rng.standard_normal(tensor.shape).astype(np.float32)]


@pytest.mark.parametrize("dtype", [DType.INT8, DType.FLOAT32])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_passes_keep_the_reference_bit_exact_and_do_their_work(dtype: DType, data: st.DataObject) -> None:
    builder, graph = data.draw(frontend_graphs(dtype))
    rewritten, _ = run_graph_passes(graph, CONTEXT)
    ops = [node.op_type for node in rewritten.nodes]
    # Layout: one transpose into NHWC at the input and one back at the output, none between.
    assert ops.count("TRANSPOSE") <= 2, ops
    assert "PAD" not in ops, ops
    assert (
        ops.count("RELU") + ops.count("RELU6")
        == sum(node.op_type in ("RELU", "RELU6") for node in graph.nodes) - builder.fusable
    ), ops
    assert all(n.outputs[0] in rewritten.outputs for n in rewritten.nodes if n.op_type == "RESHAPE"), ops
    identities = [n for n in rewritten.nodes if n.op_type == "QUANTIZE" and n.outputs[0] not in rewritten.outputs]
    assert len(identities) <= builder.requantizes, ops
    for seed in range(3):
        inputs = draw_inputs(graph, seed)
        expected = ReferenceInterpreter(graph, CONTEXT).run(inputs)
        actual = ReferenceInterpreter(rewritten, CONTEXT).run(inputs)
        for e, a in zip(expected, actual, strict=True):
            np.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("dtype", [DType.INT8, DType.FLOAT32])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_channels_last_inputs_leave_no_transpose_at_the_input(dtype: DType, data: st.DataObject) -> None:
    """--input-layout nhwc: the module reads NHWC, the model's own transpose into NHWC is gone, and the
    outputs are the model's for the same values in NCHW."""
    # A model whose input goes straight into convolutions (one that reshapes it first keeps NCHW there).
    _, graph = data.draw(frontend_graphs(dtype, first=data.draw(st.sampled_from(KINDS[:4]))))
    rewritten, _ = run_graph_passes(channels_last_inputs(graph), CONTEXT)
    (channels_last,) = rewritten.input_tensors()
    assert channels_last.shape == tuple(graph.input_tensors()[0].shape[axis] for axis in TO_NHWC)
    assert not [node for node in rewritten.nodes if node.op_type == "TRANSPOSE" and rewritten.inputs[0] in node.inputs]
    for seed in range(2):
        inputs = draw_inputs(graph, seed)
        expected = ReferenceInterpreter(graph, CONTEXT).run(inputs)
        actual = ReferenceInterpreter(rewritten, CONTEXT).run([np.ascontiguousarray(inputs[0].transpose(TO_NHWC))])
        for e, a in zip(expected, actual, strict=True):
            np.testing.assert_array_equal(a, e)
