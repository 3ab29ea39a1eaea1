# SPDX-License-Identifier: Apache-2.0
"""`opbridge new-op NAME --format litert|onnx [--dtype int8|float32]`: a custom-operator package.

The package passes its own tests as written (`bazel test //<package>/...`:
the kernel against the reference in opbridge's native host, the emitted
module's golden test on four platforms, and for ONNX onnxruntime and OpenVINO
running the model with the generated custom-op library and extension); the
user then edits the math in three places: the NumPy reference, the shape
rule, the C kernel. Its one BUILD call is `custom_op`
(toolchains/custom_op.bzl). docs/custom_ops.md walks through it.

The starting math: LiteRT ops are a ReLU (int8: requantized from the input's
to the output's scale with TFLite's fixed-point helpers); ONNX ops are a
leaky ReLU whose slope is the node's attribute (int8: a fixed-point slope,
`alpha_multiplier` and `alpha_shift`), so the attribute reaches the kernel
on every host.
"""

import dataclasses
import keyword
import os
import pathlib
import re
import shutil
import sys
import tempfile
from typing import Literal

from opbridge.errors import OpbridgeError
from opbridge.frontends.litert.nodes import custom_code_to_op_key
from opbridge.frontends.torch.library import IDENTIFIER, RESERVED_NAMESPACES

Format = Literal["litert", "onnx"]
DTypeName = Literal["int8", "float32"]
_WORDS = re.compile(r"[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+(?:[0-9]+[a-z]*)?|[0-9]+")
# Python keywords and names the package would shadow.
_RESERVED = {"opbridge", "test", "kernel", "plugin", "make_model", "op_test", "numpy", "onnx"}


class ScaffoldError(OpbridgeError):
    """`opbridge new-op` cannot write the package: a bad name or option, or a folder in the way."""


@dataclasses.dataclass(frozen=True)
class OpNames:
    """One op's names: SquaredRelu (ONNX op, class names), squared_relu (files, C), SQUARED_RELU (key),
    and for LiteRT the model's customCode (the key comes from it, as the reader derives it)."""

    camel: str
    snake: str
    key: str
    custom_code: str = ""

    @classmethod
    def of(cls, name: str) -> "OpNames":
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise ScaffoldError(
                f"operator name {name!r} is not an identifier",
                hint="use letters, digits and '_', starting with a letter: SquaredRelu, squared_relu or SQUARED_RELU",
            )
        # An upper-case part (a key: SQUARED_RELU, CONV1D) is one word; others split at capitals.
        parts = [part for part in name.split("_") if part]
        words = [w.lower() for part in parts for w in ([part] if part.isupper() else _WORDS.findall(part))]
        snake = "_".join(words)
        taken = (
            snake in _RESERVED or snake.startswith("opbridge") or keyword.iskeyword(snake)
            or snake in sys.stdlib_module_names
        )  # fmt: skip
        if taken or len(snake) > 24:
            raise ScaffoldError(
                f"operator name {name!r} gives the package name {snake!r}, which "
                + ("a Python keyword or module already has" if taken else "is longer than 24 characters"),
                hint="choose another name (it names the Python package, and the C prefix of the test module)",
            )
        return cls(
            camel="".join(w.capitalize() for w in words), snake=snake, key=snake.upper(), custom_code=snake.upper()
        )

    def with_custom_code(self, custom_code: str) -> "OpNames":
        """The names of an op whose LiteRT models name it `custom_code` (its key follows from it)."""
        try:
            key = custom_code_to_op_key(custom_code)
        except OpbridgeError as error:
            raise ScaffoldError(error.message, hint=error.hint) from None
        return dataclasses.replace(self, key=key, custom_code=custom_code)


def _imports(standard: list[str], others: list[str], own: tuple[str, ...] = ()) -> str:
    """Import blocks sorted as ruff's isort sorts them: `import x` before `from x import y`, by module;
    `own` are imports of the file's own package (a block of their own)."""

    def key(line: str) -> tuple[bool, str]:
        return line.startswith("from "), line.split()[1].lower()

    blocks = [sorted(block, key=key) for block in (standard, others, list(own)) if block]
    return "\n\n".join("\n".join(block) for block in blocks)


def _header(names: OpNames, dtype: DTypeName, fmt: Format, torch: str | None = None) -> str:
    if fmt == "litert" and dtype == "int8":
        fields = """  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier; /* the input-to-output scale ratio, Q0.31 (opbridge_fixed_point.h) */
  int32_t shift;"""
    elif fmt == "litert":
        fields = "  int32_t unused; /* C99 has no empty structs; add your params here */"
    elif dtype == "int8" and torch:
        fields = """  float alpha;              /* the slope for x < 0 (the node's attribute), for float32 */
  int32_t zero_point;       /* int8: the input's (and output's) zero point, from its quantization */
  int32_t alpha_multiplier; /* int8: alpha as Q0.31 with alpha_shift */
  int32_t alpha_shift;"""
    elif dtype == "int8":
        fields = """  int32_t alpha_multiplier; /* the slope for x < 0, Q0.31 with alpha_shift (attributes) */
  int32_t alpha_shift;"""
    else:
        fields = "  float alpha; /* the slope for x < 0 (the node's attribute) */"
    s, guard = names.snake, f"{names.key}_KERNEL_H_"
    hosts = (
        "opbridge's native host, in onnxruntime and in OpenVINO"
        if fmt == "onnx"
        else "opbridge's native host and in onnxruntime"
    )
    return f"""/* SPDX-License-Identifier: Apache-2.0 */
/* {names.camel}'s kernel, written against the portable kernel interface
 * (cc/kernels/opbridge_kernel_api.h): the same source runs in the emitted
 * module, in {hosts}. */
#ifndef {guard}
#define {guard}

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_api.h"

#ifdef __cplusplus
extern "C" {{
#endif

/* Computed once per node (plugin.py: the PortableKernel's params). */
typedef struct {s}_kernel_params {{
{fields}
}} {s}_kernel_params_t;

int32_t {s}_kernel(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count);

/* The output's shape, for hosts that allocate it (agrees with plugin.py's shape rule). */
int32_t {s}_kernel_output_shape(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape);

#ifdef __cplusplus
}} /* extern "C" */
#endif

#endif /* {guard} */
"""


def _kernel(names: OpNames, dtype: DTypeName, fmt: Format, torch: str | None = None) -> str:
    if dtype == "int8" and torch:
        return _torch_int8_kernel(names)
    s = names.snake
    ctype = "int8_t" if dtype == "int8" else "float"
    code = "OPBRIDGE_KERNEL_INT8" if dtype == "int8" else "OPBRIDGE_KERNEL_FLOAT32"
    include = '\n#include "cc/kernels/opbridge_fixed_point.h"\n' if dtype == "int8" else ""
    if fmt == "litert" and dtype == "int8":
        body = """    /* The math: max(x, 0) in real terms, requantized to the output's scale. */
    int32_t value = (int32_t)x[i] - params->input_zero_point;
    if (value < 0) value = 0;
    value = opbridge_rescale(value, params->multiplier, params->shift) + params->output_zero_point;
    y[i] = (int8_t)(value < -128 ? -128 : value > 127 ? 127 : value);"""
        unused = ""
    elif fmt == "litert":
        body = """    /* The math: max(x, 0). */
    y[i] = x[i] > 0.0f ? x[i] : 0.0f;"""
        unused = "  (void)params;\n"
    elif dtype == "int8":
        body = """    /* The math: x for x >= 0, else x * alpha (fixed point, rounded as TFLite rounds). */
    int32_t value = x[i];
    if (value < 0) value = opbridge_rescale(value, params->alpha_multiplier, params->alpha_shift);
    y[i] = (int8_t)(value < -128 ? -128 : value > 127 ? 127 : value);"""
        unused = ""
    else:
        body = """    /* The math: x for x >= 0, else alpha * x. */
    y[i] = x[i] >= 0.0f ? x[i] : params->alpha * x[i];"""
        unused = ""
    return f"""/* SPDX-License-Identifier: Apache-2.0 */
#include "{s}_kernel.h"
{include}
int32_t {s}_kernel(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {{
{unused}  if (input_count != 1 || output_count != 1 || inputs[0].dtype != {code} ||
      outputs[0].dtype != {code} || inputs[0].element_count != outputs[0].element_count) {{
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }}
  const {ctype} *x = (const {ctype} *)inputs[0].data;
  {ctype} *y = ({ctype} *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {{
{body}
  }}
  return OPBRIDGE_KERNEL_OK;
}}

int32_t {s}_kernel_output_shape(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {{
  (void)params;
  if (input_count != 1 || output_index != 0) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}}
"""


def _torch_int8_kernel(names: OpNames) -> str:
    """A leaky ReLU on float32 (the float model) and int8 (after PT2E), its int8 params from the quantization."""
    s = names.snake
    return f"""/* SPDX-License-Identifier: Apache-2.0 */
#include "{s}_kernel.h"

#include "cc/kernels/opbridge_fixed_point.h"

int32_t {s}_kernel(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {{
  if (input_count != 1 || output_count != 1 || inputs[0].dtype != outputs[0].dtype ||
      inputs[0].element_count != outputs[0].element_count) {{
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }}
  if (inputs[0].dtype == OPBRIDGE_KERNEL_FLOAT32) {{
    const float *x = (const float *)inputs[0].data;
    float *y = (float *)outputs[0].data;
    for (int32_t i = 0; i < inputs[0].element_count; ++i) {{
      /* The math: x for x >= 0, else alpha * x. */
      y[i] = x[i] >= 0.0f ? x[i] : params->alpha * x[i];
    }}
    return OPBRIDGE_KERNEL_OK;
  }}
  if (inputs[0].dtype != OPBRIDGE_KERNEL_INT8) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  const int8_t *x = (const int8_t *)inputs[0].data;
  int8_t *y = (int8_t *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {{
    /* The math on the real values x - zero_point (one scale in and out): alpha * x below zero, rounded as
     * TFLite rounds. */
    int32_t value = (int32_t)x[i] - params->zero_point;
    if (value < 0) value = opbridge_rescale(value, params->alpha_multiplier, params->alpha_shift);
    value += params->zero_point;
    y[i] = (int8_t)(value < -128 ? -128 : value > 127 ? 127 : value);
  }}
  return OPBRIDGE_KERNEL_OK;
}}

int32_t {s}_kernel_output_shape(const {s}_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {{
  (void)params;
  if (input_count != 1 || output_index != 0) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}}
"""


def _quantization(dtype: DTypeName, fmt: Format) -> tuple[str, str]:
    """The scaffold op's OperatorDefinition.quantization, and what it means."""
    if dtype == "float32":
        return "FLOAT", "no int8 output"
    if fmt == "litert":
        return "OWN", "int8 output with parameters of its own (the kernel rescales)"
    return "SAME_AS_INPUT", "int8 output on the input's parameters (the kernel scales raw values)"


def _fact_names(dtype: DTypeName, fmt: Format) -> str:
    return ", ".join(sorted(["NO_MEMORY", _quantization(dtype, fmt)[0]]))


def _plugin(names: OpNames, dtype: DTypeName, fmt: Format, domain: str, torch: str | None = None) -> str:
    # An int8 PyTorch op also runs the float model (eager torch, before PT2E), and its int8 params come
    # from the quantization PT2E gives its tensors.
    torch_int8 = torch is not None and dtype == "int8"
    dtype_enum = "DType.INT8" if dtype == "int8" else "DType.FLOAT32"
    standard = ["import pathlib"] + (["import dataclasses"] if fmt == "onnx" else [])
    kernel_names = (
        "PortableKernel, PortableKernelOperator"
        if fmt == "litert" and dtype == "float32"
        else "KernelParam, PortableKernel, PortableKernelError, PortableKernelOperator"
        if fmt == "litert" or torch_int8
        else "KernelParam, PortableKernel, PortableKernelOperator"
    )
    others = [
        "import numpy as np",
        f"from opbridge.aot.portable_kernel import {kernel_names}",
        "from opbridge.ir import DType, Graph, Node"
        if (fmt == "litert" and dtype == "int8") or torch_int8
        else "from opbridge.ir import DType",
        f"from opbridge.ops.definition import {_fact_names(dtype, fmt)}, Layout, OperatorDefinition, ReferenceCall",
        "from opbridge.registry_context import RegistryContext",
        "from opbridge.schemas.opsets import OpsetDomain",
        "from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input",
    ]
    if fmt == "onnx":
        others.append("from opbridge.ops.shared.macs import per_output_element")
    if fmt == "litert":
        others.append("from opbridge.frontends.litert.nodes import LiteRTNode")
    if dtype == "int8":
        fixed_point = "multiply_by_quantized_multiplier" + (
            ", quantize_multiplier" if fmt == "litert" or torch_int8 else ""
        )
        others.append(f"from opbridge.quantization.fixed_point import {fixed_point}")
    if torch is not None:
        others += [
            "from opbridge.frontends.torch.library import register_torch_op",
            "from opbridge.frontends.torch.spec import TorchOp",
        ]
    import_block = _imports(standard, others)
    quantization, quantization_doc = _quantization(dtype, fmt)
    type_constraints = f'(TypeConstraint("T", ({dtype_enum},), "{dtype}"),)'
    if torch_int8:
        type_constraints = (
            '(TypeConstraint("T", (DType.FLOAT32, DType.INT8), "float32 (the float model) or int8 (PT2E)"),)'
        )
    # The ONNX variants are leaky ReLUs (one product per element), the LiteRT ones ReLUs.
    macs, macs_doc = ("per_output_element(1)", "one MAC per element") if fmt == "onnx" else ("None", "no MACs")

    if fmt == "litert" and dtype == "int8":
        math_doc = "y = max(x, 0), int8 in, int8 out, each per-tensor quantized"
        attributes_block = ""
        attributes_arg = ""
        params = """(
        KernelParam("input_zero_point", "int32_t"),
        KernelParam("output_zero_point", "int32_t"),
        KernelParam("multiplier", "int32_t"),
        KernelParam("shift", "int32_t"),
    )"""
        params_function = '''

def kernel_params(kernel: PortableKernel, graph: Graph, node: Node) -> dict[str, int]:
    """The node's params: zero points, and the input-to-output scale as a fixed-point multiplier."""
    source, destination = graph.node_inputs(node)[0], graph.node_outputs(node)[0]
    if source is None or source.quantization is None or destination.quantization is None:
        raise PortableKernelError(
            f"{node.describe()}: {KEY} needs per-tensor quantized int8 tensors",
            hint="quantize the model's input and output of this op (int8, one scale each)",
        )
    multiplier, shift = quantize_multiplier(source.quantization.scales[0] / destination.quantization.scales[0])
    return {
        "input_zero_point": source.quantization.zero_points[0],
        "output_zero_point": destination.quantization.zero_points[0],
        "multiplier": multiplier,
        "shift": shift,
    }

'''
        kernel_extra = "\n    param_values_of=kernel_params,"
        reference = """    params = KERNEL.param_values(call.graph, call.node)
    x = call.value(0).astype(np.int32) - params["input_zero_point"]
    y = multiply_by_quantized_multiplier(np.maximum(x, 0), params["multiplier"], params["shift"])
    return [np.clip(y + params["output_zero_point"], -128, 127).astype(np.int8)]"""
    elif fmt == "litert":
        math_doc = "y = max(x, 0), float32"
        attributes_block = ""
        attributes_arg = ""
        params = "()"
        params_function = ""
        kernel_extra = ""
        reference = "    return [np.maximum(call.value(0), np.float32(0))]"
    elif torch_int8:
        math_doc = "y = x for x >= 0, else alpha * x (float32, or int8 on the input's quantization)"
        attributes_block = '''

@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes and torch arguments of the same names)."""

    alpha: float = 0.25

'''
        attributes_arg = "\n    attributes_class=Attributes,"
        params = """(
        KernelParam("alpha", "float"),
        KernelParam("zero_point", "int32_t"),
        KernelParam("alpha_multiplier", "int32_t"),
        KernelParam("alpha_shift", "int32_t"),
    )"""
        params_function = '''

def kernel_params(kernel: PortableKernel, graph: Graph, node: Node) -> dict[str, float | int]:
    """The node's params: alpha (its attribute); for int8, the zero point of the input's quantization, which
    the output shares (PT2E gives both; an int8 tensor without quantization, as an ONNX model's, has zero
    point 0), and alpha as a fixed-point multiplier and shift. The hosts read them from the node's
    attributes (op_test.py writes them there: host_model)."""
    alpha = node.attributes.alpha
    source, destination = graph.node_inputs(node)[0], graph.node_outputs(node)[0]
    zero_point = 0
    if source is not None and source.dtype is DType.INT8:
        quantization = source.quantization
        zero_point = quantization.zero_points[0] if quantization is not None else 0
        if destination.quantization != quantization:
            raise PortableKernelError(
                f"{node.describe()}: {KEY}'s int8 output must have its input's scale and zero point",
                hint="quantize it SAME_AS_INPUT (its TorchOp does), or rescale in the kernel",
            )
    if not alpha >= 0.0:  # NaN too
        raise PortableKernelError(
            f"{node.describe()}: alpha is {alpha}; it must be a number >= 0", hint="give alpha a value >= 0"
        )
    multiplier, shift = quantize_multiplier(alpha)
    return {"alpha": alpha, "zero_point": zero_point, "alpha_multiplier": multiplier, "alpha_shift": shift}

'''
        kernel_extra = "\n    param_values_of=kernel_params,"
        reference = """    x = call.value(0)
    if x.dtype == np.float32:
        return [np.where(x >= 0, x, np.float32(call.attributes.alpha) * x).astype(np.float32)]
    params = KERNEL.param_values(call.graph, call.node)
    value = x.astype(np.int32) - params["zero_point"]
    negative = multiply_by_quantized_multiplier(value, params["alpha_multiplier"], params["alpha_shift"])
    return [np.clip(np.where(value >= 0, value, negative) + params["zero_point"], -128, 127).astype(np.int8)]"""
    elif dtype == "int8":
        math_doc = "y = x for x >= 0, else x * alpha (int8; alpha as a fixed-point multiplier and shift)"
        attributes_block = '''

@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes of the same names): alpha = alpha_multiplier * 2^alpha_shift / 2^31."""

    alpha_multiplier: int = 1 << 30  # 0.5
    alpha_shift: int = -1  # alpha 0.25

'''
        attributes_arg = "\n    attributes_class=Attributes,"
        params = '(KernelParam("alpha_multiplier", "int32_t"), KernelParam("alpha_shift", "int32_t"))'
        params_function = ""
        kernel_extra = ""
        reference = """    x = call.value(0).astype(np.int32)
    attributes = call.attributes
    negative = multiply_by_quantized_multiplier(x, attributes.alpha_multiplier, attributes.alpha_shift)
    return [np.clip(np.where(x >= 0, x, negative), -128, 127).astype(np.int8)]"""
    else:
        math_doc = "y = x for x >= 0, else alpha * x (float32)"
        attributes_block = '''

@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes of the same names)."""

    alpha: float = 0.01

'''
        attributes_arg = "\n    attributes_class=Attributes,"
        params = '(KernelParam("alpha", "float"),)'
        params_function = ""
        kernel_extra = ""
        reference = """    x = call.value(0)
    return [np.where(x >= 0, x, np.float32(call.attributes.alpha) * x).astype(np.float32)]"""

    if fmt == "litert":
        front = '''

def parse(node: LiteRTNode) -> None:
    """The node's attributes from its custom options: this op takes none, so a payload is a model error."""
    if node.custom_options:
        raise ValueError(f"{CUSTOM_CODE} takes no options, got {len(node.custom_options)} bytes")
'''
        register_front = "    context.litert_parsers.register(KEY, parse)\n"
        key_lines = (
            f'CUSTOM_CODE = "{names.custom_code}"  # the models\' customCode\n'
            f'KEY = "{names.key}"  # the operator\'s key: custom_code_to_op_key(CUSTOM_CODE)'
        )
    else:
        front = ""
        register_front = ""
        key_lines = f'KEY = "{names.key}"  # the operator\'s key (the ONNX node is DOMAIN::NAME)'
    register_torch = ""
    torch_doc = ""
    registers = ("parser" if fmt == "litert" else "ONNX schema") + ", C emitter" + (", PyTorch op" if torch else "")
    if torch is not None:
        namespace, _, torch_name = torch.partition("::")
        key_lines += (
            f'\nTORCH_NAME = "{torch}"  # torch.ops.{namespace}.{torch_name}'
            '\n# The module of yours that defines TORCH_NAME with torch.library, if one does ("mylib.ops"):'
            "\n# imported first and its op adopted, so that the plugin and it load in either order. The op's"
            "\n# arguments must be the schema's: x, then the Attributes fields with their names and defaults."
            "\nDEFINED_BY = None"
        )
        register_torch = (
            "    register_torch_op(context, TorchOp(KEY, TORCH_NAME, "
            f"quantization={quantization}, defined_by=DEFINED_BY))\n"
        )
        torch_doc = (
            "\n\nIt is also the PyTorch op TORCH_NAME (docs/pytorch.md): `define_torch_ops` makes it a"
            "\ntorch.library op from the schema and the reference (or adopts yours), and `quantize_pt2e`"
            "\nwith `OpbridgeQuantizer.for_context` quantizes it as its TorchOp says."
        )

    return f'''# SPDX-License-Identifier: Apache-2.0
"""{names.camel}: {math_doc}.

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/{names.snake}_kernel.c (and its
`{names.snake}_kernel_output_shape`). `bazel test` of this package checks them
against each other.{torch_doc}
"""

{import_block}

{key_lines}
NAME = "{names.camel}"
DOMAIN = "{domain}"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"
{attributes_block}
SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="{math_doc}",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints={type_constraints},
    infer=same_as_input(0),  # the shape rule: edit with the kernel's {names.snake}_kernel_output_shape{attributes_arg}
)
{params_function}
KERNEL = PortableKernel(
    function="{names.snake}_kernel",
    header=KERNEL_DIRECTORY / "{names.snake}_kernel.h",
    sources=(KERNEL_DIRECTORY / "{names.snake}_kernel.c",),
    params={params},
    schema=SCHEMA,{kernel_extra}
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
{reference}
{front}

class {names.camel}Operator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, {registers}."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "{names.camel} (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): {macs_doc}; element by element
            # (transposes around it cancel); {quantization_doc};
            # no arena memory beyond its tensors.
            macs={macs},
            layout=Layout.ELEMENTWISE,
            quantization={quantization},
            memory=NO_MEMORY,
        )
    )
{register_front}    context.aot_operator_classes.register(KEY, {names.camel}Operator)
{register_torch}'''


def _make_model(names: OpNames, dtype: DTypeName, fmt: Format, torch: str | None = None) -> str:
    if torch is not None and dtype == "int8":
        extra_imports = []
        signature = "shape: tuple[int, ...] = SHAPE, alpha: float = 0.25"
        body = """    node = helper.make_node(NAME, ["x"], ["y"], domain=DOMAIN, name="{s}_node", alpha=alpha)"""
        drawn = """    return st.fixed_dictionaries({"alpha": st.floats(0.0, 1.0, width=32)})"""
    elif fmt == "litert" and dtype == "int8":
        extra_imports = ["from opbridge.ir import DType, Quantization"]
        signature = """
    shape: tuple[int, ...] = SHAPE,
    input_quantization: tuple[float, int] = (0.05, -3),
    output_quantization: tuple[float, int] = (0.03, -128),
"""
        body = """    builder = GraphBuilder()
    source = builder.tensor("x", DType.INT8, shape, Quantization((input_quantization[0],), (input_quantization[1],)))
    destination = builder.tensor(
        "y", DType.INT8, shape, Quantization((output_quantization[0],), (output_quantization[1],))
    )"""
        drawn = """    quantization = st.tuples(st.floats(1e-3, 1.0), st.integers(-128, 127))  # (scale, zero point)
    return st.fixed_dictionaries({"input_quantization": quantization, "output_quantization": quantization})"""
    elif fmt == "litert":
        extra_imports = ["from opbridge.ir import DType"]
        signature = "shape: tuple[int, ...] = SHAPE"
        body = """    builder = GraphBuilder()
    source = builder.tensor("x", DType.FLOAT32, shape)
    destination = builder.tensor("y", DType.FLOAT32, shape)"""
        drawn = "    return st.fixed_dictionaries({})  # none yet"
    elif dtype == "int8":
        extra_imports = []
        signature = "shape: tuple[int, ...] = SHAPE, alpha_multiplier: int = 1 << 30, alpha_shift: int = -1"
        body = """    node = helper.make_node(
        NAME,
        ["x"],
        ["y"],
        domain=DOMAIN,
        name="{s}_node",
        alpha_multiplier=alpha_multiplier,
        alpha_shift=alpha_shift,
    )"""
        drawn = """    return st.fixed_dictionaries(
        {"alpha_multiplier": st.integers(1 << 30, (1 << 31) - 1), "alpha_shift": st.integers(-8, 0)}
    )"""
    else:
        extra_imports = []
        signature = "shape: tuple[int, ...] = SHAPE, alpha: float = 0.01"
        body = """    node = helper.make_node(NAME, ["x"], ["y"], domain=DOMAIN, name="{s}_node", alpha=alpha)"""
        drawn = """    return st.fixed_dictionaries({"alpha": st.floats(-4.0, 4.0, width=32)})"""
    body = body.replace("{s}", names.snake)
    if fmt == "litert":
        imports = _imports(
            ["import pathlib", "import sys"],
            [
                "from ai_edge_litert import schema_py_generated as schema",
                "from hypothesis import strategies as st",
                *extra_imports,
                "from opbridge_testing.litert_models import single_op_model",
                "from opbridge_testing.single_op import GraphBuilder",
            ],
            (f"from {names.snake}.plugin import CUSTOM_CODE, KEY",),
        )
        what, shape, ending = (
            "a LiteRT CUSTOM node",
            "(1, 8, 8, 4)",
            f"""{body}
    graph = builder.single_node_graph(KEY, [source], [destination], None)
    return single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE)""",
        )
    else:
        element = "INT8" if dtype == "int8" else "FLOAT"
        imports = _imports(
            ["import pathlib", "import sys"],
            ["from hypothesis import strategies as st", "from onnx import TensorProto, helper"],
            (f"from {names.snake}.plugin import DOMAIN, NAME",),
        )
        what, shape, ending = (
            "an ONNX node of domain DOMAIN",
            "(1, 4, 8, 8)",
            f"""{body}
    graph = helper.make_graph(
        [node],
        "{names.snake}",
        [helper.make_tensor_value_info("x", TensorProto.{element}, shape)],
        [helper.make_tensor_value_info("y", TensorProto.{element}, shape)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()""",
        )
    signature = f"({signature})"
    return f'''# SPDX-License-Identifier: Apache-2.0
"""{names.camel}'s one-operator test model ({what}): make_model() for the tests; run as a
program, it writes the model to argv[1] (the golden test's model)."""

{imports}

SHAPE = {shape}


def make_model{signature} -> bytes:
    """x -> {names.camel} -> y; op_test draws the keyword arguments from drawn_parameters()."""
{ending}


def drawn_parameters() -> st.SearchStrategy[dict[str, object]]:
    """What op_test draws make_model's keyword arguments from: keep them to values the op accepts."""
{drawn}


if __name__ == "__main__":
    pathlib.Path(sys.argv[1]).write_bytes(make_model())
'''


def _op_test(names: OpNames, dtype: DTypeName, fmt: Format, torch: str | None = None) -> str:
    extension = "tflite" if fmt == "litert" else "onnx"
    torch_int8 = torch is not None and dtype == "int8"
    if dtype == "int8":
        values = "hnp.arrays(np.int8, shape, elements=st.integers(-128, 127))"
    else:
        values = "hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32))"
    host = "CustomOpSession, NativePlugin" if fmt == "onnx" else "NativePlugin"
    # The graph a test runs: the model's, and for an int8 PyTorch op with drawn quantization (an ONNX model
    # has none; a PT2E program gives it).
    load_graph = "load(model, data.draw(quantizations()))" if torch_int8 else "load(model)"
    plugin_names = (
        "KERNEL, KEY, SCHEMA, customize_registry" if torch is not None else "KERNEL, SCHEMA, customize_registry"
    )
    imports = _imports(
        ["import os", "import pathlib", "import tempfile"],
        [
            "import numpy as np",
            *(
                ["import onnx", "import onnxruntime as ort", "import openvino as ov", "from onnx import helper"]
                if fmt == "onnx"
                else []
            ),
            *(["import torch"] if torch is not None else []),
            "from hypothesis import given, settings",
            "from hypothesis import strategies as st",
            "from hypothesis.extra import numpy as hnp",
            f"from {names.snake}.model import drawn_parameters, make_model",
            f"from opbridge.backends.host_plugins import {host}",
            "from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs",
            "from opbridge.backends.reference import ReferenceInterpreter",
            "from opbridge.frontends.models import load_model",
            "from opbridge.ir import DType, Graph, Quantization" if torch_int8 else "from opbridge.ir import Graph",
            "from opbridge.registry import build_default_registry_context",
            f"from {names.snake}.plugin import {plugin_names}",
            *(
                [
                    "from opbridge.converter import AotConverter, ConvertArgs",
                    "from opbridge_testing.single_op import run_golden_program"
                    + (", with_float_ulp_tolerance" if dtype == "float32" else ""),
                ]
                if fmt == "onnx"
                else []
            ),
            *(
                [
                    "from opbridge.frontends.torch.library import define_torch_ops",
                    "from opbridge.frontends.torch.program import read_exported_program",
                ]
                if torch is not None
                else []
            ),
            *(
                ["from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e"]
                if torch_int8
                else []
            ),
        ],
    )
    if torch_int8:
        load_function = f'''def load(model: bytes, quantization: tuple[float, int] | None = None) -> Graph:
    """The model's graph; `quantization` (scale, zero point) on its int8 tensors, as a PT2E program gives them
    (an ONNX model carries none: its int8 values have zero point 0)."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.{extension}"
        path.write_bytes(model)
        graph = load_model(path, CONTEXT)
    if quantization is not None:
        for tensor in graph.tensors:
            if tensor.dtype is DType.INT8:
                tensor.quantization = Quantization((quantization[0],), (quantization[1],))
    return graph


def quantizations() -> st.SearchStrategy[tuple[float, int]]:
    """(scale, zero point) of the op's int8 input and output (SAME_AS_INPUT: one pair)."""
    return st.tuples(st.floats(1e-3, 1.0), st.integers(-128, 127))'''
    else:
        load_function = f"""def load(model: bytes) -> Graph:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.{extension}"
        path.write_bytes(model)
        return load_model(path, CONTEXT)"""
    if fmt == "onnx":
        reference_function = '''def reference_outputs(graph: Graph, x: np.ndarray) -> np.ndarray:
    (output,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    return output


def host_model(model: bytes, graph: Graph) -> bytes:
    """The model as onnxruntime and opbridge's native host run it: its node carries the kernel's params as
    attributes. The hosts fill each param from the node's attribute of its name, so params the plugin
    computes (KERNEL's param_values_of: from the tensors' quantization, say) are written into the node."""
    proto = onnx.load_model_from_string(model)
    (onnx_node,) = proto.graph.node
    params = KERNEL.param_values(graph, graph.nodes[0])
    kept = [attribute for attribute in onnx_node.attribute if attribute.name not in params]
    del onnx_node.attribute[:]
    onnx_node.attribute.extend([*kept, *(helper.make_attribute(name, value) for name, value in params.items())])
    return proto.SerializeToString()'''
    else:
        reference_function = """def reference_outputs(model: bytes, x: np.ndarray) -> np.ndarray:
    (output,) = ReferenceInterpreter(load(model), CONTEXT).run([x])
    return output"""
    onnx_tests = ""
    # The golden program allows float32 outputs a few ulps (libm); this kernel's math is exact, so none.
    golden_tolerance = (
        "\n        golden.write_text(with_float_ulp_tolerance(golden.read_text(), 0))  # float32: equal bits"
        if dtype == "float32"
        else ""
    )
    if fmt == "onnx":
        onnx_tests = f'''

@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_onnxruntime_with_the_generated_library_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = {load_graph}
    x = data.draw({values})
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(host_model(model, graph), options, providers=["CPUExecutionProvider"])
    (ort_output,) = session.run(None, {{"x": x}})
    np.testing.assert_array_equal(ort_output, reference_outputs(graph, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_model_in_opbridge_s_native_host_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = {load_graph}
    x = data.draw({values})
    with CustomOpSession(os.environ["OPBRIDGE_OP_PLUGIN"], host_model(model, graph), abi="opbridge") as session:
        (host_output,) = session.run([x])
    np.testing.assert_array_equal(host_output, reference_outputs(graph, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_with_the_generated_extension_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = {load_graph}
    x = data.draw({values})
    compiled = OPENVINO.compile_model(OPENVINO.read_model(host_model(model, graph)), "CPU", OPENVINO_CONFIG)
    np.testing.assert_array_equal(compiled([x])[0], reference_outputs(graph, x), strict=True)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_infers_the_output_dtype_and_shape_opbridge_infers(data: st.DataObject) -> None:
    """The model states no output shape, so each side infers it: OpenVINO with the extension's
    validate_and_infer_types (from the schema), opbridge with the schema's rule."""
    model, _ = data.draw(models())
    proto = onnx.load_model_from_string(model)
    proto.graph.output[0].type.tensor_type.ClearField("shape")
    model = proto.SerializeToString()
    graph = load(model)
    (output,) = graph.output_tensors()
    (ov_output,) = OPENVINO.read_model(host_model(model, graph)).outputs
    assert ov_output.get_element_type().to_dtype() == output.dtype.numpy, (ov_output, output)
    assert ov_output.get_partial_shape() == ov.PartialShape(list(output.shape)), (ov_output, output)


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_on_the_golden_inputs_the_emitted_c_onnxruntime_and_openvino_agree(data: st.DataObject) -> None:
    """A drawn model, converted as `opbridge convert` converts it (a self-contained module and its golden
    test program, built with the host gcc): on the program's seeded inputs the C gives the reference's
    outputs, bit for bit, and so do onnxruntime and OpenVINO."""
    model, _ = data.draw(models())
    seed = data.draw(st.integers(0, 2**31 - 1))
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.onnx"
        path.write_bytes(model)
        module, golden = pathlib.Path(folder) / "module", pathlib.Path(folder) / "golden_test.c"
        config = ConvertArgs(
            model=path,
            output_dir=module,
            prefix="{names.snake}",
            golden_test=golden,
            golden_cases=GOLDEN_CASES,
            golden_seed=seed,
        )
        AotConverter(config, registry_context=CONTEXT).convert(){golden_tolerance}
        assert "0 failures" in run_golden_program(module, golden)  # it also fails on a nonzero exit
    graph = load(model)
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(host_model(model, graph), options, providers=["CPUExecutionProvider"])
    compiled = OPENVINO.compile_model(OPENVINO.read_model(host_model(model, graph)), "CPU", OPENVINO_CONFIG)
    for x in seeded_inputs(graph.input_tensors()[0], GOLDEN_CASES, seed=seed):
        (expected,) = interpreter.run([x])
        (ort_output,) = session.run(None, {{"x": x}})
        np.testing.assert_array_equal(ort_output, expected, strict=True)
        np.testing.assert_array_equal(compiled([x])[0], expected, strict=True)
'''
    torch_tests = ""
    if torch is not None:
        torch_tests = f'''

class OneOp(torch.nn.Module):
    """A model calling the torch op TORCH_NAME (after a convolution, so that PT2E has an input to quantize)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return define_torch_ops(CONTEXT)[KEY](self.conv(x))


def test_the_torch_op_passes_opcheck_and_converts_as_eager_torch_runs_it() -> None:
    """The torch op (generated by define_torch_ops from the schema and the reference, or yours, adopted):
    torch's opcheck, then a model calling it, exported and converted, runs in opbridge's reference as in torch."""
    op = define_torch_ops(CONTEXT)[KEY]
    x = torch.randn(1, 2, 5, 3, generator=torch.Generator().manual_seed(0)) * 4
    torch.library.opcheck(op, (x,))
    torch.manual_seed(0)
    model = OneOp().eval()
    graph = read_exported_program(torch.export.export(model, (x,)), CONTEXT)
    assert "{names.key}" in [node.op_type for node in graph.nodes]
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x.numpy()])
    with torch.no_grad():
        np.testing.assert_allclose(ours, model(x).numpy(), rtol=1e-5, atol=1e-5)
'''
    if torch_int8:
        torch_tests += '''

def test_pt2e_makes_the_op_int8_with_its_params_from_the_quantization() -> None:
    """OpbridgeQuantizer quantizes the op as its TorchOp says (SAME_AS_INPUT); the converted node is int8, its
    params come from its input's quantization, and opbridge follows torch's convert_pt2e model."""
    torch.manual_seed(0)
    example = (torch.randn(1, 2, 6, 6),)
    calibration = [(torch.randn(1, 2, 6, 6) * 2,) for _ in range(8)]
    quantizer = OpbridgeQuantizer.for_context(CONTEXT)
    quantized = quantize_pt2e(OneOp().eval(), example, calibration, quantizer)
    assert quantizer.report() == "opbridge quantizer: all 2 ops are int8", quantizer.report()
    graph = read_exported_program(torch.export.export(quantized, example), CONTEXT)
    (node,) = [node for node in graph.nodes if node.op_type == KEY]
    source = graph.node_inputs(node)[0]
    assert source is not None and source.dtype is DType.INT8 and source.quantization is not None
    assert KERNEL.param_values(graph, node)["zero_point"] == source.quantization.zero_points[0]
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([example[0].numpy()])
    with torch.no_grad():
        theirs = quantized(*example).numpy()
    # TFLite Micro's fixed-point rescales (the convolution's, the slope's) round apart from torch's float
    # ones by at most a step each.
    assert np.abs(ours - theirs).max() <= 2.01 * source.quantization.scales[0]
'''
    hosts = (
        ", in onnxruntime through the generated custom-op library\n"
        f"(lib{names.snake}_ort.so) and in OpenVINO through the generated extension\n(lib{names.snake}_openvino.so)"
    )
    openvino_constants = ""
    if fmt == "onnx":
        openvino_constants = """
# One OpenVINO runtime for the module's tests, with the generated extension (custom_op's lib<name>_openvino.so);
# float32 stays float32 on every CPU (some would otherwise infer in bf16).
OPENVINO = ov.Core()
OPENVINO.add_extension(os.path.abspath(os.environ["OPBRIDGE_OP_OPENVINO_EXTENSION"]))
OPENVINO_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}"""
    torch_doc = ""
    if torch is not None:
        torch_doc = "\nAs the PyTorch op TORCH_NAME it passes torch's opcheck and converts from torch.export programs"
        torch_doc += ",\nand PT2E quantizes it to int8." if torch_int8 else "."
    return f'''# SPDX-License-Identifier: Apache-2.0
"""{names.camel}'s C kernel against its NumPy reference, on the same inputs.

The kernel runs in opbridge's native host through the generated adapter
(lib{names.snake}_plugin.so){hosts if fmt == "onnx" else ""};
the emitted module's golden test (:{names.snake}_module_golden_test) runs it
on x86_64, aarch64, Cortex-M55 and Cortex-M4.{torch_doc}
"""

{imports}

CONTEXT = build_default_registry_context(customizers=[customize_registry])
PLUGIN = NativePlugin.load(os.environ["OPBRIDGE_OP_PLUGIN"])
GOLDEN_CASES = int(os.environ["OPBRIDGE_OP_GOLDEN_CASES"])  # custom_op(golden_cases = ...){openvino_constants}


@st.composite
def models(draw: st.DrawFn) -> tuple[bytes, tuple[int, ...]]:
    """A one-operator model of a drawn shape and parameters (model.py's drawn_parameters)."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=6))
    return make_model(shape, **draw(drawn_parameters())), shape


{load_function}


{reference_function}


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_c_kernel_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = {load_graph}
    (node,) = graph.nodes
    x = data.draw({values})
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    # The host kernel takes the node's params as attributes, as the module takes them as constants.
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "{names.snake}")
    try:
        (actual,) = kernel.compute([x])
    finally:
        kernel.release()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_on_the_golden_test_s_inputs_the_host_kernel_gives_its_expected_outputs() -> None:
    """:{names.snake}_module_golden_test checks the emitted module on these inputs against these reference
    outputs on x86_64, aarch64, Cortex-M55 and Cortex-M4: the host kernel agreeing closes the triangle."""
    graph = load(pathlib.Path(os.environ["OPBRIDGE_OP_MODEL"]).read_bytes())
    (node,) = graph.nodes
    assert node.op_type == "{names.key}"
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "{names.snake}")
    try:
        for x in seeded_inputs(graph.input_tensors()[0], GOLDEN_CASES, seed=DEFAULT_SEED):
            (expected,) = interpreter.run([x])
            (actual,) = kernel.compute([x])
            np.testing.assert_array_equal(actual, expected)
    finally:
        kernel.release()
{onnx_tests}{torch_tests}'''


def _build(names: OpNames, fmt: Format, load_label: str, torch: str | None = None) -> str:
    torch_deps = (
        '\n    test_deps = ["@torch_packages//:torch"],  # op_test.py runs the PyTorch op' if torch is not None else ""
    )
    return f'''# SPDX-License-Identifier: Apache-2.0
# {names.camel}, a custom operator (docs/custom_ops.md): `bazel test //<this package>/...`
# checks its C kernel against its reference on the host, in the emitted module
# on x86_64, aarch64, Cortex-M55 and Cortex-M4{", in onnxruntime and in OpenVINO" if fmt == "onnx" else ""}.
load("{load_label}", "custom_op")

custom_op(
    name = "{names.snake}",
    key = "{names.key}",
    model_format = "{fmt}",
    plugin = "{names.snake}.plugin",{torch_deps}
)
'''


def scaffold_files(
    name: str, fmt: Format, dtype: DTypeName | None = None, domain: str | None = None,
    custom_code: str | None = None, load_label: str = "//toolchains:custom_op.bzl", torch: str | None = None,
) -> dict[str, str]:  # fmt: skip
    """The package's files by relative path. The domain defaults to com.example.<name>, one per op, so
    several scaffolded ops load together (in opbridge and in one onnxruntime session).

    `torch`: the op is also a PyTorch op of that qualified name ("mylib::soft_threshold"; "" for
    "<the domain's last part>::<name>"), declared with register_torch_op; a torch.library op of that
    name that exists already is adopted (docs/pytorch.md)."""
    if fmt not in ("litert", "onnx"):
        raise ScaffoldError(f"format {fmt!r} is not one of litert, onnx")
    dtype = dtype or ("int8" if fmt == "litert" else "float32")
    if dtype not in ("int8", "float32"):
        raise ScaffoldError(f"dtype {dtype!r} is not one of int8, float32")
    names = OpNames.of(name)
    if custom_code is not None:
        if fmt != "litert":
            raise ScaffoldError("--custom-code is for LiteRT operators", hint="an ONNX op is DOMAIN::NAME")
        names = names.with_custom_code(custom_code)
    domain = domain or f"com.example.{names.snake}"
    if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*", domain):
        raise ScaffoldError(f"domain {domain!r} is not a dotted lower-case name", hint="e.g. com.example.audio")
    if torch is not None:
        if fmt != "onnx":
            raise ScaffoldError(
                "--torch is for --format onnx operators",
                hint="a PyTorch op's attributes are its ONNX node's: scaffold it with --format onnx --torch",
            )
        torch = torch or f"{domain.rsplit('.', 1)[-1]}::{names.snake}"
        namespace, separator, torch_name = torch.partition("::")
        if not separator or not IDENTIFIER.fullmatch(namespace) or not IDENTIFIER.fullmatch(torch_name):
            raise ScaffoldError(
                f"--torch {torch!r} is not a torch qualified name",
                hint="write it namespace::name: mylib::soft_threshold",
            )
        if namespace in RESERVED_NAMESPACES:
            raise ScaffoldError(
                f"--torch {torch!r}: namespace {namespace!r} belongs to torch",
                hint=f"use a namespace of your own; reserved: {', '.join(sorted(RESERVED_NAMESPACES))}",
            )
    s = names.snake
    return {
        "BUILD.bazel": _build(names, fmt, load_label, torch),
        f"{s}/__init__.py": f'# SPDX-License-Identifier: Apache-2.0\n"""The {names.camel} plugin: {s}.plugin."""\n',
        f"{s}/plugin.py": _plugin(names, dtype, fmt, domain, torch),
        f"{s}/kernel/{s}_kernel.h": _header(names, dtype, fmt, torch),
        f"{s}/kernel/{s}_kernel.c": _kernel(names, dtype, fmt, torch),
        f"{s}/model.py": _make_model(names, dtype, fmt, torch),
        "op_test.py": _op_test(names, dtype, fmt, torch),
    }


def bazel_package(directory: pathlib.Path) -> str | None:
    """`//path/to/dir` for a folder inside a Bazel workspace, else None."""
    directory = directory.resolve()
    for root in [directory, *directory.parents]:
        if any((root / marker).is_file() for marker in ("WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel")):
            return "//" + directory.relative_to(root).as_posix()
    return None


def write_scaffold(directory: pathlib.Path, files: dict[str, str]) -> list[pathlib.Path]:
    """Writes the package into `directory` (new or empty), all or nothing."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise ScaffoldError(
            f"{directory} exists and is not an empty folder", hint="choose a new folder with -o, or remove it"
        )
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    try:
        for relative, text in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
        if directory.exists():
            directory.rmdir()
        os.replace(staging, directory)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [directory / relative for relative in files]
