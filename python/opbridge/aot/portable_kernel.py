# SPDX-License-Identifier: Apache-2.0
"""One C kernel per custom operator, for every place opbridge runs it.

A `PortableKernel` describes a kernel written against
cc/kernels/opbridge_kernel_api.h: its C function, header and sources, the
scalars of its const params struct, and the operator's schema (domain, name,
version, dtypes). `PortableKernelOperator` emits a module node that calls it;
`opbridge.aot.portable_adapters` generates the adapters that make the same
source a plugin of opbridge's native host and an ONNX Runtime custom-op
library, and `opbridge.aot.openvino_extension` an OpenVINO extension
(docs/custom_ops.md, "One kernel, four hosts").

The params are computed once per node, by `PortableKernel.param_values`
(by default: the node's attributes of the same names). The module gets them
as a `static const` struct; the hosts read them from the node's attributes,
so a test passes `param_values(...)` as the attributes of the host kernel.
"""

import dataclasses
import math
import pathlib
import re
from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

import numpy as np

from opbridge.aot.operators import NodeCodeOperator
from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.errors import OperatorPluginError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.onnx_dtypes import ONNX_NUMBERS
from opbridge.schemas.schema import OpSchema, ParameterOption

KERNEL_API_HEADER = "cc/kernels/opbridge_kernel_api.h"
MAX_RANK = 8  # OPBRIDGE_KERNEL_MAX_RANK
# The element types the interface numbers (opbridge_kernel_api.h).
KERNEL_DTYPES = (DType.FLOAT32, DType.UINT8, DType.INT8, DType.INT16, DType.INT32)
ParamType = Literal["float", "int32_t"]
ParamValue = float | int
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INT32 = (-(2**31), 2**31 - 1)


class PortableKernelError(OperatorPluginError):
    """A PortableKernel that cannot be served: bad names, types, or param values."""


@dataclasses.dataclass(frozen=True)
class KernelParam:
    """One scalar of the kernel's params struct: `<ctype> <name>;`."""

    name: str
    ctype: ParamType
    doc: str = ""


def _attribute_values(kernel: "PortableKernel", graph: Graph, node: Node) -> Mapping[str, ParamValue]:
    """The default params: the node's attributes of the same names."""
    del graph
    values = {}
    for param in kernel.params:
        if not hasattr(node.attributes, param.name):
            raise PortableKernelError(
                f"{node.describe()}: the kernel {kernel.function} takes param {param.name!r}, "
                "which the node's attributes do not have",
                hint="give the PortableKernel a param_values function that computes it from the node",
            )
        values[param.name] = getattr(node.attributes, param.name)
    return values


@dataclasses.dataclass(frozen=True)
class PortableKernel:
    """A custom operator's kernel, written once against opbridge_kernel_api.h.

    function: the C function (`int32_t function(const function_params_t *, inputs, n, outputs, m)`);
        `function_output_shape` gives output shapes to the hosts that allocate them.
    header: the header declaring both and `function_params_t`, beside `sources`.
    params: the params struct's scalars, in declaration order.
    schema: the operator's schema; the host adapters register the op under its
        domain, name and since_version, for its dtypes.
    param_values: the params of one node (default: its attributes of the same names).
    """

    function: str
    header: pathlib.Path
    sources: tuple[pathlib.Path, ...]
    params: tuple[KernelParam, ...]
    schema: OpSchema
    param_values_of: Callable[["PortableKernel", Graph, Node], Mapping[str, ParamValue]] = _attribute_values

    def __post_init__(self) -> None:
        where = f"PortableKernel {self.function!r}"
        if not _IDENTIFIER.match(self.function):
            raise PortableKernelError(
                f"{where}: the function name is not a C identifier", hint="use letters, digits and '_' (my_op_kernel)"
            )
        names = [param.name for param in self.params]
        for param in self.params:
            if not _IDENTIFIER.match(param.name):
                raise PortableKernelError(f"{where}: param {param.name!r} is not a C identifier")
            if param.ctype not in ("float", "int32_t"):
                raise PortableKernelError(
                    f"{where}: param {param.name!r} has C type {param.ctype!r}",
                    hint='params are scalars: "float" or "int32_t" (compute tables in the kernel, or per element)',
                )
        if len(set(names)) != len(names):
            raise PortableKernelError(f"{where}: params repeat a name: {names}")
        if not self.schema.inputs or not self.schema.outputs:
            raise PortableKernelError(
                f"{where}: {self.schema.name} has {len(self.schema.inputs)} input(s) and "
                f"{len(self.schema.outputs)} output(s)",
                hint="a portable kernel takes at least one input and gives at least one output",
            )
        for kind, parameters in (("input", self.schema.inputs), ("output", self.schema.outputs)):
            for parameter in parameters:
                if parameter.option is not ParameterOption.SINGLE:
                    raise PortableKernelError(
                        f"{where}: {kind} {parameter.name!r} of {self.schema.name} is {parameter.option.name.lower()}",
                        hint="a portable kernel takes a fixed number of inputs and outputs",
                    )
        for constraint in self.schema.type_constraints:
            unsupported = [d.value for d in constraint.allowed if d not in KERNEL_DTYPES]
            if unsupported:
                raise PortableKernelError(
                    f"{where}: type {constraint.type_var} of {self.schema.name} allows {unsupported}",
                    hint=f"the kernel interface numbers {[d.value for d in KERNEL_DTYPES]}",
                )

    @property
    def params_type(self) -> str:
        return f"{self.function}_params_t"

    @property
    def shape_function(self) -> str:
        return f"{self.function}_output_shape"

    def files(self) -> list[pathlib.Path]:
        """The kernel's files, header included, for a module (kernel_sources())."""
        return [*self.sources, self.header]

    def param_values(self, graph: Graph, node: Node) -> dict[str, ParamValue]:
        """The params of one node, checked against their C types."""
        values = dict(self.param_values_of(self, graph, node))
        expected = [param.name for param in self.params]
        if sorted(values) != sorted(expected):
            raise PortableKernelError(
                f"{node.describe()}: the params of {self.function} are {sorted(values)}, expected {sorted(expected)}",
                hint="return exactly the params the PortableKernel declares",
            )
        checked: dict[str, ParamValue] = {}
        for param in self.params:
            value = values[param.name]
            if param.ctype == "float":
                as_float = float(np.float32(value))
                if not math.isfinite(as_float):
                    raise PortableKernelError(
                        f"{node.describe()}: param {param.name} = {value} is not a finite float32"
                    )
                checked[param.name] = as_float
            else:
                if (isinstance(value, float) and not value.is_integer()) or not _INT32[0] <= int(value) <= _INT32[1]:
                    raise PortableKernelError(f"{node.describe()}: param {param.name} = {value} is not an int32")
                checked[param.name] = int(value)
        return checked


def c_float(value: float) -> str:
    """An exact C99 literal of a float32 (hexadecimal, so no decimal rounding)."""
    return f"{float(np.float32(value)).hex()}f"


def c_param_value(param: KernelParam, value: ParamValue) -> str:
    if param.ctype == "float":
        return c_float(float(value))
    return f"(int32_t)({int(value)})" if int(value) == _INT32[0] else str(int(value))


class PortableKernelOperator(NodeCodeOperator):
    """A node that calls its PortableKernel: set TYPE and KERNEL.

    The emitted node fills the kernel's input and output structs (planned
    pointers, static shapes), its params as a `static const` struct, and
    returns the kernel's own code n as <PREFIX>_STATUS_CUSTOM_FIRST + n.
    """

    KERNEL: ClassVar[PortableKernel]

    def on_resolve(self) -> None:
        kernel = self.KERNEL
        where = f"{self.node.describe()} ({type(self).__name__})"
        for kind, tensors in (("input", self.input_tensors), ("output", self.output_tensors)):
            for position, tensor in enumerate(tensors):
                if tensor is None:
                    raise PortableKernelError(
                        f"{where}: {kind} {position} is omitted; the kernel takes every input",
                        hint="give the node every input its schema lists",
                    )
                if tensor.dtype not in KERNEL_DTYPES:
                    raise PortableKernelError(
                        f"{where}: {kind} {position} is {tensor.dtype.value}, which the kernel interface lacks",
                        hint=f"the interface numbers {', '.join(d.value for d in KERNEL_DTYPES)}; convert the model",
                    )
                if len(tensor.shape) > MAX_RANK:
                    raise PortableKernelError(
                        f"{where}: {kind} {position} has rank {len(tensor.shape)} > {MAX_RANK}",
                        hint=f"reshape to at most {MAX_RANK} dimensions before this node",
                    )
        header = kernel.header.name
        p = self.prefix
        if header in (f"{p}.h", f"{p}_common.h", f"{p}_constants.h") or header.startswith(f"{p}_node_"):
            raise PortableKernelError(
                f"{where}: the kernel's header {header} would be shadowed by the module's own headers "
                f"({p}.h, {p}_common.h, {p}_constants.h, {p}_node_*.h)",
                hint="convert with another prefix, or rename the kernel's files",
            )
        kernel.param_values(self.graph, self.node)  # checked now, not at emission

    def kernel_sources(self) -> list[pathlib.Path]:
        return self.KERNEL.files()

    def emit_node_code(self, context: EmitContext) -> NodeCode:
        kernel = self.KERNEL
        p = self.prefix
        values = kernel.param_values(self.graph, self.node)
        params_name = f"{p}_{self.name}_params"
        fields = ", ".join(f".{param.name} = {c_param_value(param, values[param.name])}" for param in kernel.params)
        header = kernel.header.name
        # Without the kernel in the build, say so here, not as a compiler's "No such file or directory".
        node = re.sub(r"[^A-Za-z0-9 _.,:()'-]", "_", self.node.describe().replace('"', "'"))
        guarded_include = (
            f'#if defined(__has_include)\n#if !__has_include("{header}")\n'
            f'#error "{node} calls {kernel.function}() of {header}, which this build lacks: link the '
            "plugin's kernel library (aot_model(kernel_deps = [...])) or convert with its kernels bundled "
            '(no --no-bundle-kernels)"\n#endif\n#endif\n'
            f'#include "{header}"'
        )
        definitions = [
            guarded_include,
            f"static const {kernel.params_type} {params_name} = {{{fields}}};"
            if kernel.params
            else f"static const {kernel.params_type} {params_name} = {{0}};",
        ]

        def entry(tensor_index: int, const: bool) -> str:
            tensor = self.graph.tensors[tensor_index]
            dims = ", ".join(str(d) for d in tensor.shape) or "0"
            pointer = context.pointer(tensor_index)
            pointer = f"(const void *){pointer}" if const else f"(void *){pointer}"
            count = int(np.prod(tensor.shape, dtype=np.int64))
            return f"{{{ONNX_NUMBERS[tensor.dtype]}, {{{len(tensor.shape)}, {{{dims}}}}}, {count}, {pointer}}}"

        inputs = [i for i in self.node.inputs if i is not None]
        outputs = list(self.node.outputs)
        input_entries = ",\n      ".join(entry(i, True) for i in inputs)
        output_entries = ",\n      ".join(entry(i, False) for i in outputs)
        statements = [
            f"const opbridge_kernel_input_t inputs[{len(inputs)}] = {{\n      {input_entries}}};",
            f"const opbridge_kernel_output_t outputs[{len(outputs)}] = {{\n      {output_entries}}};",
            f"const int32_t kernel_status = {kernel.function}(&{params_name}, inputs, {len(inputs)}, outputs, "
            f"{len(outputs)});",
            "if (kernel_status != OPBRIDGE_KERNEL_OK) {",
            f"  status = {p.upper()}_STATUS_CUSTOM_FIRST + (kernel_status > 0 && kernel_status <= "
            f"OPBRIDGE_KERNEL_STATUS_LAST ? kernel_status : OPBRIDGE_KERNEL_STATUS_LAST);",
            "}",
        ]
        return NodeCode(includes=[KERNEL_API_HEADER], definitions=definitions, statements=statements)
