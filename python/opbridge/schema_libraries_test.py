# SPDX-License-Identifier: Apache-2.0
"""Schemas registered from shared libraries (cc/plugin/opbridge_schema.h) behave like Python ones.

The example library (examples/schema_library) is compared with the same
schema written in Python; the test library (cc/plugin/testdata) covers every
parameter option, attribute type, function-body attributes, the inference
API and its failures; one build of it per way of registering wrongly covers
the loader's checks.
"""

import dataclasses
import functools
import gc
import os
import pathlib
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.errors import PluginLoadError, UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ir.attribute_specs import attribute_specs
from opbridge.ops.definition import OperatorDefinition, ReferenceCall
from opbridge.registry import build_default_registry_context
from opbridge.schema_libraries import ABI_VERSION, load_schema_library, schema_library_customizer
from opbridge.schemas.inference import infer_node
from opbridge.schemas.opsets import OpsetDomain, UnknownSchemaError, schema_op_key
from opbridge.schemas.schema import (
    FormalParameter,
    FunctionBody,
    FunctionNode,
    InferenceContext,
    InputInfo,
    OpSchema,
    ParameterOption,
    ShapeInferenceError,
    TensorType,
    TypeConstraint,
    same_as_input,
)

# Workspace-relative: tests run from the runfiles root with the libraries as data.
COPY_LIBRARY = os.path.abspath("examples/schema_library/libcopy_schemas.so")


def library_variant(variant: str) -> str:
    """A build of cc/plugin/testdata/test_schema_library.cc."""
    return os.path.abspath(f"cc/plugin/libtest_schemas_{variant}.so")


GOOD_LIBRARY = library_variant("good")

# CopyInput written in Python: what the example library must be equivalent to.
COPY_INPUT = OpSchema(
    domain="com.example.copy",
    name="CopyInput",
    since_version=1,
    doc="Copies its input: Y has X's dtype, shape and values.",
    inputs=(FormalParameter("X", "T", "the tensor to copy"),),
    outputs=(FormalParameter("Y", "T", "a copy of X"),),
    type_constraints=(
        TypeConstraint(
            "T",
            (DType.FLOAT32, DType.UINT8, DType.INT8, DType.INT16, DType.INT32),
            "float32 and the integer types of quantized models",
        ),
    ),
    infer=same_as_input(0),
    function_body=FunctionBody((FunctionNode("Identity", ("X",), ("Y",)),), (("", 13),)),
)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ProbeAttributes:
    """The test library's Probe attributes, written in Python."""

    mode: str = dataclasses.field(metadata={"doc": "what infer does"})
    count: int = dataclasses.field(default=2, metadata={"doc": "an int"})
    scale: float = dataclasses.field(default=0.5, metadata={"doc": "a float"})
    axes: tuple[int, ...] = dataclasses.field(default=(0, 1), metadata={"doc": "ints"})
    weights: tuple[float, ...] = dataclasses.field(default=(), metadata={"doc": ""})
    labels: tuple[str, ...] = dataclasses.field(default=("a", "bc"), metadata={"doc": "strings"})


PROBE = OpSchema(
    domain="test.schemas",
    name="Probe",
    since_version=1,
    doc="Probes the host's inference API.",
    inputs=(
        FormalParameter("X", "T", "the input"),
        FormalParameter("Bias", "T", "an optional bias", ParameterOption.OPTIONAL),
    ),
    outputs=(
        FormalParameter("Y", "T", "depends on mode"),
        FormalParameter("Mask", "B", 'with mode "mask"', ParameterOption.OPTIONAL),
    ),
    type_constraints=(
        TypeConstraint("T", (DType.FLOAT32, DType.INT8, DType.FLOAT16), "numbers"),
        TypeConstraint("B", (DType.BOOL,)),
    ),
    infer=same_as_input(0),
    attributes_class=ProbeAttributes,
)


def assert_same_schema(actual: OpSchema, expected: OpSchema) -> None:
    """Every field equal; the inference function and the attributes class by what they define."""
    for field in dataclasses.fields(OpSchema):
        if field.name not in ("infer", "attributes_class"):
            assert getattr(actual, field.name) == getattr(expected, field.name), field.name
    assert actual.attributes == expected.attributes
    assert (actual.attributes_class is None) == (expected.attributes_class is None)


@functools.cache
def definition_of(library_path: str, name: str, since_version: int = 1) -> OperatorDefinition:
    for definition in load_schema_library(library_path).definitions:
        schema = definition.schema
        if schema is not None and (schema.name, schema.since_version) == (name, since_version):
            return definition
    raise AssertionError(f"{library_path} has no {name} v{since_version}")


def single_node(
    op_type: str,
    inputs: list[tuple[DType, tuple[int, ...]] | None],
    output_count: int = 1,
    attributes: object = None,
) -> tuple[Graph, Node]:
    """A graph of one node; omitted inputs are None, outputs are placeholders."""
    tensors, node_inputs = [], []
    for position, described in enumerate(inputs):
        if described is None:
            node_inputs.append(None)
            continue
        node_inputs.append(len(tensors))
        tensors.append(Tensor(len(tensors), f"input_{position}", described[0], described[1]))
    outputs = []
    for position in range(output_count):
        outputs.append(len(tensors))
        tensors.append(Tensor(len(tensors), f"output_{position}", DType.FLOAT32, ()))
    node = Node(0, "node", op_type, node_inputs, outputs, attributes)
    graph = Graph("single_node", tensors, [node], inputs=[i for i in node_inputs if i is not None], outputs=outputs)
    return graph, node


def infer_or_error(schema: OpSchema, graph: Graph, node: Node) -> list[TensorType] | str:
    try:
        return infer_node(graph, node, schema)
    except ShapeInferenceError as error:
        return f"ShapeInferenceError: {error}"


# ----- The example library -----


def test_copy_library_equals_its_python_schema() -> None:
    library = load_schema_library(COPY_LIBRARY)
    assert library.path == os.path.realpath(COPY_LIBRARY)
    assert library.domains == [OpsetDomain("com.example.copy", 1, 1, "Example operators that copy tensors.")]
    (definition,) = library.definitions
    assert definition.op_type == schema_op_key("com.example.copy", "CopyInput", 1) == "COM_EXAMPLE_COPY_COPYINPUT"
    assert definition.schema is not None
    assert_same_schema(definition.schema, COPY_INPUT)
    assert definition.doc == COPY_INPUT.doc
    assert ABI_VERSION == 1


DIMENSIONS = st.lists(st.integers(-1, 8), max_size=16).map(tuple)


@settings(max_examples=100, deadline=None)
@given(dtype=st.sampled_from(list(DType)), shape=DIMENSIONS)
def test_copy_inference_through_the_callback_equals_python(dtype: DType, shape: tuple[int, ...]) -> None:
    schema = definition_of(COPY_LIBRARY, "CopyInput").schema
    assert schema is not None
    graph, node = single_node("COM_EXAMPLE_COPY_COPYINPUT", [(dtype, shape)])
    # The same result, or the same error for a dtype outside T.
    assert infer_or_error(schema, graph, node) == infer_or_error(COPY_INPUT, graph, node)
    if dtype in COPY_INPUT.constraint("T").allowed:
        context = InferenceContext("copy", [InputInfo(dtype, shape)], None)
        assert schema.infer(context) == [TensorType(dtype, shape)] == COPY_INPUT.infer(context)


def test_select_chooses_the_library_schema() -> None:
    context = build_default_registry_context(customizers=[schema_library_customizer(COPY_LIBRARY)])
    schemas = context.schemas()
    schema, key = schemas.select("com.example.copy", "CopyInput", 1)
    assert key == "COM_EXAMPLE_COPY_COPYINPUT"
    assert schema is context.operators[key].schema
    assert_same_schema(schema, COPY_INPUT)
    assert schemas.schema_of(key) is schema
    with pytest.raises(UnknownSchemaError, match=re.escape("covers versions 1..1")):
        schemas.select("com.example.copy", "CopyInput", 2)
    # The registries record the library as the origin.
    assert COPY_LIBRARY.rsplit("/", 1)[1] in context.opset_domains.origin("com.example.copy")


def test_select_picks_the_highest_version_not_above_the_import() -> None:
    context = build_default_registry_context(customizers=[schema_library_customizer(GOOD_LIBRARY)])
    schemas = context.schemas()
    assert schemas.select("test.schemas", "Twice", 1)[1] == "TEST_SCHEMAS_TWICE"
    assert schemas.select("test.schemas", "Twice", 2)[1] == "TEST_SCHEMAS_TWICE_V2"
    assert schemas.select("test.schemas", "Probe", 2)[1] == "TEST_SCHEMAS_PROBE"


def test_copy_reference_evaluates_the_function_body() -> None:
    definition = definition_of(COPY_LIBRARY, "CopyInput")
    x = np.arange(-3, 3, dtype=np.int8).reshape(2, 3)
    graph, node = single_node(definition.op_type, [(DType.INT8, x.shape)])
    (output,) = graph.node_outputs(node)
    output.dtype, output.shape = DType.INT8, x.shape
    call = ReferenceCall(graph, node, graph.node_inputs(node), graph.node_outputs(node), [x])
    (y,) = definition.reference(call)
    assert y.dtype == x.dtype and np.array_equal(y, x)


def test_schemas_keep_the_library_loaded() -> None:
    schema = load_schema_library(COPY_LIBRARY).definitions[0].schema
    assert schema is not None
    gc.collect()  # the library object is gone; the schema's infer still holds the host's handle
    context = InferenceContext("copy", [InputInfo(DType.FLOAT32, (2, 3))], None)
    assert schema.infer(context) == [TensorType(DType.FLOAT32, (2, 3))]


# ----- The test library: every feature of the ABI -----


def test_probe_equals_its_python_schema() -> None:
    schema = definition_of(GOOD_LIBRARY, "Probe").schema
    assert schema is not None
    assert_same_schema(schema, PROBE)
    assert schema.attributes == attribute_specs(ProbeAttributes)
    attributes_class = schema.attributes_class
    assert attributes_class is not None and attributes_class.__name__ == "ProbeAttributes"
    attributes = attributes_class(mode="same")
    assert (attributes.count, attributes.scale, attributes.axes, attributes.weights) == (2, 0.5, (0, 1), ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        attributes.count = 3
    with pytest.raises(TypeError):
        attributes_class("same")  # keyword-only
    with pytest.raises(TypeError):
        attributes_class()  # mode is required


def test_function_bodies_convert() -> None:
    bodies = {
        ("Twice", 1): FunctionBody((FunctionNode("Add", ("X", "X"), ("Y",)),), (("", 13),)),
        ("Twice", 2): FunctionBody(
            (
                FunctionNode("Constant", (), ("two",), attributes=(("value_float", 2.0),)),
                FunctionNode("CastLike", ("two", "X"), ("two_like_x",)),
                FunctionNode("Mul", ("X", "two_like_x"), ("Y",)),
            ),
            (("", 15),),
        ),
        ("ProbeSame", 1): FunctionBody(
            (
                FunctionNode(
                    "Probe",
                    ("X",),
                    ("Y",),
                    domain="test.schemas",
                    attributes=(
                        ("mode", "same"),
                        ("count", 3),
                        ("scale", 1.5),
                        ("axes", (1, 2)),
                        ("weights", (0.25,)),
                        ("labels", ("x",)),
                    ),
                ),
            ),
            (("test.schemas", 1),),
        ),
        ("Sum", 1): None,
        ("Probe", 1): None,
    }
    library = load_schema_library(GOOD_LIBRARY)
    assert library.domains == [OpsetDomain("test.schemas", 1, 2, "Schemas for the schema host's tests.")]
    found = {(d.schema.name, d.schema.since_version): d.schema.function_body for d in library.definitions if d.schema}
    assert found == bodies


def test_twice_v2_reference_evaluates_its_body() -> None:
    definition = definition_of(GOOD_LIBRARY, "Twice", 2)
    x = np.array([1.5, -2.0, 0.0], np.float32)
    graph, node = single_node(definition.op_type, [(DType.FLOAT32, x.shape)])
    graph.node_outputs(node)[0].shape = x.shape
    (y,) = definition.reference(ReferenceCall(graph, node, graph.node_inputs(node), graph.node_outputs(node), [x]))
    assert np.array_equal(y, x * 2)


def test_a_schema_without_body_has_a_reference_that_says_so() -> None:
    definition = definition_of(GOOD_LIBRARY, "Probe")
    graph, node = single_node(definition.op_type, [(DType.FLOAT32, (2,))])
    call = ReferenceCall(graph, node, graph.node_inputs(node), graph.node_outputs(node), [np.zeros(2, np.float32)])
    with pytest.raises(UnsupportedOperatorError, match="has no function body") as raised:
        definition.reference(call)
    assert "TEST_SCHEMAS_PROBE" in raised.value.hint and "function_body" in raised.value.hint


TEXT = st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(0, 1000),
    scale=st.floats(0, 1000),
    axes=st.lists(st.integers(0, 100), max_size=5).map(tuple),
    weights=st.lists(st.floats(allow_nan=False), max_size=5).map(tuple),
    labels=st.lists(TEXT, max_size=4).map(tuple),
    dtype=st.sampled_from([DType.FLOAT32, DType.INT8, DType.FLOAT16]),
)
def test_attributes_reach_the_callback(
    count: int, scale: float, axes: tuple, weights: tuple, labels: tuple, dtype: DType
) -> None:
    schema = definition_of(GOOD_LIBRARY, "Probe").schema
    assert schema is not None and schema.attributes_class is not None
    attributes = schema.attributes_class(
        mode="attributes", count=count, scale=scale, axes=axes, weights=weights, labels=labels
    )
    graph, node = single_node("TEST_SCHEMAS_PROBE", [(dtype, (5,))], attributes=attributes)
    # The callback's rule, in Python.
    first_label = len(labels[0].encode()) if labels else -1
    shape = (count, int(scale * 10), len(axes), sum(axes), len(weights), len(labels), first_label)
    assert infer_node(graph, node, schema) == [TensorType(dtype, shape)]


def test_defaults_and_inputs_reach_the_callback() -> None:
    schema = definition_of(GOOD_LIBRARY, "Probe").schema
    assert schema is not None and schema.attributes_class is not None
    # The defaults of the attributes class: count 2, scale 0.5, axes (0, 1), no weights, labels ("a", "bc").
    graph, node = single_node("P", [(DType.INT8, ())], attributes=schema.attributes_class(mode="attributes"))
    assert infer_node(graph, node, schema) == [TensorType(DType.INT8, (2, 5, 2, 1, 0, 2, 1))]
    # An omitted optional input: present 0, dtype 0, rank -1; then a present one.
    inputs_mode = schema.attributes_class(mode="inputs")
    graph, node = single_node("P", [(DType.FLOAT32, (4,)), None], attributes=inputs_mode)
    assert infer_node(graph, node, schema) == [TensorType(DType.FLOAT32, (2, 0, 0, -1))]
    graph, node = single_node("P", [(DType.FLOAT32, (4,)), (DType.FLOAT32, (1, -1, 3))], attributes=inputs_mode)
    assert infer_node(graph, node, schema) == [TensorType(DType.FLOAT32, (2, 1, 1, 3))]
    # An optional output.
    graph, node = single_node("P", [(DType.FLOAT16, (3, -1))], 2, schema.attributes_class(mode="mask"))
    assert infer_node(graph, node, schema) == [TensorType(DType.FLOAT16, (3, -1)), TensorType(DType.BOOL, (3, -1))]


@pytest.mark.parametrize(
    ("mode", "message", "hint"),
    [
        ("fail", 'Probe was asked to fail (mode "fail")', "refuses this node's inputs"),
        ("silent", "infer returned 1 without calling fail", "breaks cc/plugin/opbridge_schema.h's rules"),
        ("skip", "infer did not set output 0 (Y)", "breaks"),
        ("bad_dtype", "set_output(0): dtype 7 (int64) is outside T = {float32, int8, float16}", "breaks"),
        ("hole", "infer set output 1 but not output 0", "breaks"),
        ("throw", "infer threw: Probe threw on purpose", "breaks"),
    ],
)
def test_inference_failures_are_shape_inference_errors(mode: str, message: str, hint: str) -> None:
    schema = definition_of(GOOD_LIBRARY, "Probe").schema
    assert schema is not None and schema.attributes_class is not None
    graph, node = single_node(
        "TEST_SCHEMAS_PROBE", [(DType.FLOAT32, (2,))], attributes=schema.attributes_class(mode=mode)
    )
    with pytest.raises(ShapeInferenceError) as raised:
        infer_node(graph, node, schema)
    assert raised.value.message.startswith(node.describe() + ": schema test.schemas.Probe (since version 1)")
    assert message in raised.value.message
    assert hint in raised.value.hint


def test_variadic_inputs_reach_the_callback() -> None:
    schema = definition_of(GOOD_LIBRARY, "Sum").schema
    assert schema is not None
    graph, node = single_node("TEST_SCHEMAS_SUM", [(DType.INT8, (2, 3))] * 3)
    assert infer_node(graph, node, schema) == [TensorType(DType.INT8, (2, 3))]
    graph, node = single_node("TEST_SCHEMAS_SUM", [(DType.INT8, (2, 3)), (DType.INT8, (3, 2))])
    with pytest.raises(ShapeInferenceError, match="Sum: input 1 has another shape than input 0"):
        infer_node(graph, node, schema)


def test_the_host_checks_direct_calls_against_the_schema() -> None:
    schema = definition_of(GOOD_LIBRARY, "Probe").schema
    assert schema is not None and schema.attributes_class is not None
    attributes = schema.attributes_class(mode="same")
    cases = [
        ([], "takes 1 to 2 inputs (X, Bias?), got 0"),
        ([InputInfo(DType.INT32, (1,))], "input 0 (X) is int32 (6); T allows {float32, int8, float16}"),
        ([InputInfo(DType.FLOAT32, (1,)), InputInfo(DType.INT8, (1,))], "input 1 (Bias) is int8 but X is float32"),
        ([InputInfo(DType.FLOAT32, (-2,))], "has dimension -2"),
    ]
    for inputs, message in cases:
        with pytest.raises(ShapeInferenceError, match=re.escape(message)):
            schema.infer(InferenceContext("direct", inputs, attributes))
    bad_label = dataclasses.replace(attributes, labels=("a\0b",))
    with pytest.raises(ShapeInferenceError, match='attribute "labels" contains a NUL character'):
        schema.infer(InferenceContext("direct", [InputInfo(DType.FLOAT32, (1,))], bad_label))


# ----- What the loader refuses -----


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("wrong_abi", "implements schema ABI version 2; this host implements version 1"),
        ("no_entry_point", "does not export opbridge_schema_library"),
        ("duplicate", "schema test.schemas.Twice (since version 1) is added twice"),
        ("duplicate_domain", 'domain "test.schemas" is added twice'),
        ("unregistered_domain", 'is in domain "test.schemas", which the library does not add'),
        ("version_outside_domain", 'since_version 3 is outside domain "test.schemas"\'s versions 1..2'),
        ("reserved_domain", 'domain "opbridge" is reserved for opbridge and ONNX'),
        (
            "unconstrained_type_var",
            'schema test.schemas.Twice (since version 1): output 0 (Y) has type variable "U", '
            "which no type constraint constrains",
        ),
        ("empty_dtype_mask", "schema test.schemas.Sum (since version 1): type constraint 0 (T) allows no dtype"),
        ("variadic_not_last", "input 0 (Items) is variadic but not the last input"),
        ("body_undefined_value", 'function_body: node 0 (Add): input 1 reads "Z", which is undefined there'),
        ("body_missing_output", 'function_body: no node writes output "Y"'),
        ("silent_failure", "register_schemas returned 3 without calling set_error"),
        ("set_error", "register_schemas failed: the test library refuses to register"),
        ("larger_struct", "struct_size 128 sets fields after ABI version 1's 120 bytes"),
        ("keyword_attribute", "attribute 'lambda' is a Python keyword"),
    ],
)
def test_the_loader_refuses(variant: str, message: str) -> None:
    path = library_variant(variant)
    with pytest.raises(PluginLoadError) as raised:
        load_schema_library(path)
    assert raised.value.message.startswith(f"schema library {os.path.realpath(path)}")
    assert message in raised.value.message
    assert raised.value.hint
    # The customizer loads when it is made, so a bad library fails before any context is built.
    with pytest.raises(PluginLoadError):
        schema_library_customizer(path)


def test_the_loader_refuses_paths_it_would_search_for_or_cannot_find() -> None:
    with pytest.raises(
        PluginLoadError, match=re.escape('"libcopy_schemas.so" is not a path; pass an explicit path')
    ) as raised:
        load_schema_library("libcopy_schemas.so")
    assert "opbridge_schema.h" in raised.value.hint
    missing = os.path.abspath("examples/schema_library/libmissing.so")
    with pytest.raises(PluginLoadError, match="does not exist"):
        load_schema_library(missing)
    with pytest.raises(PluginLoadError, match="ELF"):
        load_schema_library(os.path.abspath("python/opbridge/schema_libraries_test.py"))


def test_a_doc_string_that_is_not_utf8_is_a_load_error(tmp_path) -> None:
    """A library whose schema doc holds bytes that are not UTF-8 (found by fuzzing: a damaged library)."""
    import subprocess

    source = tmp_path / "latin1_doc.c"
    text = pathlib.Path("examples/schema_library/copy_schemas.c").read_bytes()
    source.write_bytes(text.replace(b'.doc = "the tensor to copy"', b'.doc = "caf\xe9 au lait"'))
    library = tmp_path / "liblatin1_doc.so"
    compiled = subprocess.run(
        ["gcc", "-std=c99", "-shared", "-fPIC", "-I.", str(source), "-o", str(library)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert compiled.returncode == 0, compiled.stderr
    with pytest.raises(PluginLoadError, match=r"a string in its schemas \(a name or doc\) is not UTF-8 text") as error:
        load_schema_library(library)
    assert "b'\\xe9 au'" in str(error.value) and "UTF-8" in error.value.hint
