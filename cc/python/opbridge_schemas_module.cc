// SPDX-License-Identifier: Apache-2.0
// The pybind11 module `_opbridge_schemas`: the operator-schema host
// (cc/plugin/schema_host.h) for opbridge.schema_libraries. Python
// code should use that module; this one is its thin, checked boundary.
//
// A loaded library's domains and schemas cross as plain Python data (dicts,
// lists, tuples; dtypes as ONNX numbers, attribute types as "int", "float",
// "string", "ints", "floats", "strings"). `infer` calls a schema's inference
// callback with inputs as (present, dtype, shape) and attributes as
// (name, type, value), and returns [(dtype, shape)] for the outputs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "cc/plugin/schema_host.h"

namespace py = pybind11;
using opbridge::plugin::Attributes;
using opbridge::plugin::AttributeSpec;
using opbridge::plugin::AttributeTypeName;
using opbridge::plugin::AttributeTypeOf;
using opbridge::plugin::AttributeValue;
using opbridge::plugin::InferInput;
using opbridge::plugin::InferOutput;
using opbridge::plugin::ParameterSpec;
using opbridge::plugin::SchemaLibrary;
using opbridge::plugin::SchemaSpec;

namespace {

using InputIn = std::tuple<bool, int32_t, std::vector<int64_t>>;
using OutputOut = std::tuple<int32_t, std::vector<int64_t>>;
using AttributeList = std::vector<std::tuple<std::string, std::string, py::object>>;

const char* OptionName(int32_t option) {
  switch (option) {
    case OPBRIDGE_PARAMETER_OPTIONAL:
      return "optional";
    case OPBRIDGE_PARAMETER_VARIADIC:
      return "variadic";
    default:
      return "single";
  }
}

py::object ValueObject(const AttributeValue& value) {
  return std::visit([](const auto& held) -> py::object { return py::cast(held); }, value);
}

py::list Parameters(const std::vector<ParameterSpec>& parameters) {
  py::list list;
  for (const ParameterSpec& parameter : parameters) {
    list.append(py::dict(py::arg("name") = parameter.name, py::arg("type_var") = parameter.type_var,
                         py::arg("doc") = parameter.doc, py::arg("option") = OptionName(parameter.option)));
  }
  return list;
}

py::dict SchemaObject(const SchemaSpec& schema) {
  py::list constraints;
  for (const auto& constraint : schema.type_constraints) {
    constraints.append(py::dict(py::arg("type_var") = constraint.type_var, py::arg("allowed") = constraint.allowed,
                                py::arg("doc") = constraint.doc));
  }
  py::list attributes;
  for (const AttributeSpec& attribute : schema.attributes) {
    attributes.append(py::dict(py::arg("name") = attribute.name, py::arg("type") = AttributeTypeName(attribute.type),
                               py::arg("required") = !attribute.default_value.has_value(),
                               py::arg("default") = attribute.default_value ? ValueObject(*attribute.default_value)
                                                                            : py::none(),
                               py::arg("doc") = attribute.doc));
  }
  py::object body = py::none();
  if (schema.function_body) {
    py::list nodes;
    for (const auto& node : schema.function_body->nodes) {
      py::list node_attributes;
      for (const auto& [name, value] : node.attributes) {
        node_attributes.append(py::make_tuple(name, AttributeTypeName(AttributeTypeOf(value)), ValueObject(value)));
      }
      nodes.append(py::dict(py::arg("op_type") = node.op_type, py::arg("domain") = node.domain,
                            py::arg("inputs") = node.inputs, py::arg("outputs") = node.outputs,
                            py::arg("attributes") = node_attributes));
    }
    body = py::dict(py::arg("nodes") = nodes, py::arg("opset_imports") = schema.function_body->opset_imports);
  }
  return py::dict(py::arg("domain") = schema.domain, py::arg("name") = schema.name,
                  py::arg("since_version") = schema.since_version, py::arg("doc") = schema.doc,
                  py::arg("inputs") = Parameters(schema.inputs), py::arg("outputs") = Parameters(schema.outputs),
                  py::arg("type_constraints") = constraints, py::arg("attributes") = attributes,
                  py::arg("function_body") = body);
}

// [(name, type, value)] -> Attributes; each type one of AttributeTypeName's.
Attributes ToAttributes(const AttributeList& values) {
  Attributes attributes;
  for (const auto& [name, type, value] : values) {
    try {
      if (type == "int") {
        attributes[name] = py::cast<int64_t>(value);
      } else if (type == "float") {
        attributes[name] = py::cast<double>(value);
      } else if (type == "string") {
        attributes[name] = py::cast<std::string>(value);
      } else if (type == "ints") {
        attributes[name] = py::cast<std::vector<int64_t>>(value);
      } else if (type == "floats") {
        attributes[name] = py::cast<std::vector<double>>(value);
      } else if (type == "strings") {
        attributes[name] = py::cast<std::vector<std::string>>(value);
      } else {
        throw py::value_error("attribute \"" + name + "\" has unknown type \"" + type + "\"");
      }
    } catch (const py::cast_error&) {
      throw py::value_error("attribute \"" + name + "\" is not a valid " + type + " value");
    }
  }
  return attributes;
}

}  // namespace

PYBIND11_MODULE(_opbridge_schemas, module) {
  module.doc() = "opbridge's operator-schema library host (use opbridge.schema_libraries)";
  // Module-local translators: _opbridge_plugins registers opbridge::plugin::LoadError globally,
  // and these must stay this module's classes whichever module is imported first.
  // InvalidInput derives from std::invalid_argument, which pybind11 raises as ValueError.
  py::register_local_exception<opbridge::plugin::LoadError>(module, "LoadError", PyExc_RuntimeError);
  py::register_local_exception<opbridge::plugin::InferenceError>(module, "InferenceError", PyExc_RuntimeError);
  py::register_local_exception<opbridge::plugin::InferenceContractError>(module, "InferenceContractError",
                                                                         PyExc_RuntimeError);

  module.attr("ABI_VERSION") = OPBRIDGE_SCHEMA_ABI_VERSION;
  module.attr("ENTRY_POINT") = OPBRIDGE_SCHEMA_ENTRY_POINT;
  module.attr("MAX_RANK") = OPBRIDGE_SCHEMA_MAX_RANK;

  py::class_<SchemaLibrary, std::shared_ptr<SchemaLibrary>>(module, "SchemaLibrary")
      .def_static("open", &SchemaLibrary::Open, py::arg("path"),
                  "Loads a schema library by explicit path (LoadError names what is wrong).")
      .def_property_readonly("path", &SchemaLibrary::path)
      .def("domains",
           [](const SchemaLibrary& library) {
             py::list domains;
             for (const auto& domain : library.domains()) {
               domains.append(py::dict(py::arg("name") = domain.name, py::arg("min_version") = domain.min_version,
                                       py::arg("max_version") = domain.max_version, py::arg("doc") = domain.doc));
             }
             return domains;
           })
      .def("schemas",
           [](const SchemaLibrary& library) {
             py::list schemas;
             for (const SchemaSpec& schema : library.schemas()) schemas.append(SchemaObject(schema));
             return schemas;
           })
      .def(
          "infer",
          [](const SchemaLibrary& library, size_t index, const std::vector<InputIn>& inputs,
             const AttributeList& attributes) {
            std::vector<InferInput> converted;
            for (const auto& [present, dtype, shape] : inputs) converted.push_back(InferInput{present, dtype, shape});
            const Attributes values = ToAttributes(attributes);
            std::vector<InferOutput> outputs;
            {
              py::gil_scoped_release release;
              outputs = library.Infer(index, converted, values);
            }
            std::vector<OutputOut> results;
            for (InferOutput& output : outputs) results.emplace_back(output.dtype, std::move(output.shape));
            return results;
          },
          py::arg("index"), py::arg("inputs"), py::arg("attributes"),
          "Calls schema `index`'s inference callback: inputs [(present, dtype, shape)], attributes "
          "[(name, type, value)] -> outputs [(dtype, shape)].");
}
