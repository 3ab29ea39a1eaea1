# SPDX-License-Identifier: Apache-2.0
"""Every operator's schema against real models, NumPy, the reference implementations and bad nodes.

- every built-in (and every operator of the Signal and starter plugins) has a
  schema in its domain, with the attribute class its LiteRT parser returns;
- on every shared model (and the audio front end, with the Signal plugin)
  each node's inferred dtypes and shapes equal the stored ones exactly;
- the shape rules equal NumPy's (broadcasting, slicing, reductions, ...) and
  what the reference implementations compute on drawn graphs;
- nodes that break a schema fail with a ShapeInferenceError naming the node.
"""

import math
import pathlib
import typing
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from my_plugin.custom_noop import customize_registry as custom_noop_plugin
from opbridge.frontends.litert import load_litert_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Padding
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.average_pool_2d.reference import pool_windows
from opbridge.ops.builtin import builtin_operators
from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.conv_2d.reference import extract_patches
from opbridge.ops.definition import node_memory
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.operation import Operation
from opbridge.ops.squeeze.attributes import SqueezeAttributes
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes
from opbridge.ops.strided_slice.reference import compute_plan
from opbridge.registry import build_default_registry_context, default_registry_context
from opbridge.schemas.inference import check_outputs, infer_node
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import InferenceContext, ShapeInferenceError, TensorType
from opbridge.schemas.shapes import broadcast
from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.energy.attributes import EnergyAttributes
from opbridge_signal.plugin import SIGNAL_OPERATORS
from opbridge_signal.plugin import customize_registry as signal_plugin
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder

BUILTINS = default_registry_context()
PLUGINS = build_default_registry_context([signal_plugin, custom_noop_plugin])


def shared_models() -> pathlib.Path:
    """@shared_models in a Bazel test's runfiles, else ../shared beside the checkout (pytest by hand)."""
    candidates = [
        pathlib.Path("../shared_models/models"),
        pathlib.Path(__file__).resolve().parents[3] / "shared" / "models",
    ]
    for candidate in candidates:
        if (candidate / "tflm").is_dir():
            return candidate
    raise FileNotFoundError(f"the shared models are in none of {candidates}; add @shared_models to the test's data")


# The models the reference, reader and C tests use (tests/reference, tests/models).
MODELS = [
    "tflm/hello_world_int8.tflite",
    "tflm/micro_speech_quantized.tflite",
    "mlperf_tiny/ad01_int8.tflite",
    "mlperf_tiny/kws_ref_model.tflite",
    "mlperf_tiny/pretrainedResnet_quant.tflite",
]
FRONT_END = "tflm/audio_preprocessor_int8.tflite"
Q = Quantization((0.05,), (0,))


# -- every operator has a schema --------------------------------------------------


def parser_class(parse: Any) -> type | None:
    return None if parse is None else typing.get_type_hints(parse).get("return")


def test_every_builtin_has_a_schema_of_its_own_in_the_builtin_domain() -> None:
    schemas = BUILTINS.schemas()  # checks every schema against the registered domains
    assert sorted(key for _, key in schemas.schemas()) == sorted(d.op_type for d in builtin_operators())
    for definition in builtin_operators():
        schema = definition.schema
        assert schema is not None, definition.op_type
        assert (schema.domain, schema.name, schema.since_version) == (BUILTIN_DOMAIN, definition.op_type, 1)
        assert schemas.select(BUILTIN_DOMAIN, definition.op_type, 1) == (schema, definition.op_type)
        # The attributes are the class the LiteRT parser returns (None: the op takes none).
        returned = parser_class(definition.parse_litert_options)
        assert schema.attributes_class is (None if returned is type(None) else returned), definition.op_type
        # Only the recurrent operators (LiteRT's variable tensors) and READ_VARIABLE (a resource variable)
        # keep state from run to run, in their persistent bytes; ASSIGN_VARIABLE writes its READ_VARIABLE's.
        keepers = definition.op_type in ("SVDF", "UNIDIRECTIONAL_SEQUENCE_LSTM", "READ_VARIABLE")
        assert definition.stateful == (keepers or definition.op_type == "ASSIGN_VARIABLE")
        assert keepers == (node_memory(definition).persistent is not None)
        assert (definition.state_owner is not None) == (definition.op_type == "ASSIGN_VARIABLE")


def test_every_plugin_operator_has_a_schema_in_its_plugins_domain() -> None:
    schemas = PLUGINS.schemas()
    assert schemas.domains[SIGNAL_DOMAIN].max_version == 1
    for spec in SIGNAL_OPERATORS:
        definition = PLUGINS.operators[spec.key]
        schema = definition.schema
        assert schema is not None and (schema.domain, schema.name) == (SIGNAL_DOMAIN, spec.custom_code)
        assert schemas.select(SIGNAL_DOMAIN, spec.custom_code, 1) == (schema, spec.key)
        assert schema.attributes_class is spec.attributes_class
        # The dtypes the plugin's C serves are the only ones the schema allows.
        for parameters, dtypes in ((schema.inputs, spec.input_dtypes), (schema.outputs, spec.output_dtypes)):
            assert [schema.constraint(p.type_var).allowed for p in parameters] == [(d,) for d in dtypes]
        assert definition.stateful == (spec.custom_code == "SignalFilterBankSpectralSubtraction")
    noop = PLUGINS.operators["CUSTOM_NOOP"].schema
    assert schemas.select("com.example.custom_op", "CustomNoop", 1)[1] == "CUSTOM_NOOP"
    assert noop is not None and noop.attributes_class is None


# -- inference equals the models -------------------------------------------------


def check_every_node(graph: Graph, context: Any) -> None:
    for node in graph.nodes:
        schema = context.operators[node.op_type].schema
        inferred = infer_node(graph, node, schema)
        check_outputs(graph, node, inferred)
        stored = [TensorType(t.dtype, tuple(t.shape)) for t in graph.node_outputs(node)]
        assert inferred == stored, node.describe()  # exactly: no size left unknown (-1)


@pytest.mark.parametrize("model", MODELS)
def test_inference_equals_every_node_of_the_shared_models(model: str) -> None:
    check_every_node(load_litert_model(shared_models() / model, BUILTINS), BUILTINS)


def test_inference_equals_every_node_of_the_audio_front_end() -> None:
    graph = load_litert_model(shared_models() / FRONT_END, PLUGINS)
    assert {n.op_type for n in graph.nodes} >= {spec.key for spec in SIGNAL_OPERATORS} | {"CAST", "STRIDED_SLICE"}
    check_every_node(graph, PLUGINS)
    # CAST's target is the output tensor's type, which the parser copies into the attributes.
    casts = [n for n in graph.nodes if n.op_type == "CAST"]
    assert [n.attributes.out_data_type for n in casts] == [graph.tensor(n.outputs[0]).dtype for n in casts]


def test_the_starter_plugins_noop_keeps_dtype_and_shape() -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT16, (2, 3))
    graph = builder.single_node_graph("CUSTOM_NOOP", [x], [builder.tensor("y", DType.INT16, (2, 3))], None)
    check_every_node(graph, PLUGINS)


# -- shape rules against NumPy and the reference implementations -----------------


def infer(op_type: str, graph: Graph, context: Any = BUILTINS) -> TensorType:
    (inferred,) = infer_node(graph, graph.nodes[0], context.operators[op_type].schema)
    return inferred


def unknown_output_graph(
    op_type: str, inputs: list[tuple[str, DType, tuple[int, ...], Any]], attributes: Any, output_dtype: DType
) -> Graph:
    """A one-node graph whose output is a placeholder (its shape is what the test infers)."""
    builder = GraphBuilder()
    indices = [builder.tensor(name, dtype, shape, Q, data) for name, dtype, shape, data in inputs]
    return builder.single_node_graph(op_type, indices, [builder.tensor("y", output_dtype, (), Q)], attributes)


def with_output_shape(graph: Graph, shape: tuple[int, ...]) -> Graph:
    graph.tensor(graph.nodes[0].outputs[0]).shape = shape
    return graph


SHAPES = st.lists(st.sampled_from([1, 1, 2, 3, 4]), max_size=5).map(tuple)


CONTEXT = InferenceContext("test", [], None)


@given(SHAPES, SHAPES)
def test_broadcast_is_numpys_and_commutes(first: tuple[int, ...], second: tuple[int, ...]) -> None:
    try:
        expected = np.broadcast_shapes(first, second)
    except ValueError:
        for a, b in ((first, second), (second, first)):
            with pytest.raises(ShapeInferenceError, match="do not broadcast"):
                broadcast(CONTEXT, a, b)
        return
    assert broadcast(CONTEXT, first, second) == broadcast(CONTEXT, second, first) == expected


def ceil_output_size(padding: Padding, size: int, filter_size: int, stride: int, dilation: int = 1) -> int:
    """TensorFlow's definition: SAME ceil(size / stride), VALID ceil((size - effective + 1) / stride)."""
    effective = (filter_size - 1) * dilation + 1
    return math.ceil(size / stride) if padding is Padding.SAME else math.ceil((size - effective + 1) / stride)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans())
def test_conv_output_sizes_are_tensorflows_and_the_references(data: st.DataObject, depthwise: bool) -> None:
    height, width, channels = (data.draw(st.integers(1, 9)) for _ in range(3))
    out_channels = channels * data.draw(st.integers(1, 3)) if depthwise else data.draw(st.integers(1, 4))
    kernel = (data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4)))
    fields = {
        "padding": data.draw(strategies.PADDINGS),
        "stride_height": data.draw(st.integers(1, 3)),
        "stride_width": data.draw(st.integers(1, 3)),
        "dilation_height": data.draw(st.integers(1, 2)),
        "dilation_width": data.draw(st.integers(1, 2)),
    }
    rows = ceil_output_size(fields["padding"], height, kernel[0], fields["stride_height"], fields["dilation_height"])
    cols = ceil_output_size(fields["padding"], width, kernel[1], fields["stride_width"], fields["dilation_width"])
    filter_shape = (1, *kernel, out_channels) if depthwise else (out_channels, *kernel, channels)
    op_type = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
    attributes = DepthwiseConv2DAttributes(**fields) if depthwise else Conv2DAttributes(**fields)
    weights = np.ones(filter_shape, np.int8)
    graph = unknown_output_graph(
        op_type,
        [
            ("x", DType.INT8, (2, height, width, channels), None),
            ("w", DType.INT8, filter_shape, weights),
            ("b", DType.INT32, (out_channels,), np.zeros(out_channels, np.int32)),
        ],
        attributes,
        DType.INT8,
    )
    if rows < 1 or cols < 1:
        with pytest.raises(ShapeInferenceError, match="does not fit"):
            infer(op_type, graph)
        return
    inferred = infer(op_type, graph)
    assert inferred == TensorType(DType.INT8, (2, rows, cols, out_channels))
    # The reference's own window arithmetic (im2col) agrees, and it fills exactly the inferred shape.
    _, patch_rows, patch_cols = extract_patches(np.zeros((2, height, width, channels)), *kernel, attributes, 0)
    assert (patch_rows, patch_cols) == (rows, cols)
    graph = with_output_shape(graph, inferred.shape)
    values = np.ones((2, height, width, channels), np.int8)
    bias = np.zeros(out_channels, np.int32)
    (result,) = Operation(graph, graph.nodes[0], BUILTINS.operators[op_type]).evaluate([values, weights, bias])
    assert result.shape == inferred.shape


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["AVERAGE_POOL_2D", "MAX_POOL_2D"]))
def test_pool_output_sizes_are_tensorflows_and_the_references(data: st.DataObject, op_type: str) -> None:
    height, width = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    attributes = Pool2DAttributes(
        padding=data.draw(strategies.PADDINGS),
        stride_height=data.draw(st.integers(1, 3)),
        stride_width=data.draw(st.integers(1, 3)),
        filter_height=data.draw(st.integers(1, 4)),
        filter_width=data.draw(st.integers(1, 4)),
    )
    a = attributes
    rows = ceil_output_size(a.padding, height, a.filter_height, a.stride_height)
    cols = ceil_output_size(a.padding, width, a.filter_width, a.stride_width)
    assume(rows > 0 and cols > 0)
    graph = unknown_output_graph(op_type, [("x", DType.INT8, (1, height, width, 3), None)], attributes, DType.INT8)
    inferred = infer(op_type, graph)
    assert inferred.shape == (1, rows, cols, 3)
    windows = list(pool_windows(attributes, height, width))
    assert (max(w[0] for w in windows) + 1, max(w[1] for w in windows) + 1) == (rows, cols)
    graph = with_output_shape(graph, inferred.shape)
    values = np.arange(height * width * 3).reshape(1, height, width, 3).astype(np.int8)
    (result,) = Operation(graph, graph.nodes[0], BUILTINS.operators[op_type]).evaluate([values])
    assert result.shape == inferred.shape


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_fully_connected_keeps_or_flattens_the_leading_dimensions(data: st.DataObject) -> None:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 4))))
    units, keep = data.draw(st.integers(1, 5)), data.draw(st.booleans())
    depth = shape[-1] if keep else data.draw(st.sampled_from([d for d in range(1, 9) if math.prod(shape) % d == 0]))
    weights = np.ones((units, depth), np.int8)
    graph = unknown_output_graph(
        "FULLY_CONNECTED",
        [("x", DType.INT8, shape, None), ("w", DType.INT8, (units, depth), weights)],
        FullyConnectedAttributes(keep_num_dims=keep),
        DType.INT8,
    )
    inferred = infer("FULLY_CONNECTED", graph)
    assert inferred.shape == ((*shape[:-1], units) if keep else (math.prod(shape) // depth, units))
    graph = with_output_shape(graph, inferred.shape)
    values = np.ones(shape, np.int8)
    (result,) = Operation(graph, graph.nodes[0], BUILTINS.operators["FULLY_CONNECTED"]).evaluate([values, weights])
    assert result.shape == inferred.shape


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_strided_slice_is_pythons_slicing_and_the_references(data: st.DataObject) -> None:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    rank = len(shape)
    begin = [data.draw(st.integers(-8, 8)) for _ in shape]
    end = [data.draw(st.integers(-8, 8)) for _ in shape]
    strides = [data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3])) for _ in shape]
    masks = [data.draw(st.integers(0, 2**rank - 1)) for _ in range(3)]
    attributes = StridedSliceAttributes(begin_mask=masks[0], end_mask=masks[1], shrink_axis_mask=masks[2])
    vector = (rank,)
    graph = unknown_output_graph(
        "STRIDED_SLICE",
        [
            ("x", DType.INT16, shape, None),
            ("begin", DType.INT32, vector, np.array(begin, np.int32)),
            ("end", DType.INT32, vector, np.array(end, np.int32)),
            ("strides", DType.INT32, vector, np.array(strides, np.int32)),
        ],
        attributes,
        DType.INT16,
    )
    index: list[int | slice] = []
    for axis, (size, b, e, s) in enumerate(zip(shape, begin, end, strides, strict=True)):
        if masks[2] >> axis & 1:
            # A shrunk axis takes the one element at begin, clamped into the axis as TFLite clamps it.
            start = 0 if masks[0] >> axis & 1 else min(max(b + size if b < 0 else b, 0), size)
            if s < 0 or start == size:  # TFLite Micro writes no output for these
                with pytest.raises(ShapeInferenceError, match="shrunk"):
                    infer("STRIDED_SLICE", graph)
                return
            index.append(start)
        else:
            index.append(slice(None if masks[0] >> axis & 1 else b, None if masks[1] >> axis & 1 else e, s))
    inferred = infer("STRIDED_SLICE", graph)
    assert inferred.shape == np.empty(shape)[tuple(index)].shape
    assert inferred.shape == compute_plan(graph.nodes[0], shape, begin, end, strides).output_shape


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_reshape_mean_concatenation_and_pad_are_numpys(data: st.DataObject) -> None:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 4))))
    rank = len(shape)
    values = np.empty(shape)

    # RESHAPE: the reversed shape, one size sometimes -1.
    target = list(reversed(shape))
    if data.draw(st.booleans()):
        target[data.draw(st.integers(0, rank - 1))] = -1
    graph = unknown_output_graph(
        "RESHAPE", [("x", DType.INT8, shape, None), ("s", DType.INT32, (rank,), np.array(target, np.int32))], None,
        DType.INT8,
    )  # fmt: skip
    assert infer("RESHAPE", graph).shape == values.reshape(target).shape

    # MEAN: drawn axes, negative ones and repeats included.
    axes = data.draw(st.lists(st.integers(-rank, rank - 1), max_size=3))
    keep = data.draw(st.booleans())
    graph = unknown_output_graph(
        "MEAN", [("x", DType.INT8, shape, None), ("a", DType.INT32, (len(axes),), np.array(axes, np.int32))],
        MeanAttributes(keep_dims=keep), DType.INT8,
    )  # fmt: skip
    assert infer("MEAN", graph).shape == values.mean(axis=tuple({a % rank for a in axes}), keepdims=keep).shape

    # CONCATENATION: inputs that differ along the axis.
    axis = data.draw(st.integers(-rank, rank - 1))
    parts = [
        tuple(data.draw(st.integers(1, 3)) if d == axis % rank else size for d, size in enumerate(shape))
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    graph = unknown_output_graph(
        "CONCATENATION", [(f"x{i}", DType.INT16, p, None) for i, p in enumerate(parts)],
        ConcatenationAttributes(axis=axis), DType.INT16,
    )  # fmt: skip
    assert infer("CONCATENATION", graph).shape == np.concatenate([np.empty(p) for p in parts], axis=axis).shape

    # PAD and PADV2.
    paddings = np.array([[data.draw(st.integers(0, 2)) for _ in range(2)] for _ in shape], np.int32)
    for op_type in ("PAD", "PADV2"):
        graph = unknown_output_graph(
            op_type, [("x", DType.INT8, shape, None), ("p", DType.INT32, paddings.shape, paddings)], None, DType.INT8
        )
        assert infer(op_type, graph).shape == np.pad(values, paddings).shape


# -- nodes that break their schema ------------------------------------------------


def binary(op_type: str, first: tuple[int, ...], second: tuple[int, ...], dtype: DType = DType.INT8) -> Graph:
    builder = GraphBuilder()
    a, b = builder.tensor("a", dtype, first, Q), builder.tensor("b", dtype, second, Q)
    return builder.single_node_graph(op_type, [a, b], [builder.tensor("y", dtype, first, Q)], AddAttributes())


def rejects(graph: Graph, match: str, context: Any = BUILTINS) -> None:
    node = graph.nodes[0]
    with pytest.raises(ShapeInferenceError, match=match) as error:
        infer_node(graph, node, context.operators[node.op_type].schema)
    assert str(error.value).startswith(f'node 0 ({node.op_type} "'), str(error.value)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_squeeze_drops_the_named_size_1_dimensions_like_numpy(data: st.DataObject) -> None:
    shape = tuple(data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=5)))
    ones = [axis for axis, size in enumerate(shape) if size == 1]
    chosen = data.draw(st.lists(st.sampled_from(ones), unique=True)) if ones else []
    dims = tuple(axis - len(shape) if data.draw(st.booleans()) else axis for axis in chosen)
    graph = unknown_output_graph("SQUEEZE", [("x", DType.INT8, shape, None)], SqueezeAttributes(dims), DType.INT8)
    expected = np.squeeze(np.zeros(shape), axis=dims if dims else None).shape
    assert infer("SQUEEZE", graph) == TensorType(DType.INT8, expected)


def test_squeeze_dims_of_other_sizes_or_outside_the_rank_are_rejected() -> None:
    for dims, problem in (((1,), r"dimension 1 has size 3, not 1"), ((-4,), r"-4 is outside rank 3")):
        graph = unknown_output_graph(
            "SQUEEZE", [("x", DType.INT8, (1, 3, 1), None)], SqueezeAttributes(dims), DType.INT8
        )
        with pytest.raises(ShapeInferenceError, match=problem):
            infer("SQUEEZE", graph)


def test_a_dtype_outside_the_type_constraint_is_rejected() -> None:
    rejects(
        binary("ADD", (2,), (2,), DType.UINT32), r"is uint32; opbridge\.ADD \(since version 1\) allows T in \{int8, "
    )
    graph = unknown_output_graph(
        "CONV_2D",
        [
            ("x", DType.INT8, (1, 4, 4, 1), None),
            ("w", DType.INT8, (2, 3, 3, 1), np.ones((2, 3, 3, 1), np.int8)),
            ("b", DType.INT8, (2,), np.zeros(2, np.int8)),
        ],
        Conv2DAttributes(),
        DType.INT8,
    )
    rejects(graph, r"input 2 \(bias\).* allows TBias in \{int32, float32\}")


def test_inputs_of_one_type_variable_must_share_their_dtype() -> None:
    builder = GraphBuilder()
    a, b = builder.tensor("a", DType.INT16, (2,)), builder.tensor("b", DType.INT32, (2,))
    graph = builder.single_node_graph("MAXIMUM", [a, b], [builder.tensor("y", DType.INT16, (2,))], None)
    rejects(graph, "share type variable T")


def test_a_wrong_number_of_inputs_is_rejected() -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, (1, 4, 4, 1), Q)
    graph = builder.single_node_graph(
        "CONV_2D", [x], [builder.tensor("y", DType.INT8, (1, 4, 4, 1))], Conv2DAttributes()
    )
    rejects(graph, r"takes 2 to 3 inputs \(input, filter, bias\?\), got 1")
    graph = binary("SUB", (2,), (2,))
    graph.nodes[0].inputs.append(graph.nodes[0].inputs[0])
    rejects(graph, "takes 2 inputs")


def test_shapes_that_do_not_broadcast_are_rejected() -> None:
    rejects(binary("MUL", (2, 3), (4, 3)), r"shapes \[2, 3\] and \[4, 3\] do not broadcast \(axis 0: 2 vs 4\)")


@pytest.mark.parametrize(
    ("op_type", "inputs", "attributes", "what"),
    [
        ("MEAN", [("x", (2, 3)), ("axes", (1,))], MeanAttributes(), "axes"),
        ("PAD", [("x", (2, 3)), ("paddings", (2, 2))], None, "paddings"),
        ("STRIDED_SLICE", [("x", (4,)), ("begin", (1,)), ("end", (1,)), ("strides", (1,))], StridedSliceAttributes(),
         "begin"),
    ],
)  # fmt: skip
def test_shape_inputs_computed_at_run_time_are_rejected(
    op_type: str, inputs: list[tuple[str, tuple[int, ...]]], attributes: Any, what: str
) -> None:
    dtypes = [DType.INT8] + [DType.INT32] * (len(inputs) - 1)
    graph = unknown_output_graph(
        op_type, [(n, d, s, None) for (n, s), d in zip(inputs, dtypes, strict=True)], attributes, DType.INT8
    )
    rejects(graph, rf"the {what} \(input 1\) is computed at run time")


def test_a_reshape_to_a_shape_computed_at_run_time_leaves_the_sizes_unknown() -> None:
    graph = unknown_output_graph(
        "RESHAPE", [("x", DType.INT8, (2, 3), None), ("s", DType.INT32, (3,), None)], None, DType.INT8
    )
    assert infer("RESHAPE", graph) == TensorType(DType.INT8, (-1, -1, -1))
    graph = unknown_output_graph(
        "RESHAPE", [("x", DType.INT8, (2, 3), None), ("s", DType.INT32, (2,), np.array([4, -1], np.int32))], None,
        DType.INT8,
    )  # fmt: skip
    rejects(graph, r"no size for the -1 of \[4, -1\] holds the input's 6 elements")


def test_wrong_attributes_and_inconsistent_outputs_are_rejected() -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT32, (3,))
    graph = builder.single_node_graph("CAST", [x], [builder.tensor("y", DType.INT8, (3,))], None)
    rejects(graph, "attributes are NoneType, expected CastAttributes")
    graph.nodes[0].attributes = CastAttributes(DType.INT16)
    node = graph.nodes[0]
    inferred = infer_node(graph, node, BUILTINS.operators["CAST"].schema)
    with pytest.raises(ShapeInferenceError, match=r'node 0 \(CAST ".*differs from what its schema infers, int16\[3\]'):
        check_outputs(graph, node, inferred)


def test_plugin_nodes_that_break_their_operators_checks_are_rejected() -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT16, (10,))
    graph = builder.single_node_graph(
        "SIGNALENERGY", [x], [builder.tensor("y", DType.UINT32, (5,))], EnergyAttributes(start_index=0, end_index=6)
    )
    rejects(graph, r"SignalEnergy: need 0 <= start_index \(0\) <= end_index \(6\) <= 5 bins", PLUGINS)
