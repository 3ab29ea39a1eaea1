# SPDX-License-Identifier: Apache-2.0
"""Host adapters of a PortableKernel, generated as C++17 sources.

`opbridge_plugin_adapter(kernel)` makes the kernel a plugin of opbridge's
native host (cc/plugin/opbridge_plugin.h); `ort_adapter(kernel)` makes it an
ONNX Runtime custom-op library (onnxruntime_c_api.h, `RegisterCustomOps`).
Both register the op under its schema's domain, name and since_version,
read each param from the node's attribute of the same name (float params
from float attributes, int32_t params from int attributes), ask the kernel's
`<function>_output_shape` for each output, and call the kernel. Nothing in
them is op-specific beyond those facts, so they are generated, never edited:
`opbridge kernel-adapters KEY --plugin MODULE --opbridge-abi X.cc --ort-abi Y.cc`
(the Bazel macro `custom_op` in toolchains/custom_op.bzl runs it).
"""

import difflib
import itertools
import pathlib
from typing import TYPE_CHECKING

from opbridge.aot.portable_kernel import PortableKernel, PortableKernelError
from opbridge.backends.c.emit_context import GENERATED_NOTICE
from opbridge.ir import DType
from opbridge.ir.onnx_dtypes import ONNX_NUMBERS

if TYPE_CHECKING:
    from opbridge.registry_context import RegistryContext

# ONNXTensorElementDataType names (onnxruntime_c_api.h), by DType.
_ORT_TYPES = {
    DType.FLOAT32: "ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT",
    DType.UINT8: "ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8",
    DType.INT8: "ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8",
    DType.INT16: "ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16",
    DType.INT32: "ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32",
}


def _type_vars(kernel: PortableKernel) -> tuple[list[str], list[str]]:
    schema = kernel.schema
    return [p.type_var for p in schema.inputs], [p.type_var for p in schema.outputs]


def dtype_combinations(kernel: PortableKernel) -> list[tuple[tuple[DType, ...], tuple[DType, ...]]]:
    """Every (input dtypes, output dtypes) the schema allows: one ORT op each (ORT picks ops by type)."""
    allowed = {c.type_var: c.allowed for c in kernel.schema.type_constraints}
    inputs, outputs = _type_vars(kernel)
    variables = list(dict.fromkeys(inputs + outputs))
    combinations = []
    for choice in itertools.product(*(allowed[v] for v in variables)):
        chosen = dict(zip(variables, choice, strict=True))
        combinations.append((tuple(chosen[v] for v in inputs), tuple(chosen[v] for v in outputs)))
    if len(combinations) > 64:
        raise PortableKernelError(
            f"{kernel.schema.describe()}: {len(combinations)} dtype combinations; the adapters serve at most 64",
            hint="narrow the schema's type constraints",
        )
    return combinations


def _header_lines(kernel: PortableKernel, what: str) -> str:
    return f"""// {GENERATED_NOTICE}
// {what} of the portable kernel {kernel.function}() ({kernel.header.name}), for
// {kernel.schema.describe()}. Regenerate it with `opbridge kernel-adapters`; do not edit.
"""


def _read_params(kernel: PortableKernel, context: str, fail: str) -> str:
    """C++ statements filling `params` from the node's attributes (ReadNumber/ReadInteger of the adapter,
    called with `context`); a missing attribute takes the schema's default, else `fail` ({message}) returns."""
    defaults = {spec.name: spec.default for spec in kernel.schema.attributes if not spec.required}
    op = f"{kernel.schema.name} ({kernel.schema.domain})"
    lines = []
    for param in kernel.params:
        quoted = '\\"' + param.name + '\\"'
        kind = "float" if param.ctype == "float" else "int"
        missing = fail.format(
            message=f'"{op}: the node lacks the {kind} attribute {quoted} its kernel needs; add it to the node"'
        )
        if param.name in defaults:
            default = defaults[param.name]
            otherwise = f"value = {float(default)!r};" if kind == "float" else f"value = {int(default)};"
            otherwise += "  // the schema's default"
        else:
            otherwise = f"return {missing};"
        if kind == "float":
            outside = fail.format(message=f'"{op}: attribute {quoted} is outside float32"')
            lines.append(
                f"""  {{
    double value = 0.0;
    if (!ReadNumber({context}, "{param.name}", &value)) {{
      {otherwise}
    }}
    if (!(value >= -FLT_MAX && value <= FLT_MAX)) return {outside};
    params->{param.name} = static_cast<float>(value);
  }}"""
            )
        else:
            outside = fail.format(message=f'"{op}: attribute {quoted} is outside int32"')
            lines.append(
                f"""  {{
    int64_t value = 0;
    if (!ReadInteger({context}, "{param.name}", &value)) {{
      {otherwise}
    }}
    if (value < INT32_MIN || value > INT32_MAX) return {outside};
    params->{param.name} = static_cast<int32_t>(value);
  }}"""
            )
    return "\n".join(lines)


def _shape_helpers() -> str:
    return """// The kernel's output shape as a host's int64 dims; false when a dim is negative or the size above int32.
bool ToHostDims(const opbridge_kernel_shape_t& shape, int64_t* dims, int32_t* count) {
  int64_t elements = 1;
  for (int32_t d = 0; d < shape.rank; ++d) {
    if (shape.dims[d] < 0) return false;
    dims[d] = shape.dims[d];
    elements *= dims[d];
    if (elements > INT32_MAX) return false;
  }
  *count = static_cast<int32_t>(elements);
  return true;
}

// int64 dims of a host -> the kernel's shape; false when the rank or a dim does not fit.
bool ToKernelShape(const int64_t* dims, size_t rank, opbridge_kernel_shape_t* shape, int32_t* count) {
  if (rank > OPBRIDGE_KERNEL_MAX_RANK) return false;
  int64_t elements = 1;
  shape->rank = static_cast<int32_t>(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] < 0 || dims[i] > INT32_MAX) return false;
    shape->dims[i] = static_cast<int32_t>(dims[i]);
    elements *= dims[i];
    if (elements > INT32_MAX) return false;
  }
  *count = static_cast<int32_t>(elements);
  return true;
}
"""


def opbridge_plugin_adapter(kernel: PortableKernel) -> str:
    """A plugin of opbridge's native host (cc/plugin/opbridge_plugin.h) around the kernel."""
    schema = kernel.schema
    inputs, outputs = _type_vars(kernel)
    allowed = {c.type_var: c.allowed for c in schema.type_constraints}

    def mask(type_var: str) -> str:
        return " | ".join(f"OPBRIDGE_DTYPE_BIT({ONNX_NUMBERS[d]})" for d in allowed[type_var])

    # An output's dtype: the first input's of the same type variable, else its one allowed type.
    output_dtypes = []
    for position, type_var in enumerate(outputs):
        if type_var in inputs:
            output_dtypes.append(f"views[{inputs.index(type_var)}].dtype")
        elif len(allowed[type_var]) == 1:
            output_dtypes.append(str(ONNX_NUMBERS[allowed[type_var][0]]))
        else:
            raise PortableKernelError(
                f"{schema.describe()}: output {position}'s type {type_var} is neither an input's nor one dtype",
                hint="the host adapters take an output's dtype from an input of the same type variable",
            )
    n_in, n_out = len(inputs), len(outputs)
    input_masks = ", ".join(mask(v) for v in inputs)
    output_masks = ", ".join(mask(v) for v in outputs)
    output_dtype_cases = "\n".join(f"    case {i}: return {d};" for i, d in enumerate(output_dtypes))
    params = _read_params(
        kernel, "host, info", "Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, {message}, params)"
    )
    name = schema.name
    return f"""{_header_lines(kernel, "opbridge native-host plugin (cc/plugin/opbridge_plugin.h)")}#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>

#include "cc/plugin/opbridge_plugin.h"
#include "{kernel.header.name}"

namespace {{

using Params = {kernel.params_type};

int32_t Fail(const OpbridgeHostApi* host, OpbridgeStatus* status, int32_t code, const char* message,
             Params* params = nullptr) {{
  delete params;
  host->set_error(status, code, message);
  return code;
}}

// A float attribute, or an int one (ONNX exporters write 2 for 2.0); false when the node lacks it.
[[maybe_unused]] bool ReadNumber(const OpbridgeHostApi* host, const OpbridgeKernelInfo* info, const char* name,
                                 double* value) {{
  if (host->attribute_float(info, name, value) == 0) return true;
  int64_t integer = 0;
  if (host->attribute_int(info, name, &integer) != 0) return false;
  *value = static_cast<double>(integer);
  return true;
}}

[[maybe_unused]] bool ReadInteger(const OpbridgeHostApi* host, const OpbridgeKernelInfo* info, const char* name,
                                  int64_t* value) {{
  return host->attribute_int(info, name, value) == 0;
}}

{_shape_helpers()}
int32_t Create(const OpbridgeHostApi* host, const OpbridgeKernelInfo* info, void** kernel, OpbridgeStatus* status) {{
  Params* params = new (std::nothrow) Params();
  if (params == nullptr) return Fail(host, status, OPBRIDGE_PLUGIN_FAILED, "{name}: out of memory");
  (void)info;
{params}
  *kernel = params;
  return OPBRIDGE_PLUGIN_OK;
}}

int32_t OutputDtype(const OpbridgeTensorView* views, int32_t index) {{
  (void)views;
  switch (index) {{
{output_dtype_cases}
    default: return 0;
  }}
}}

int32_t Compute(const OpbridgeHostApi* host, void* kernel, OpbridgeKernelContext* context, OpbridgeStatus* status) {{
  const Params* params = static_cast<const Params*>(kernel);
  if (host->input_count(context) != {n_in} || host->output_count(context) != {n_out}) {{
    return Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "{name} takes {n_in} input(s) and {n_out} output(s)");
  }}
  OpbridgeTensorView views[{n_in}];
  opbridge_kernel_input_t inputs[{n_in}];
  for (int32_t i = 0; i < {n_in}; ++i) {{
    if (host->input(context, i, &views[i]) != 0) {{
      return Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "{name}: an input is missing");
    }}
    inputs[i].dtype = views[i].dtype;
    inputs[i].data = views[i].data;
    const size_t rank = static_cast<size_t>(views[i].rank);
    if (!ToKernelShape(views[i].shape, rank, &inputs[i].shape, &inputs[i].element_count)) {{
      return Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT,
                  "{name}: an input's rank is above OPBRIDGE_KERNEL_MAX_RANK or its size above int32");
    }}
  }}
  opbridge_kernel_output_t outputs[{n_out}];
  for (int32_t i = 0; i < {n_out}; ++i) {{
    opbridge_kernel_shape_t shape = {{}};
    const int32_t shape_status = {kernel.shape_function}(params, inputs, {n_in}, i, &shape);
    if (shape_status != OPBRIDGE_KERNEL_OK || shape.rank < 0 || shape.rank > OPBRIDGE_KERNEL_MAX_RANK) {{
      char message[128];
      std::snprintf(message, sizeof message, "{name}: {kernel.shape_function} failed for output %d (status %d)",
                    static_cast<int>(i), static_cast<int>(shape_status));
      return Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, message);
    }}
    int64_t dims[OPBRIDGE_KERNEL_MAX_RANK];
    int32_t count = 0;
    if (!ToHostDims(shape, dims, &count)) {{
      return Fail(host, status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT,
                  "{name}: {kernel.shape_function} gave a negative dim or a size above int32");
    }}
    void* data = nullptr;
    const int32_t dtype = OutputDtype(views, i);
    if (host->allocate_output(context, i, dtype, dims, shape.rank, &data) != 0) {{
      return Fail(host, status, OPBRIDGE_PLUGIN_FAILED, "{name}: cannot allocate an output");
    }}
    outputs[i].dtype = dtype;
    outputs[i].shape = shape;
    outputs[i].element_count = count;
    outputs[i].data = data;
  }}
  const int32_t result = {kernel.function}(params, inputs, {n_in}, outputs, {n_out});
  if (result != OPBRIDGE_KERNEL_OK) {{
    char message[96];
    std::snprintf(message, sizeof message, "{name}: {kernel.function} returned status %d", static_cast<int>(result));
    return Fail(host, status, OPBRIDGE_PLUGIN_FAILED, message);
  }}
  return OPBRIDGE_PLUGIN_OK;
}}

void Destroy(void* kernel) {{ delete static_cast<Params*>(kernel); }}

const uint32_t kInputTypes[] = {{{input_masks}}};
const uint32_t kOutputTypes[] = {{{output_masks}}};

const OpbridgeOpDef kOps[] = {{
    {{"{schema.domain}", "{name}", {schema.since_version}, {n_in}, kInputTypes, {n_out}, kOutputTypes, Create, Compute,
     Destroy}},
}};

const OpbridgePluginOpTable kTable = OPBRIDGE_PLUGIN_OP_TABLE(kOps);

}}  // namespace

extern "C" __attribute__((visibility("default"))) const OpbridgePluginOpTable* opbridge_plugin_get_ops(
    uint32_t host_api_version) {{
  return host_api_version >= 1 ? &kTable : nullptr;
}}
"""


def ort_adapter(kernel: PortableKernel) -> str:
    """An ONNX Runtime custom-op library (the C API only) around the kernel: one op per dtype combination."""
    schema = kernel.schema
    name = schema.name
    combinations = dtype_combinations(kernel)
    n_in, n_out = len(schema.inputs), len(schema.outputs)
    params = _read_params(kernel, "api, info", "Fail(api, ORT_INVALID_ARGUMENT, {message}, params)")
    ops = []
    for index, (input_dtypes, output_dtypes) in enumerate(combinations):
        in_types = ", ".join(_ORT_TYPES[d] for d in input_dtypes)
        out_types = ", ".join(_ORT_TYPES[d] for d in output_dtypes)
        out_numbers = ", ".join(str(ONNX_NUMBERS[d]) for d in output_dtypes)
        ops.append(
            f"const ONNXTensorElementDataType kInputs{index}[] = {{{in_types}}};\n"
            f"const ONNXTensorElementDataType kOutputs{index}[] = {{{out_types}}};\n"
            f"const int32_t kOutputNumbers{index}[] = {{{out_numbers}}};\n"
            f"Op op{index}(kInputs{index}, kOutputs{index}, kOutputNumbers{index});"
        )
    op_list = ", ".join(f"&op{i}" for i in range(len(combinations)))
    return f"""{_header_lines(kernel, "ONNX Runtime custom-op library (onnxruntime_c_api.h)")}#include <cfloat>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <new>
#include <vector>

#include "{kernel.header.name}"
#include "onnxruntime_c_api.h"

#define OPBRIDGE_TEXT(x) #x
#define OPBRIDGE_EXPANDED_TEXT(x) OPBRIDGE_TEXT(x)
#define ORT_API_VERSION_TEXT OPBRIDGE_EXPANDED_TEXT(ORT_API_VERSION)

namespace {{

using Params = {kernel.params_type};

struct Kernel {{
  const OrtApi* api;
  Params params;
  const int32_t* output_numbers;
}};

OrtStatus* Fail(const OrtApi* api, OrtErrorCode code, const char* message, Params* params = nullptr) {{
  delete params;
  return api->CreateStatus(code, message);
}}

// A float attribute, or an int one (ONNX exporters write 2 for 2.0); false when the node lacks it.
[[maybe_unused]] bool ReadNumber(const OrtApi* api, const OrtKernelInfo* info, const char* name, double* value) {{
  float single = 0.0f;
  OrtStatus* status = api->KernelInfoGetAttribute_float(info, name, &single);
  if (status == nullptr) {{
    *value = single;
    return true;
  }}
  api->ReleaseStatus(status);
  int64_t integer = 0;
  status = api->KernelInfoGetAttribute_int64(info, name, &integer);
  if (status == nullptr) {{
    *value = static_cast<double>(integer);
    return true;
  }}
  api->ReleaseStatus(status);
  return false;
}}

[[maybe_unused]] bool ReadInteger(const OrtApi* api, const OrtKernelInfo* info, const char* name, int64_t* value) {{
  OrtStatus* status = api->KernelInfoGetAttribute_int64(info, name, value);
  if (status == nullptr) return true;
  api->ReleaseStatus(status);
  return false;
}}

{_shape_helpers()}
struct Op : OrtCustomOp {{
  const ONNXTensorElementDataType* input_types;
  const ONNXTensorElementDataType* output_types;
  const int32_t* output_numbers;

  Op(const ONNXTensorElementDataType* inputs, const ONNXTensorElementDataType* outputs, const int32_t* numbers)
      : OrtCustomOp{{}}, input_types(inputs), output_types(outputs), output_numbers(numbers) {{
    version = ORT_API_VERSION;
    GetName = [](const OrtCustomOp*) {{ return "{name}"; }};
    GetExecutionProviderType = [](const OrtCustomOp*) {{ return "CPUExecutionProvider"; }};
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t {{ return {n_in}; }};
    GetInputType = [](const OrtCustomOp* op, size_t i) {{ return static_cast<const Op*>(op)->input_types[i]; }};
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t {{ return {n_out}; }};
    GetOutputType = [](const OrtCustomOp* op, size_t i) {{ return static_cast<const Op*>(op)->output_types[i]; }};
    GetInputCharacteristic = [](const OrtCustomOp*, size_t) {{ return INPUT_OUTPUT_REQUIRED; }};
    GetOutputCharacteristic = [](const OrtCustomOp*, size_t) {{ return INPUT_OUTPUT_REQUIRED; }};
    GetInputMemoryType = [](const OrtCustomOp*, size_t) {{ return OrtMemTypeDefault; }};
    GetVariadicInputMinArity = [](const OrtCustomOp*) {{ return 1; }};
    GetVariadicInputHomogeneity = [](const OrtCustomOp*) {{ return 1; }};
    GetVariadicOutputMinArity = [](const OrtCustomOp*) {{ return 1; }};
    GetVariadicOutputHomogeneity = [](const OrtCustomOp*) {{ return 1; }};
    GetStartVersion = [](const OrtCustomOp*) {{ return {schema.since_version}; }};
    // Every later version of the domain too, as opbridge selects the newest schema not above the import.
    GetEndVersion = [](const OrtCustomOp*) {{ return INT_MAX; }};
    CreateKernelV2 = Create;
    KernelComputeV2 = Compute;
    KernelDestroy = [](void* kernel) {{ delete static_cast<Kernel*>(kernel); }};
  }}

  static OrtStatus* ORT_API_CALL Create(const OrtCustomOp* op, const OrtApi* api, const OrtKernelInfo* info,
                                        void** kernel) noexcept {{
    Params* params = new (std::nothrow) Params();
    if (params == nullptr) return Fail(api, ORT_FAIL, "{name}: out of memory");
    (void)info;
{params}
    Kernel* made = new (std::nothrow) Kernel{{api, *params, static_cast<const Op*>(op)->output_numbers}};
    delete params;
    if (made == nullptr) return Fail(api, ORT_FAIL, "{name}: out of memory");
    *kernel = made;
    return nullptr;
  }}

  static OrtStatus* ORT_API_CALL Compute(void* opaque, OrtKernelContext* context) noexcept {{
    const Kernel& kernel = *static_cast<Kernel*>(opaque);
    const OrtApi* api = kernel.api;
    opbridge_kernel_input_t inputs[{n_in}];
    for (size_t i = 0; i < {n_in}; ++i) {{
      const OrtValue* value = nullptr;
      if (OrtStatus* status = api->KernelContext_GetInput(context, i, &value)) return status;
      OrtTensorTypeAndShapeInfo* info = nullptr;
      if (OrtStatus* status = api->GetTensorTypeAndShape(value, &info)) return status;
      size_t rank = 0;
      int64_t dims[OPBRIDGE_KERNEL_MAX_RANK];
      ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
      OrtStatus* status = api->GetDimensionsCount(info, &rank);
      if (status == nullptr && rank > OPBRIDGE_KERNEL_MAX_RANK) {{
        status = Fail(api, ORT_INVALID_ARGUMENT, "{name}: an input's rank is above OPBRIDGE_KERNEL_MAX_RANK");
      }}
      if (status == nullptr) status = api->GetDimensions(info, dims, rank);
      if (status == nullptr) status = api->GetTensorElementType(info, &type);
      api->ReleaseTensorTypeAndShapeInfo(info);
      if (status != nullptr) return status;
      if (!ToKernelShape(dims, rank, &inputs[i].shape, &inputs[i].element_count)) {{
        return Fail(api, ORT_INVALID_ARGUMENT, "{name}: an input's size is above int32");
      }}
      void* data = nullptr;
      if ((status = api->GetTensorMutableData(const_cast<OrtValue*>(value), &data))) return status;
      inputs[i].dtype = static_cast<int32_t>(type);  // ORT numbers element types as ONNX does
      inputs[i].data = data;
    }}
    opbridge_kernel_output_t outputs[{n_out}];
    for (size_t i = 0; i < {n_out}; ++i) {{
      opbridge_kernel_shape_t shape = {{}};
      const int32_t index = static_cast<int32_t>(i);
      const int32_t shape_status = {kernel.shape_function}(&kernel.params, inputs, {n_in}, index, &shape);
      if (shape_status != OPBRIDGE_KERNEL_OK || shape.rank < 0 || shape.rank > OPBRIDGE_KERNEL_MAX_RANK) {{
        return Fail(api, ORT_INVALID_ARGUMENT, "{name}: {kernel.shape_function} failed");
      }}
      int64_t dims[OPBRIDGE_KERNEL_MAX_RANK];
      int32_t count = 0;
      if (!ToHostDims(shape, dims, &count)) {{
        return Fail(api, ORT_INVALID_ARGUMENT,
                    "{name}: {kernel.shape_function} gave a negative dim or a size above int32");
      }}
      OrtValue* value = nullptr;
      const size_t rank = static_cast<size_t>(shape.rank);
      if (OrtStatus* status = api->KernelContext_GetOutput(context, i, dims, rank, &value)) {{
        return status;
      }}
      void* data = nullptr;
      if (OrtStatus* status = api->GetTensorMutableData(value, &data)) return status;
      outputs[i].dtype = kernel.output_numbers[i];
      outputs[i].shape = shape;
      outputs[i].element_count = count;
      outputs[i].data = data;
    }}
    const int32_t result = {kernel.function}(&kernel.params, inputs, {n_in}, outputs, {n_out});
    if (result != OPBRIDGE_KERNEL_OK) {{
      char message[96];
      std::snprintf(message, sizeof message, "{name}: {kernel.function} returned status %d", static_cast<int>(result));
      return Fail(api, ORT_FAIL, message);
    }}
    return nullptr;
  }}
}};

{chr(10).join(ops)}

// The domains this library created; ORT requires them to outlive every session
// using them, so they are released only when the library unloads.
struct Domains {{
  std::mutex mutex;
  const OrtApi* api = nullptr;
  std::vector<OrtCustomOpDomain*> list;
  ~Domains() {{
    for (OrtCustomOpDomain* domain : list) api->ReleaseCustomOpDomain(domain);
  }}
}} domains;

}}  // namespace

extern "C" __attribute__((visibility("default"))) OrtStatus* ORT_API_CALL RegisterCustomOps(
    OrtSessionOptions* options, const OrtApiBase* api_base) {{
  const OrtApi* api = api_base->GetApi(ORT_API_VERSION);
  if (api == nullptr) {{  // an older runtime: say so through the API every version has
    return api_base->GetApi(1)->CreateStatus(
        ORT_FAIL, "{name}: this library needs ONNX Runtime C API version " ORT_API_VERSION_TEXT " or later");
  }}
  std::lock_guard<std::mutex> lock(domains.mutex);
  OrtCustomOpDomain* domain = nullptr;
  if (OrtStatus* status = api->CreateCustomOpDomain("{schema.domain}", &domain)) return status;
  domains.api = api;
  try {{
    domains.list.push_back(domain);
  }} catch (...) {{
    api->ReleaseCustomOpDomain(domain);
    return api->CreateStatus(ORT_FAIL, "{name}: out of memory");
  }}
  for (const OrtCustomOp* op : {{{op_list}}}) {{
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, op)) return status;
  }}
  return api->AddCustomOpDomain(options, domain);
}}
"""


def portable_kernel_of(context: "RegistryContext", key: str) -> PortableKernel:
    """The PortableKernel of the operator class registered under `key`."""
    from opbridge.aot.portable_kernel import PortableKernelOperator

    if key not in context.aot_operator_classes:
        keys = sorted(context.aot_operator_classes)
        near = difflib.get_close_matches(key, keys, n=1)
        raise PortableKernelError(
            f"no operator class is registered under {key!r}" + (f"; did you mean {near[0]!r}?" if near else ""),
            hint="pass the plugin that registers it (--plugin MODULE); `opbridge plugins list` shows the keys",
        )
    operator_class = context.aot_operator_classes.get(key)
    if not (isinstance(operator_class, type) and issubclass(operator_class, PortableKernelOperator)):
        raise PortableKernelError(
            f"the operator class of {key!r} ({operator_class.__module__}.{operator_class.__qualname__}) "
            "is not a PortableKernelOperator",
            hint="host adapters exist only for kernels written against opbridge_kernel_api.h (docs/custom_ops.md)",
        )
    return operator_class.KERNEL


def write_adapters(
    context: "RegistryContext", key: str, opbridge_abi: pathlib.Path | None, ort_abi: pathlib.Path | None
) -> list[pathlib.Path]:
    """Writes the requested adapters of the operator `key`'s kernel; returns their paths."""
    kernel = portable_kernel_of(context, key)
    texts = [(path, make(kernel)) for path, make in ((opbridge_abi, opbridge_plugin_adapter), (ort_abi, ort_adapter))]
    written = []
    for path, text in texts:  # all generated before any is written: nothing half-written on an error
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
            written.append(path)
    return written
