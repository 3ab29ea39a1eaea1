# SPDX-License-Identifier: Apache-2.0
"""The OpenVINO extension generator on kernels other than the scaffold's.

Drawn schemas (inputs of several type variables, float and int params with and
without defaults, a declarative or a Python shape rule, op names that are also
the library's helpers' names) give C++ that compiles
with -Wall -Wextra -Werror against the pinned OpenVINO headers; and one
two-input kernel written here is built, loaded into the real runtime and run
through its ONNX frontend: both dtypes its second input allows, an attribute
left to its default, one that is required, and the kernel's C shape function
as the shape rule.
"""

import dataclasses
import os
import pathlib
import subprocess
import tempfile

import numpy as np
import openvino as ov
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from opbridge.aot.openvino_extension import openvino_extension
from opbridge.aot.portable_kernel import KERNEL_DTYPES, KernelParam, PortableKernel, PortableKernelError
from opbridge.ir import DType
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    TensorType,
    TypeConstraint,
    same_as_input,
)

WORKSPACE = pathlib.Path(__file__).resolve().parents[3]
OPENVINO = pathlib.Path(ov.__file__).resolve().parent
LIBOPENVINO = next((OPENVINO / "libs").glob("libopenvino.so.*"))
CXX_FLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-isystem", str(OPENVINO / "include")]


def _python_rule(ctx: InferenceContext) -> list[TensorType]:
    x = ctx.input(0)
    return [TensorType(x.dtype, x.shape)]


def _header(function: str, params: tuple[KernelParam, ...]) -> str:
    fields = "\n".join(f"  {p.ctype} {p.name};" for p in params) or "  int32_t unused;"
    return f"""#include <stdint.h>
#include "cc/kernels/opbridge_kernel_api.h"
#ifdef __cplusplus
extern "C" {{
#endif
typedef struct {function}_params {{
{fields}
}} {function}_params_t;
int32_t {function}(const {function}_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count);
int32_t {function}_output_shape(const {function}_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape);
#ifdef __cplusplus
}}
#endif
"""


@st.composite
def kernels(draw: st.DrawFn) -> tuple[PortableKernel, str]:
    """A PortableKernel of a drawn schema, and its header's text."""
    n_in = draw(st.integers(1, 3))
    variables = [f"T{i}" for i in range(draw(st.integers(1, n_in)))]
    inputs = tuple(FormalParameter(f"x{i}", variables[min(i, len(variables) - 1)]) for i in range(n_in))
    constraints = tuple(
        TypeConstraint(v, tuple(draw(st.lists(st.sampled_from(KERNEL_DTYPES), min_size=1, max_size=3, unique=True))))
        for v in variables
    )
    n_out = draw(st.integers(1, 2))
    outputs = tuple(FormalParameter(f"y{i}", variables[0]) for i in range(n_out))
    names = draw(st.lists(st.sampled_from(["gain", "bias", "limit", "shift"]), max_size=3, unique=True))
    params = tuple(KernelParam(name, draw(st.sampled_from(["float", "int32_t"]))) for name in names)
    fields = []
    for param in params:
        kind = float if param.ctype == "float" else int
        if draw(st.booleans()):
            fields.append((param.name, kind, dataclasses.field(default=kind(draw(st.integers(-3, 3))))))
        else:
            fields.append((param.name, kind))
    fields.sort(key=lambda field: len(field) == 3)  # required fields first, as dataclasses want
    attributes = dataclasses.make_dataclass("Attributes", fields, frozen=True) if fields else None
    declarative = n_out == 1 and draw(st.booleans())
    schema = OpSchema(
        domain="com.example.drawn",
        # Names of the library's own helpers too: the op's class must not collide with them.
        name=draw(st.sampled_from(["Drawn", "Convert", "Params", "Op", "OutputShape", "Fail", "TypeVariable"])),
        since_version=draw(st.integers(1, 3)),
        inputs=inputs,
        outputs=outputs,
        type_constraints=constraints,
        infer=same_as_input(0) if declarative else _python_rule,
        **({"attributes_class": attributes} if attributes else {}),
    )
    function = "drawn_kernel"
    kernel = PortableKernel(function, pathlib.Path("drawn_kernel.h"), (), params, schema)
    return kernel, _header(function, params)


@settings(max_examples=6, deadline=None)
@given(drawn=kernels())
def test_the_extension_of_a_drawn_schema_compiles_warning_free(drawn: tuple[PortableKernel, str]) -> None:
    kernel, header = drawn
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        (folder / "drawn_kernel.h").write_text(header)
        source = folder / "extension.cpp"
        source.write_text(openvino_extension(kernel))
        command = ["g++", *CXX_FLAGS, "-fsyntax-only", f"-I{folder}", f"-I{WORKSPACE}", str(source)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr[-4000:]


def test_an_output_whose_dtype_no_input_fixes_is_refused() -> None:
    schema = OpSchema(
        domain="com.example.drawn",
        name="Drawn",
        since_version=1,
        inputs=(FormalParameter("x", "T"),),
        outputs=(FormalParameter("y", "U"),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,)), TypeConstraint("U", (DType.INT8, DType.INT32))),
        infer=_python_rule,
    )
    kernel = PortableKernel("drawn_kernel", pathlib.Path("drawn_kernel.h"), (), (), schema)
    with pytest.raises(PortableKernelError, match="output 0's type U is neither an input's nor one dtype"):
        openvino_extension(kernel)


# y = a * gain + b + bias, b int8 or int32 (its own type variable), gain float with a default, bias int
# required; y has a's shape by the kernel's C shape function (the schema's rule is Python code).
SCALE_ADD_C = r"""
#include "scale_add.h"
int32_t scale_add(const scale_add_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {
  if (input_count != 2 || output_count != 1 || inputs[0].element_count != inputs[1].element_count) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  const float *a = (const float *)inputs[0].data;
  float *y = (float *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {
    const float b = inputs[1].dtype == OPBRIDGE_KERNEL_INT8 ? (float)((const int8_t *)inputs[1].data)[i]
                                                             : (float)((const int32_t *)inputs[1].data)[i];
    y[i] = a[i] * params->gain + b + (float)params->bias;
  }
  return OPBRIDGE_KERNEL_OK;
}
int32_t scale_add_output_shape(const scale_add_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {
  (void)params;
  if (input_count != 2 || output_index != 0 || inputs[0].shape.rank != inputs[1].shape.rank) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  for (int32_t d = 0; d < inputs[0].shape.rank; ++d) {
    if (inputs[0].shape.dims[d] != inputs[1].shape.dims[d]) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  *shape = inputs[0].shape;
  return OPBRIDGE_KERNEL_OK;
}
"""


@dataclasses.dataclass(frozen=True)
class ScaleAddAttributes:
    bias: int
    gain: float = 2.0


SCALE_ADD = PortableKernel(
    "scale_add",
    pathlib.Path("scale_add.h"),
    (),
    (KernelParam("gain", "float"), KernelParam("bias", "int32_t")),
    OpSchema(
        domain="com.example.scale_add",
        name="ScaleAdd",
        since_version=1,
        inputs=(FormalParameter("a", "T"), FormalParameter("b", "B")),
        outputs=(FormalParameter("y", "T"),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,)), TypeConstraint("B", (DType.INT8, DType.INT32))),
        infer=_python_rule,
        attributes_class=ScaleAddAttributes,
    ),
)


@pytest.fixture(scope="module")
def scale_add_library(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    folder = tmp_path_factory.mktemp("scale_add")
    (folder / "scale_add.h").write_text(_header("scale_add", SCALE_ADD.params))
    (folder / "scale_add.c").write_text(SCALE_ADD_C)
    (folder / "extension.cpp").write_text(openvino_extension(SCALE_ADD))
    includes = [f"-I{folder}", f"-I{WORKSPACE}"]
    kernel = folder / "scale_add.o"
    for command in (
        ["gcc", "-std=c99", "-fPIC", "-Wall", "-Wextra", "-Werror", *includes, "-c", str(folder / "scale_add.c"),
         "-o", str(kernel)],
        ["g++", *CXX_FLAGS, "-fPIC", "-shared", "-fvisibility=hidden", *includes, str(folder / "extension.cpp"),
         str(kernel), str(LIBOPENVINO), f"-Wl,-rpath,{LIBOPENVINO.parent}", "-o", str(folder / "libscale_add.so")],
    ):  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr[-4000:]
    return folder / "libscale_add.so"


def _scale_add_model(folder: pathlib.Path, b_type: int, shape: list[int | str], **attributes: object) -> str:
    node = helper.make_node("ScaleAdd", ["a", "b"], ["y"], domain="com.example.scale_add", **attributes)
    graph = helper.make_graph(
        [node],
        "scale_add",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, shape),
            helper.make_tensor_value_info("b", b_type, shape),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.example.scale_add", 1)]
    path = folder / f"scale_add_{b_type}_{len(os.listdir(folder))}.onnx"
    path.write_bytes(helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString())
    return str(path)


@pytest.mark.parametrize(("b_type", "b_dtype"), [(TensorProto.INT8, np.int8), (TensorProto.INT32, np.int32)])
def test_a_two_input_kernel_runs_in_openvino_for_each_dtype_its_schema_allows(
    scale_add_library: pathlib.Path, tmp_path: pathlib.Path, b_type: int, b_dtype: type
) -> None:
    core = ov.Core()
    core.add_extension(str(scale_add_library))
    rng = np.random.default_rng(b_type)
    for shape, attributes in (([2, 3], {"bias": 5}), ([4], {"bias": -7, "gain": 0.5})):
        model = core.read_model(_scale_add_model(tmp_path, b_type, shape, **attributes))
        (operation,) = [op for op in model.get_ordered_ops() if op.get_type_name() == "ScaleAdd"]
        assert operation.get_attributes() == {"gain": attributes.get("gain", 2.0), "bias": attributes["bias"]}
        compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        a = rng.standard_normal(shape).astype(np.float32)
        b = rng.integers(-100, 100, shape).astype(b_dtype)
        (y,) = compiled([a, b]).values()
        gain = np.float32(attributes.get("gain", 2.0))
        expected = a * gain + b.astype(np.float32) + np.float32(attributes["bias"])
        np.testing.assert_array_equal(y, expected)


def test_the_c_shape_rule_refuses_mismatched_shapes_and_a_required_attribute_is_named(
    scale_add_library: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    core = ov.Core()
    core.add_extension(str(scale_add_library))
    with pytest.raises(
        RuntimeError, match=r'ScaleAdd \(com.example.scale_add\): the node lacks the int attribute "bias"'
    ):
        core.read_model(_scale_add_model(tmp_path, TensorProto.INT8, [2, 3]))
    with pytest.raises(RuntimeError, match=r"ScaleAdd \(com.example.scale_add\): input 1 \(b\) is float32; "
                       r"the schema allows int8, int32 \(type B\)"):  # fmt: skip
        core.read_model(_scale_add_model(tmp_path, TensorProto.FLOAT, [2, 3], bias=1))
    node = helper.make_node("ScaleAdd", ["a", "b"], ["y"], domain="com.example.scale_add", bias=1)
    graph = helper.make_graph(
        [node],
        "mismatched",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("b", TensorProto.INT8, [3, 2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.example.scale_add", 1)]
    path = tmp_path / "mismatched.onnx"
    path.write_bytes(helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString())
    with pytest.raises(
        RuntimeError, match=r"ScaleAdd \(com.example.scale_add\): scale_add_output_shape refused output 0"
    ):
        core.read_model(str(path))
