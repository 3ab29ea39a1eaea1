# SPDX-License-Identifier: Apache-2.0
"""A PortableKernel as an OpenVINO extension, generated as one C++17 source.

`openvino_extension(kernel)` writes the library that `ov.Core().add_extension(path)`
loads (OpenVINO's operation contract, ../shared/seeds 002):

- an `ov::op::Op` subclass with the schema's type info (name, and
  `<domain>:<since_version>` as its version id), the kernel's params as its
  attributes (`visit_attributes`, the schema's defaults in a new node),
  `validate_and_infer_types` and `clone_with_new_inputs`, and `evaluate`
  calling the kernel: the same C source as the module and the other hosts;
- the ONNX frontend's conversion of a node of the schema's domain and name
  into it, reading each param from the node's attribute of the same name
  (as the ONNX Runtime and native-host adapters do, with their messages; an
  attribute of another type, a string or a list, is refused);
- `create_extensions`, which first checks that the runtime calling it is the
  libopenvino it links, of the release whose headers it was compiled with.

`evaluate` checks the tensors' dtypes again (a caller may pass others than the
validated ones; the kernel trusts what it is given), and the params are
checked finite in `validate_and_infer_types` too (the IR reader sets them
without the frontend's checks).

The output dtypes and shapes agree with opbridge's inference by construction:
dtypes from the schema's type constraints; shapes from the schema's rule where
it is declarative (`same_as_input`: written here in C++, so dynamic dims stay
dynamic), otherwise from the kernel's own `<function>_output_shape`, the one C
shape function every host calls (it is given shapes, dtypes and params; its
inputs' data are NULL here, as validate_and_infer_types runs before data exist;
with dynamic input dims, standing in as 1, it gives only the outputs' ranks,
or nothing when it refuses the stand-ins).
`evaluate` checks the kernel's shape against the validated one, so a shape
function that disagrees with a declarative rule is named, not run past.
"""

import math
import re

from opbridge.aot.portable_adapters import (
    generated_header,
    output_dtype_sources,
    read_params_code,
    shape_helpers_code,
    type_vars,
)
from opbridge.aot.portable_kernel import PortableKernel, PortableKernelError, c_float
from opbridge.ir import DType
from opbridge.schemas.schema import SameAsInput

# ov::element types, by DType (the dtypes the portable kernel interface numbers).
_OV_TYPES = {
    DType.FLOAT32: "ov::element::f32",
    DType.UINT8: "ov::element::u8",
    DType.INT8: "ov::element::i8",
    DType.INT16: "ov::element::i16",
    DType.INT32: "ov::element::i32",
}


def _class_name(name: str) -> str:
    """A C++ identifier for the op's class, from its ONNX name; the suffix keeps it apart from the
    library's helpers (an op named Convert or Params)."""
    return re.sub(r"\W", "_", name) + "Operation"


def _shape_rule(kernel: PortableKernel) -> str:
    """C++ filling `shapes` (one PartialShape per output) in validate_and_infer_types."""
    rule = kernel.schema.infer
    if isinstance(rule, SameAsInput) and len(kernel.schema.outputs) == 1:
        return f"""    // The schema's rule is declarative: same_as_input({rule.position}).
    shapes[0] = get_input_partial_shape({rule.position});"""
    n_in = len(kernel.schema.inputs)
    return f"""    // The schema's rule is Python code: the kernel's C shape function (every host's) gives the shapes
    // once the inputs' shapes and dtypes are known. With dynamic dims (standing in as 1) it gives the
    // outputs' ranks only, their dims stay dynamic; evaluate checks the shapes it gives against them.
    opbridge_kernel_input_t views[{n_in}] = {{}};
    bool ranked = true;
    bool known = true;
    for (size_t i = 0; i < {n_in} && ranked; ++i) {{
      const ov::PartialShape& shape = get_input_partial_shape(i);
      ranked = shape.rank().is_static() && get_input_element_type(i).is_static();
      if (!ranked) break;
      known = known && shape.is_static();
      ov::Shape dims(shape.size(), 1);
      for (size_t d = 0; d < dims.size(); ++d) {{
        if (shape[d].is_static()) dims[d] = static_cast<size_t>(shape[d].get_length());
      }}
      NODE_VALIDATION_CHECK(this, KernelInput(get_input_element_type(i), dims, nullptr, &views[i]), kOp, ": input ",
                            i, " (", kInputNames[i], ") of shape ", shape,
                            " has a rank above OPBRIDGE_KERNEL_MAX_RANK or a size above int32");
    }}
    for (size_t i = 0; i < {len(kernel.schema.outputs)} && ranked; ++i) {{
      ov::Shape shape;
      const int32_t status = OutputShape(params_, views, static_cast<int32_t>(i), &shape);
      if (known) {{
        NODE_VALIDATION_CHECK(this, status == OPBRIDGE_KERNEL_OK, kOp, ": {kernel.shape_function} refused output ",
                              i, " (status ", status, ") for the input shapes ", InputShapes(this),
                              " and the attributes ", ParamsText(params_),
                              ": the kernel cannot serve them; the op's schema says what it accepts");
        shapes[i] = shape;
      }} else if (status == OPBRIDGE_KERNEL_OK) {{
        shapes[i] = ov::PartialShape::dynamic(ov::Rank(static_cast<int64_t>(shape.size())));
      }}
    }}"""


def openvino_extension(kernel: PortableKernel) -> str:
    """An OpenVINO extension library (C++17, OpenVINO's C++ API) around the kernel."""
    schema = kernel.schema
    name = schema.name
    inputs, outputs = type_vars(kernel)
    output_dtype_sources(kernel)  # refuses an output whose dtype no input and no single dtype decides
    n_in, n_out = len(inputs), len(outputs)
    variables = list(dict.fromkeys(inputs + outputs))
    # Every dtype is one of _OV_TYPES: PortableKernel refuses the others (KERNEL_DTYPES).
    allowed = {c.type_var: c.allowed for c in schema.type_constraints}
    variable_rows = ",\n".join(
        f'    {{"{v}", "{", ".join(d.value for d in allowed[v])}", {{{", ".join(_OV_TYPES[d] for d in allowed[v])}}}}}'
        for v in variables
    )
    input_variables = ", ".join(str(variables.index(v)) for v in inputs)
    output_variables = ", ".join(str(variables.index(v)) for v in outputs)
    input_names = ", ".join(f'"{p.name}"' for p in schema.inputs)
    cls = _class_name(name)
    version_id = f"{schema.domain}:{schema.since_version}"
    defaults = {spec.name: spec.default for spec in schema.attributes if not spec.required}
    default_lines = []
    for param in kernel.params:
        if param.name in defaults and defaults[param.name] is not None:
            value = defaults[param.name]
            if param.ctype == "float" and not math.isfinite(float(value)):
                raise PortableKernelError(
                    f"{schema.describe()}: the default of {param.name!r} is {value}, which no host can read",
                    hint="give the attribute a finite default",
                )
            literal = c_float(float(value)) if param.ctype == "float" else str(int(value))
            default_lines.append(f"  params.{param.name} = {literal};  // the schema's default")
    params_text = "\n".join(
        f'  text << "{" " if i else ""}{p.name}=" << params.{p.name};' for i, p in enumerate(kernel.params)
    )
    finite_checks = "\n".join(
        f"  if (!std::isfinite(params.{p.name})) {{\n"
        f'    return std::string(kOp) + ": attribute \\"{p.name}\\" is " + std::to_string(params.{p.name}) +\n'
        f'           ", outside float32: give it a finite value";\n'
        "  }"
        for p in kernel.params
        if p.ctype == "float"
    )
    visits = "\n".join(f'    visitor.on_attribute("{p.name}", params_.{p.name});' for p in kernel.params)
    read = read_params_code(kernel, "node", "Fail({message})")
    return f"""{generated_header(kernel, "OpenVINO extension (ov::op::Op, ONNX frontend conversion)")}#include <dlfcn.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "{kernel.header.name}"
#include "openvino/core/extension.hpp"
#include "openvino/core/op_extension.hpp"
#include "openvino/core/version.hpp"
#include "openvino/frontend/node_context.hpp"
#include "openvino/frontend/onnx/extension/conversion.hpp"
#include "openvino/op/op.hpp"

#define OPBRIDGE_TEXT(x) #x
#define OPBRIDGE_EXPANDED_TEXT(x) OPBRIDGE_TEXT(x)
// The OpenVINO release whose headers (and libopenvino) this library is compiled against.
#ifndef OPBRIDGE_OPENVINO_BUILT_FOR
#define OPBRIDGE_OPENVINO_BUILT_FOR                                                                      \\
  OPBRIDGE_EXPANDED_TEXT(OPENVINO_VERSION_MAJOR) "." OPBRIDGE_EXPANDED_TEXT(OPENVINO_VERSION_MINOR) "." \\
      OPBRIDGE_EXPANDED_TEXT(OPENVINO_VERSION_PATCH)
#endif

namespace {{

using Params = {kernel.params_type};

constexpr char kOp[] = "{name} ({schema.domain})";

[[noreturn]] void Fail(const std::string& message) {{ OPENVINO_THROW(message); }}

// The schema's type variables: each one's dtypes (opbridge's names, OpenVINO's types).
struct TypeVariable {{
  const char* name;
  const char* allowed_names;
  std::vector<ov::element::Type> allowed;
}};

const TypeVariable kTypeVariables[] = {{
{variable_rows},
}};
constexpr size_t kTypeVariableCount = {len(variables)};
const size_t kInputTypeVariable[{n_in}] = {{{input_variables}}};
const size_t kOutputTypeVariable[{n_out}] = {{{output_variables}}};
const char* const kInputNames[{n_in}] = {{{input_names}}};

bool IsAllowed(const TypeVariable& variable, const ov::element::Type& type) {{
  for (const ov::element::Type& allowed : variable.allowed) {{
    if (allowed == type) return true;
  }}
  return false;
}}

// A dtype as opbridge names it (float32 for f32), else OpenVINO's name.
std::string DTypeName(const ov::element::Type& type) {{
  if (type == ov::element::f32) return "float32";
  if (type == ov::element::u8) return "uint8";
  if (type == ov::element::i8) return "int8";
  if (type == ov::element::i16) return "int16";
  if (type == ov::element::i32) return "int32";
  return type.get_type_name();
}}

// Each type variable's dtype from the inputs' types (dynamic ones skipped): "" or what is wrong, naming the fix.
std::string ChooseTypes(const ov::element::Type* types, ov::element::Type* chosen) {{
  for (size_t i = 0; i < {n_in}; ++i) {{
    if (types[i].is_dynamic()) continue;
    const size_t v = kInputTypeVariable[i];
    const TypeVariable& variable = kTypeVariables[v];
    std::ostringstream problem;
    if (!IsAllowed(variable, types[i])) {{
      problem << kOp << ": input " << i << " (" << kInputNames[i] << ") is " << DTypeName(types[i])
              << "; the schema allows " << variable.allowed_names << " (type " << variable.name
              << "): convert the input before the op, or widen the schema's type constraint and the kernel";
      return problem.str();
    }}
    if (!chosen[v].is_dynamic() && chosen[v] != types[i]) {{
      problem << kOp << ": input " << i << " (" << kInputNames[i] << ") is " << DTypeName(types[i])
              << " but an earlier input of type " << variable.name << " is " << DTypeName(chosen[v])
              << "; inputs of one type variable share a dtype";
      return problem.str();
    }}
    chosen[v] = types[i];
  }}
  return "";
}}

// Output `index`'s dtype: its type variable's, from the inputs, or the variable's one dtype.
ov::element::Type OutputType(const ov::element::Type* chosen, size_t index) {{
  const TypeVariable& variable = kTypeVariables[kOutputTypeVariable[index]];
  const ov::element::Type type = chosen[kOutputTypeVariable[index]];
  return type.is_dynamic() && variable.allowed.size() == 1 ? variable.allowed[0] : type;
}}

// The kernel interface's dtype number (ONNX's) of an OpenVINO type; 0 for the ones it does not serve.
int32_t KernelDtype(const ov::element::Type& type) {{
  if (type == ov::element::f32) return OPBRIDGE_KERNEL_FLOAT32;
  if (type == ov::element::u8) return OPBRIDGE_KERNEL_UINT8;
  if (type == ov::element::i8) return OPBRIDGE_KERNEL_INT8;
  if (type == ov::element::i16) return OPBRIDGE_KERNEL_INT16;
  if (type == ov::element::i32) return OPBRIDGE_KERNEL_INT32;
  return 0;
}}

{shape_helpers_code()}
// An OpenVINO shape as the kernel's; false when the rank or the size does not fit.
bool ToKernelShape(const ov::Shape& shape, opbridge_kernel_shape_t* result, int32_t* count) {{
  int64_t dims[OPBRIDGE_KERNEL_MAX_RANK] = {{}};
  if (shape.size() > OPBRIDGE_KERNEL_MAX_RANK) return false;
  for (size_t d = 0; d < shape.size(); ++d) {{
    if (shape[d] > static_cast<size_t>(INT32_MAX)) return false;
    dims[d] = static_cast<int64_t>(shape[d]);
  }}
  return ToKernelShape(dims, shape.size(), result, count);
}}

// A tensor's type, shape and data as the kernel's input; false when the rank or the size does not fit.
bool KernelInput(const ov::element::Type& type, const ov::Shape& shape, const void* data,
                 opbridge_kernel_input_t* input) {{
  input->dtype = KernelDtype(type);
  input->data = data;
  return ToKernelShape(shape, &input->shape, &input->element_count);
}}

// Output `index`'s shape from the kernel's shape function; its status (an invalid shape is INVALID_ARGUMENT).
int32_t OutputShape(const Params& params, const opbridge_kernel_input_t* inputs, int32_t index, ov::Shape* shape) {{
  opbridge_kernel_shape_t result = {{}};
  const int32_t status = {kernel.shape_function}(&params, inputs, {n_in}, index, &result);
  if (status != OPBRIDGE_KERNEL_OK) return status;
  if (result.rank < 0 || result.rank > OPBRIDGE_KERNEL_MAX_RANK) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  int64_t dims[OPBRIDGE_KERNEL_MAX_RANK] = {{}};
  int32_t count = 0;
  if (!ToHostDims(result, dims, &count)) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  shape->assign(dims, dims + result.rank);
  return OPBRIDGE_KERNEL_OK;
}}

// The params as `name=value` pairs, for messages.
[[maybe_unused]] std::string ParamsText(const Params& params) {{
  std::ostringstream text;
  (void)params;
{params_text}
  return text.str().empty() ? "(none)" : text.str();
}}

// "" when every float param is finite, else which is not (as the frontend's reading refuses it).
std::string ParamsProblem(const Params& params) {{
  (void)params;
{finite_checks}
  return "";
}}

// A node's input shapes, for messages.
[[maybe_unused]] std::string InputShapes(const ov::Node* node) {{
  std::ostringstream text;
  for (size_t i = 0; i < node->get_input_size(); ++i) text << (i > 0 ? ", " : "") << node->get_input_partial_shape(i);
  return text.str();
}}

// A new node's params: the schema's defaults (the IR reader then visits the stored attributes).
Params DefaultParams() {{
  Params params = {{}};
{chr(10).join(default_lines)}
  return params;
}}

class {cls} : public ov::op::Op {{
 public:
  OPENVINO_OP("{name}", "{version_id}");

  {cls}() = default;
  {cls}(const ov::OutputVector& inputs, const Params& params) : Op(inputs), params_(params) {{
    constructor_validate_and_infer_types();
  }}

  void validate_and_infer_types() override {{
    NODE_VALIDATION_CHECK(this, get_input_size() == {n_in}, kOp, " takes {n_in} input(s), not ", get_input_size());
    ov::element::Type types[{n_in}];
    for (size_t i = 0; i < {n_in}; ++i) types[i] = get_input_element_type(i);
    ov::element::Type chosen[kTypeVariableCount];
    const std::string type_problem = ChooseTypes(types, chosen);
    NODE_VALIDATION_CHECK(this, type_problem.empty(), type_problem);
    for (size_t i = 0; i < {n_in}; ++i) {{
      const ov::Rank rank = get_input_partial_shape(i).rank();
      NODE_VALIDATION_CHECK(this, rank.is_dynamic() || rank.get_length() <= OPBRIDGE_KERNEL_MAX_RANK, kOp, ": input ",
                            i, " (", kInputNames[i], ") has rank ", rank,
                            "; the kernel interface serves ranks up to OPBRIDGE_KERNEL_MAX_RANK (8)");
    }}
    // The IR reader and set_attribute give params without the frontend's checks: check them here too.
    const std::string param_problem = ParamsProblem(params_);
    NODE_VALIDATION_CHECK(this, param_problem.empty(), param_problem);
    std::vector<ov::PartialShape> shapes({n_out}, ov::PartialShape::dynamic());
{_shape_rule(kernel)}
    for (size_t i = 0; i < {n_out}; ++i) set_output_type(i, OutputType(chosen, i), shapes[i]);
  }}

  std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& inputs) const override {{
    check_new_args_count(this, inputs);
    return std::make_shared<{cls}>(inputs, params_);
  }}

  bool visit_attributes(ov::AttributeVisitor& visitor) override {{
    (void)visitor;  // a kernel without params has no attributes
{visits}
    return true;
  }}

  bool has_evaluate() const override {{
    for (size_t i = 0; i < get_input_size(); ++i) {{
      if (i >= {n_in} || !IsAllowed(kTypeVariables[kInputTypeVariable[i]], get_input_element_type(i))) return false;
    }}
    return true;
  }}

  bool evaluate(ov::TensorVector& outputs, const ov::TensorVector& inputs) const override {{
    // The tensors' types are checked again: a caller may pass others than the validated ones, and the
    // kernel trusts the dtypes it is given.
    OPENVINO_ASSERT(inputs.size() == {n_in}, kOp, " takes {n_in} input(s), got ", inputs.size());
    ov::element::Type types[{n_in}];
    for (size_t i = 0; i < {n_in}; ++i) types[i] = inputs[i].get_element_type();
    ov::element::Type chosen[kTypeVariableCount];
    const std::string type_problem = ChooseTypes(types, chosen);
    OPENVINO_ASSERT(type_problem.empty(), type_problem);
    opbridge_kernel_input_t views[{n_in}] = {{}};
    std::ostringstream input_shapes;
    for (size_t i = 0; i < {n_in}; ++i) {{
      OPENVINO_ASSERT(inputs[i].is_continuous(), kOp, ": input ", i, " (", kInputNames[i], ") is not contiguous");
      OPENVINO_ASSERT(KernelInput(inputs[i].get_element_type(), inputs[i].get_shape(), inputs[i].data(), &views[i]),
                      kOp, ": input ", i, " (", kInputNames[i], ") of shape ", inputs[i].get_shape(),
                      " has a rank above OPBRIDGE_KERNEL_MAX_RANK or a size above int32");
      input_shapes << (i > 0 ? ", " : "") << inputs[i].get_shape();
    }}
    outputs.resize({n_out});
    opbridge_kernel_output_t results[{n_out}] = {{}};
    for (size_t i = 0; i < {n_out}; ++i) {{
      ov::Shape shape;
      const int32_t status = OutputShape(params_, views, static_cast<int32_t>(i), &shape);
      OPENVINO_ASSERT(status == OPBRIDGE_KERNEL_OK, kOp, ": {kernel.shape_function} refused output ", i,
                      " (status ", status, ") for the input shapes ", input_shapes.str(), " and the attributes ",
                      ParamsText(params_), ": the kernel cannot serve them; the op's schema says what it accepts");
      OPENVINO_ASSERT(get_output_partial_shape(i).compatible(shape), kOp, ": {kernel.shape_function} gives ",
                      shape, " for output ", i, " but the schema's rule gives ", get_output_partial_shape(i),
                      "; make the kernel's shape function agree with the schema");
      const ov::element::Type type = OutputType(chosen, i);
      if (!outputs[i]) {{
        outputs[i] = ov::Tensor(type, shape);
      }} else {{
        OPENVINO_ASSERT(outputs[i].get_element_type() == type, kOp, ": output ", i, " is given as ",
                        DTypeName(outputs[i].get_element_type()), " but the inputs make it ", DTypeName(type));
        outputs[i].set_shape(shape);
        OPENVINO_ASSERT(outputs[i].is_continuous(), kOp, ": output ", i, " is not contiguous");
      }}
      results[i].dtype = KernelDtype(type);
      ToKernelShape(shape, &results[i].shape, &results[i].element_count);  // OutputShape checked it fits
      results[i].data = outputs[i].data();
    }}
    const int32_t result = {kernel.function}(&params_, views, {n_in}, results, {n_out});
    OPENVINO_ASSERT(result == OPBRIDGE_KERNEL_OK, kOp, ": {kernel.function} returned status ", result);
    return true;
  }}

 private:
  Params params_ = DefaultParams();
}};

// A float attribute, or an int one (ONNX exporters write 2 for 2.0); false when the node lacks it.
// An attribute of another type (a string, a list) is refused, as opbridge refuses it, not taken as absent.
[[maybe_unused]] bool ReadNumber(const ov::frontend::NodeContext& node, const char* name, double* value) {{
  const ov::Any any = node.get_attribute_as_any(name);
  if (any.empty()) return false;
  if (any.is<float>()) {{
    *value = any.as<float>();
  }} else if (any.is<double>()) {{
    *value = any.as<double>();
  }} else if (any.is<int64_t>()) {{
    *value = static_cast<double>(any.as<int64_t>());
  }} else {{
    Fail(std::string(kOp) + ": attribute \\"" + name + "\\" is not a number; the kernel takes a float: give the node "
         "a float attribute of that name");
  }}
  return true;
}}

[[maybe_unused]] bool ReadInteger(const ov::frontend::NodeContext& node, const char* name, int64_t* value) {{
  const ov::Any any = node.get_attribute_as_any(name);
  if (any.empty()) return false;
  if (!any.is<int64_t>()) {{
    Fail(std::string(kOp) + ": attribute \\"" + name + "\\" is not an integer; the kernel takes an int32: give the "
         "node an int attribute of that name");
  }}
  *value = any.as<int64_t>();
  return true;
}}

// The node's attributes -> the kernel's params, as the other hosts read them (and with their messages).
void ReadParams(const ov::frontend::NodeContext& node, Params* params) {{
  (void)node;  // a kernel without params reads nothing
  (void)params;
{read}
}}

// The ONNX frontend's conversion of a {schema.domain} {name} node.
ov::OutputVector Convert(const ov::frontend::NodeContext& node) {{
  if (node.get_input_size() != {n_in}) {{
    Fail(std::string(kOp) + ": the node has " + std::to_string(node.get_input_size()) +
         " input(s); the op takes {n_in}");
  }}
  Params params = DefaultParams();
  ReadParams(node, &params);
  ov::OutputVector inputs;
  for (size_t i = 0; i < {n_in}; ++i) inputs.push_back(node.get_input(static_cast<int>(i)));
  return std::make_shared<{cls}>(inputs, params)->outputs();
}}

// The library must run with the OpenVINO runtime it links, of the release whose headers it was compiled
// with: `caller` (the code that called create_extensions) must lie in that runtime. An extension built
// against another install would otherwise mix two runtimes' objects (and a mismatched header/library
// pair, two releases' layouts).
void CheckRuntime(const void* caller) {{
  const std::string fix =
      "; rebuild the extension against the runtime that loads it (`opbridge kernel-adapters KEY "
      "--openvino-extension FILE.cpp`, compiled with that release's headers and linked to its libopenvino; in "
      "this repository: pin openvino==<release> in third_party/python/requirements.in and build "
      ":lib<name>_openvino.so again)";
  Dl_info linked = {{}};
  Dl_info loader = {{}};
  if (dladdr(reinterpret_cast<void*>(&ov::get_openvino_version), &linked) != 0 && dladdr(caller, &loader) != 0 &&
      linked.dli_fbase != loader.dli_fbase) {{
    Fail(std::string(kOp) + ": this OpenVINO extension links " + (linked.dli_fname ? linked.dli_fname : "?") +
         " (OpenVINO " OPBRIDGE_OPENVINO_BUILT_FOR ") but is loaded by " +
         (loader.dli_fname ? loader.dli_fname : "?") + ", not by that runtime" + fix);
  }}
  const char* build = ov::get_openvino_version().buildNumber;
  std::string runtime = build != nullptr ? build : "";
  runtime = runtime.substr(0, runtime.find('-'));
  if (runtime != OPBRIDGE_OPENVINO_BUILT_FOR) {{
    Fail(std::string(kOp) + ": this OpenVINO extension was built for OpenVINO " OPBRIDGE_OPENVINO_BUILT_FOR
         " (its headers), but the runtime loading it is OpenVINO " + runtime + fix);
  }}
}}

}}  // namespace

OPENVINO_EXTENSION_C_API void OV_CREATE_EXTENSION(std::vector<ov::Extension::Ptr>& extensions) {{
  CheckRuntime(__builtin_return_address(0));
  extensions = {{
      std::make_shared<ov::OpExtension<{cls}>>(),
      std::make_shared<ov::frontend::onnx::ConversionExtension>("{name}", "{schema.domain}", Convert),
  }};
}}
"""
