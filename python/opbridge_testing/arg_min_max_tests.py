# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX (float32 and int8 inputs) along a drawn constant axis: reference == TFLite Micro bit for bit (ties,
signed zeros, NaN and infinities included; int32 axis and indices, what TFLite Micro takes), reference == LiteRT
with int64 axes and indices, C module == reference (seeded inputs, and NaN and ties through bit patterns),
typed errors for a run-time or malformed axis, ONNX ArgMax (keepdims 0 and 1) converted == onnxruntime."""

import dataclasses
import pathlib
import tempfile
from typing import Any, ClassVar

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError, UnsupportedOperatorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes

from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    KERNELS,
    WORKSPACE_ROOT,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    run_golden_program,
)

REGISTRY = available_operator_registry()
# Ties, signed zeros, NaN and infinities: which index wins depends on the visiting order and the comparison.
FLOAT32_TIES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, -3.4028235e38], np.float32)

# The hypothesis tests are methods that TestArgMax and TestArgMin share: run in one process, hypothesis
# sees one test called on two classes. Their examples are valid for both operators.
SHARED_BY_SUBCLASSES = [HealthCheck.differing_executors]


@dataclasses.dataclass(frozen=True)
class ArgOperator:
    """What differs between ARG_MAX and ARG_MIN in their tests."""

    op_type: str
    onnx_op: str
    code: int  # LiteRT's builtin code
    options_class: type  # schema.ArgMaxOptionsT or ArgMinOptionsT
    options_type: int  # schema.BuiltinOptions.ArgMaxOptions or ArgMinOptions


ARG_MAX = ArgOperator(
    "ARG_MAX", "ArgMax", schema.BuiltinOperator.ARG_MAX, schema.ArgMaxOptionsT, schema.BuiltinOptions.ArgMaxOptions
)
ARG_MIN = ArgOperator(
    "ARG_MIN", "ArgMin", schema.BuiltinOperator.ARG_MIN, schema.ArgMinOptionsT, schema.BuiltinOptions.ArgMinOptions
)


def arg_graph(
    op: ArgOperator,
    shape: tuple[int, ...],
    axis: int,
    dtype: DType = DType.FLOAT32,
    output_type: DType = DType.INT32,
    axis_dtype: DType = DType.INT32,
    scalar_axis: bool = False,
    constant_axis: bool = True,
) -> Graph:
    builder = GraphBuilder()
    quantization = Quantization((0.05,), (-3,)) if dtype is DType.INT8 else None
    x = builder.tensor("input", dtype, shape, quantization)
    data = np.array(axis if scalar_axis else [axis], axis_dtype.numpy)
    a = builder.tensor("axis", axis_dtype, data.shape, None, data if constant_axis else None)
    kept = tuple(size for dimension, size in enumerate(shape) if dimension != axis % len(shape))
    y = builder.tensor("indices", output_type, kept)
    return builder.single_node_graph(op.op_type, [x, a], [y], ArgMinMaxAttributes(output_type=output_type))


def draw_graph(
    op: ArgOperator, data: st.DataObject, dtype: DType, output_types: tuple[DType, ...], axis_dtypes: tuple[DType, ...]
) -> Graph:
    rank = data.draw(st.integers(1, 5))
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(rank))
    axis = data.draw(st.integers(-rank, rank - 1))
    return arg_graph(
        op,
        shape,
        axis,
        dtype,
        data.draw(st.sampled_from(output_types)),
        data.draw(st.sampled_from(axis_dtypes)),
        scalar_axis=data.draw(st.booleans()),
    )


def version_of(graph: Graph) -> int:
    return 2 if graph.tensors[0].dtype is DType.INT8 else 1


def options(op: ArgOperator, graph: Graph) -> Any:
    packed = op.options_class()
    packed.outputType = {DType.INT32: schema.TensorType.INT32, DType.INT64: schema.TensorType.INT64}[
        graph.nodes[0].attributes.output_type
    ]
    return packed


def drawn_inputs(data: st.DataObject, shape: tuple[int, ...], dtype: DType, nan: bool = True) -> list[np.ndarray]:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    if dtype is DType.FLOAT32:
        ties = FLOAT32_TIES if nan else FLOAT32_TIES[1:]
        return [rng.standard_normal(shape).astype(np.float32), rng.choice(ties, size=shape)]
    return [rng.integers(-128, 128, size=shape).astype(np.int8), rng.integers(-2, 2, size=shape).astype(np.int8)]


def run_litert(model: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interpreter.allocate_tensors()
    for detail, values in zip(interpreter.get_input_details(), inputs, strict=True):
        interpreter.set_tensor(detail["index"], values)
    interpreter.invoke()
    return [np.array(interpreter.get_tensor(detail["index"])) for detail in interpreter.get_output_details()]


def float_bits(values: np.ndarray) -> str:
    return ", ".join(f"0x{bits:08x}u" for bits in np.ascontiguousarray(values, np.float32).ravel().view(np.uint32))


def onnx_model(
    op: ArgOperator, shape: tuple[int, ...], attributes: dict[str, int], element_type: int = TensorProto.FLOAT
) -> bytes:
    node = helper.make_node(op.onnx_op, ["x"], ["y"], name="arg", **attributes)
    graph = helper.make_graph(
        [node],
        "arg",
        [helper.make_tensor_value_info("x", element_type, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


class ArgMinMaxTests:
    """The suite; a subclass named Test... sets OP."""

    OP: ClassVar[ArgOperator]

    @settings(max_examples=30, deadline=None, suppress_health_check=SHARED_BY_SUBCLASSES)
    @given(st.data(), st.sampled_from([DType.FLOAT32, DType.INT8]))
    def test_reference_matches_tflite_micro(self, data: st.DataObject, dtype: DType) -> None:
        # TFLite Micro takes int32 axes and writes int32 indices only.
        graph = draw_graph(self.OP, data, dtype, (DType.INT32,), (DType.INT32,))
        inputs = drawn_inputs(data, graph.tensors[0].shape, dtype)
        check_reference_matches_tflite_micro(
            graph, REGISTRY, self.OP.code, version_of(graph), self.OP.options_type, options(self.OP, graph),
            inputs=[[values] for values in inputs],
        )  # fmt: skip

    def test_nan_rows_match_tflite_micro(self) -> None:
        # A NaN first is never replaced (TFLite Micro compares with >); NaN after a value never wins.
        rows = np.array(
            [
                [np.nan, 1.0, 3.0, 2.0],
                [np.nan, np.nan, np.nan, np.nan],
                [1.0, np.nan, -1.0, np.nan],
                [-np.inf, np.nan, np.inf, 0.0],
                [-0.0, 0.0, -0.0, 0.0],
                [0.0, -0.0, np.nan, -0.0],
            ],
            np.float32,
        )
        for axis in (0, 1):
            graph = arg_graph(self.OP, rows.shape, axis)
            check_reference_matches_tflite_micro(
                graph, REGISTRY, self.OP.code, 1, self.OP.options_type, options(self.OP, graph), inputs=[[rows]]
            )

    @settings(max_examples=20, deadline=None, suppress_health_check=SHARED_BY_SUBCLASSES)
    @given(st.data(), st.sampled_from([DType.FLOAT32, DType.INT8]))
    def test_int64_axis_and_indices_match_litert(self, data: st.DataObject, dtype: DType) -> None:
        """TFLite Micro refuses int64 axes and indices; LiteRT's reference kernel is the peer (NaN left out: its
        comparison is not TFLite Micro's NaN-aware one)."""
        graph = draw_graph(self.OP, data, dtype, (DType.INT32, DType.INT64), (DType.INT32, DType.INT64))
        model = single_op_model(graph, self.OP.code, version_of(graph), self.OP.options_type, options(self.OP, graph))
        parsed = read_litert_model(model, as_registry_context(REGISTRY), "arg.tflite")
        assert parsed.nodes[0].attributes == graph.nodes[0].attributes
        interpreter = ReferenceInterpreter(parsed, REGISTRY)
        for values in drawn_inputs(data, graph.tensors[0].shape, dtype, nan=False):
            (ours,) = interpreter.run([values])
            (theirs,) = run_litert(model, [values])
            assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
            np.testing.assert_array_equal(ours, theirs)

    @settings(max_examples=10, deadline=None, suppress_health_check=SHARED_BY_SUBCLASSES)
    @given(st.data(), st.sampled_from([DType.FLOAT32, DType.INT8]))
    def test_c_module_matches_reference(self, data: st.DataObject, dtype: DType) -> None:
        graph = draw_graph(self.OP, data, dtype, (DType.INT32, DType.INT64), (DType.INT32, DType.INT64))
        check_c_matches_reference(graph, REGISTRY)

    @pytest.mark.parametrize("output_type", [DType.INT32, DType.INT64])
    @pytest.mark.parametrize(("shape", "axis"), [((4, 6), 1), ((4, 6), 0), ((2, 3, 4), 1), ((24,), -1)])
    def test_c_module_on_ties_and_nan_exactly(self, shape: tuple[int, ...], axis: int, output_type: DType) -> None:
        # The golden programs hold C float literals (no NaN): the inputs go in as bit patterns.
        graph = arg_graph(self.OP, shape, axis, output_type=output_type)
        interpreter = ReferenceInterpreter(graph, REGISTRY)
        rng = np.random.default_rng(5)
        inputs = [rng.choice(FLOAT32_TIES, size=shape) for _ in range(6)]
        inputs.append(np.full(shape, np.nan, np.float32))
        expected = [interpreter.run([values])[0] for values in inputs]
        count, size = graph.tensors[0].element_count, graph.tensors[2].element_count
        ctype = "int64_t" if output_type is DType.INT64 else "int32_t"
        rows = ", ".join("{" + ", ".join(str(int(i)) for i in e.ravel()) + "}" for e in expected)
        harness = f"""#include <stdint.h>
    #include <stdio.h>
    #include <string.h>

    #include "single_op.h"

    static const uint32_t inputs[{len(inputs)}][{count}] = {{{", ".join("{" + float_bits(v) + "}" for v in inputs)}}};
    static const {ctype} expected[{len(inputs)}][{size}] = {{{rows}}};

    int main(void) {{
      single_op_context ctx;
      int failures = 0;
      if (single_op_init(&ctx, NULL, 0) != SINGLE_OP_STATUS_OK) {{
        return 1;
      }}
      for (int c = 0; c < {len(inputs)}; ++c) {{
        memcpy(ctx.inputs[0].data, inputs[c], sizeof inputs[c]);
        if (single_op_run(&ctx) != SINGLE_OP_STATUS_OK ||
            memcmp(ctx.outputs[0].data, expected[c], sizeof expected[c])) {{
          printf("FAIL case %d\\n", c);
          ++failures;
        }}
      }}
      return failures != 0;
    }}
    """
        with tempfile.TemporaryDirectory() as scratch:
            directory = pathlib.Path(scratch)
            compile_graph(graph, REGISTRY, "single_op", directory / "module", bundle_kernels=False)
            (directory / "ties.c").write_text(harness)
            run_golden_program(
                directory / "module", directory / "ties.c", include_dirs=[WORKSPACE_ROOT], kernel_sets=[KERNELS]
            )

    def test_run_time_and_malformed_axes_are_refused(self) -> None:
        values = np.zeros((2, 3), np.float32)
        graph = arg_graph(self.OP, (2, 3), 1, constant_axis=False)
        with pytest.raises(OpbridgeError, match=rf"node 0 \({self.OP.op_type}.*axis.*run time"):
            ReferenceInterpreter(graph, REGISTRY).run([values, np.array([1], np.int32)])
        with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"axis.*run time"):
            compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)
        graph = arg_graph(self.OP, (2, 3), 1)
        graph.tensors[1].data = np.array([0, 1], np.int32)
        graph.tensors[1].shape = (2,)
        with pytest.raises(OpbridgeError, match=rf"node 0 \({self.OP.op_type}.*one int32 or int64 axis"):
            ReferenceInterpreter(graph, REGISTRY).run([values])
        graph = arg_graph(self.OP, (2, 0, 3), 1)
        with pytest.raises(OpbridgeError, match=rf"node 0 \({self.OP.op_type}.*empty along axis 1"):
            ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 0, 3), np.float32)])

    def test_mismatched_output_type_is_refused(self) -> None:
        graph = arg_graph(self.OP, (2, 3), 1)
        graph.tensors[2].dtype = DType.INT64  # output_type says int32
        with pytest.raises(OpbridgeError, match=rf"node 0 \({self.OP.op_type}.*writes int32 indices"):
            ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.float32)])

    @pytest.mark.parametrize(
        ("shape", "attributes"),
        [
            ((3, 5, 4), {}),  # axis 0, keepdims 1
            ((3, 5, 4), {"axis": 1, "keepdims": 0}),
            ((3, 5, 4), {"axis": -1, "keepdims": 1}),
            ((1, 8, 4, 4), {"axis": 1, "keepdims": 0}),  # NCHW channels: the axis as ONNX numbers it
            ((1, 8, 4, 4), {"axis": 1}),
            ((7,), {"axis": 0, "keepdims": 0, "select_last_index": 0}),
        ],
    )
    @pytest.mark.parametrize("element_type", [TensorProto.FLOAT, TensorProto.INT8])
    def test_onnx_matches_onnxruntime(
        self, shape: tuple[int, ...], attributes: dict[str, int], element_type: int
    ) -> None:
        model = onnx_model(self.OP, shape, attributes, element_type)
        context = available_registry_context()
        converted = read_onnx_model(model, context)
        keepdims = attributes.get("keepdims", 1)
        assert [n.op_type for n in converted.nodes] == ([self.OP.op_type, "RESHAPE"] if keepdims else [self.OP.op_type])
        rng = np.random.default_rng(11)
        session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
        if element_type == TensorProto.FLOAT:
            cases = [rng.standard_normal(shape).astype(np.float32), rng.choice(FLOAT32_TIES[1:], size=shape)]
        else:
            cases = [
                rng.integers(-128, 128, size=shape).astype(np.int8),
                rng.integers(-2, 2, size=shape).astype(np.int8),
            ]
        for values in cases:
            (ours,) = ReferenceInterpreter(converted, context).run([values])
            (theirs,) = session.run(None, {"x": values})
            assert ours.dtype == theirs.dtype == np.int64 and ours.shape == theirs.shape
            np.testing.assert_array_equal(ours, theirs)

    def test_onnx_select_last_index_is_refused(self) -> None:
        model = onnx_model(self.OP, (3, 4), {"axis": 1, "select_last_index": 1})
        with pytest.raises(UnsupportedOperatorError, match=r"select_last_index=1"):
            read_onnx_model(model, available_registry_context())
