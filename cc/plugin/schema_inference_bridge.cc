// SPDX-License-Identifier: Apache-2.0
// Calls a schema's inference callback: see schema_inference_bridge.h.
#include "cc/plugin/schema_inference_bridge.h"

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <utility>
#include <variant>

#include "cc/plugin/schema_abi_values.h"
#include "cc/plugin/tensor_limits.h"

static_assert(OPBRIDGE_SCHEMA_MAX_RANK == OPBRIDGE_MAX_RANK, "the schema ABI's rank limit is the hosts' limit");

namespace opbridge::plugin {
namespace {

// Whether a type constraint's `dtypes` allow `dtype`, and the set as text ("{float32, int8}").
bool KnownDType(int32_t dtype) { return dtype > 0 && dtype < 32 && (kKnownDTypes & OPBRIDGE_DTYPE_BIT(dtype)) != 0; }

bool Allows(uint32_t dtypes, int32_t dtype) { return KnownDType(dtype) && (dtypes & OPBRIDGE_DTYPE_BIT(dtype)) != 0; }

std::string DTypeSet(uint32_t dtypes) {
  std::string text;
  for (int32_t dtype = 1; dtype < 32; ++dtype) {
    if (Allows(dtypes, dtype)) text += (text.empty() ? "" : ", ") + std::string(opbridge_dtype_name(dtype));
  }
  return "{" + text + "}";
}

// What an infer callback reaches through OpbridgeInferContext::host.
struct InferState {
  const SchemaSpec* schema = nullptr;
  const std::vector<InferInput>* inputs = nullptr;
  const Attributes* attributes = nullptr;                       // defaults filled in
  std::map<std::string, std::vector<const char*>> string_lists;  // STRINGS attributes as C arrays
  std::vector<std::optional<InferOutput>> outputs;
  std::optional<std::string> failure;  // fail()'s message
  std::string refusal;                 // the first set_output the host refused, and why
};

InferState* InferStateOf(const OpbridgeInferContext* ctx) {
  return ctx == nullptr ? nullptr : static_cast<InferState*>(ctx->host);
}

const InferInput* PresentInput(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || index < 0 || static_cast<size_t>(index) >= state->inputs->size()) return nullptr;
  const InferInput& input = (*state->inputs)[static_cast<size_t>(index)];
  return input.present ? &input : nullptr;
}

int32_t InputCount(const OpbridgeInferContext* ctx) noexcept {
  const InferState* state = InferStateOf(ctx);
  return state == nullptr ? 0 : static_cast<int32_t>(state->inputs->size());
}

int32_t InputPresent(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  return PresentInput(ctx, index) != nullptr ? 1 : 0;
}

int32_t InputDType(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr ? input->dtype : 0;
}

int32_t InputRank(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr ? static_cast<int32_t>(input->shape.size()) : -1;
}

const int64_t* InputDims(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr && !input->shape.empty() ? input->shape.data() : nullptr;
}

template <typename T>
const T* FindAttribute(const OpbridgeInferContext* ctx, const char* name) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || name == nullptr) return nullptr;
  try {
    const auto found = state->attributes->find(name);
    return found == state->attributes->end() ? nullptr : std::get_if<T>(&found->second);
  } catch (...) {  // std::string(name) could only fail to allocate
    return nullptr;
  }
}

template <typename T>
int32_t ReadScalar(const OpbridgeInferContext* ctx, const char* name, T* value) noexcept {
  const T* found = FindAttribute<T>(ctx, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = *found;
  return 0;
}

int32_t AttributeInt(const OpbridgeInferContext* ctx, const char* name, int64_t* value) noexcept {
  return ReadScalar(ctx, name, value);
}

int32_t AttributeFloat(const OpbridgeInferContext* ctx, const char* name, double* value) noexcept {
  return ReadScalar(ctx, name, value);
}

int32_t AttributeString(const OpbridgeInferContext* ctx, const char* name, const char** value) noexcept {
  const std::string* found = FindAttribute<std::string>(ctx, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = found->c_str();
  return 0;
}

template <typename T>
int32_t AttributeList(const OpbridgeInferContext* ctx, const char* name, const T** values, int32_t* count) noexcept {
  const std::vector<T>* found = FindAttribute<std::vector<T>>(ctx, name);
  if (found == nullptr || values == nullptr || count == nullptr) return 1;
  *values = found->data();
  *count = static_cast<int32_t>(found->size());
  return 0;
}

int32_t AttributeInts(const OpbridgeInferContext* ctx, const char* name, const int64_t** values,
                      int32_t* count) noexcept {
  return AttributeList(ctx, name, values, count);
}

int32_t AttributeFloats(const OpbridgeInferContext* ctx, const char* name, const double** values,
                        int32_t* count) noexcept {
  return AttributeList(ctx, name, values, count);
}

int32_t AttributeStrings(const OpbridgeInferContext* ctx, const char* name, const char* const** values,
                         int32_t* count) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || name == nullptr || values == nullptr || count == nullptr) return 1;
  try {
    const auto found = state->string_lists.find(name);
    if (found == state->string_lists.end()) return 1;
    *values = found->second.data();
    *count = static_cast<int32_t>(found->second.size());
    return 0;
  } catch (...) {
    return 1;
  }
}

const ParameterSpec& ParameterAt(const std::vector<ParameterSpec>& parameters, size_t position) {
  return parameters[std::min(position, parameters.size() - 1)];
}

const TypeConstraintSpec& ConstraintOf(const SchemaSpec& schema, const std::string& type_var) {
  for (const TypeConstraintSpec& constraint : schema.type_constraints) {
    if (constraint.type_var == type_var) return constraint;
  }
  throw std::logic_error("type variable " + type_var + " is unconstrained");  // checked at registration
}

// Why set_output refuses, or "".
std::string SetOutputProblem(const InferState& state, int32_t index, int32_t dtype, const int64_t* dims,
                             int32_t rank) {
  const std::string what = "set_output(" + std::to_string(index) + ")";
  if (index < 0 || static_cast<size_t>(index) >= state.outputs.size()) {
    return what + ": the op has outputs 0.." + std::to_string(static_cast<int64_t>(state.outputs.size()) - 1);
  }
  if (state.outputs[static_cast<size_t>(index)].has_value()) return what + ": the output is already set";
  const ParameterSpec& parameter = ParameterAt(state.schema->outputs, static_cast<size_t>(index));
  const uint32_t allowed = ConstraintOf(*state.schema, parameter.type_var).allowed;
  if (!Allows(allowed, dtype)) {
    return what + ": dtype " + std::to_string(dtype) + " (" + opbridge_dtype_name(dtype) + ") is outside " +
           parameter.type_var + " = " + DTypeSet(allowed);
  }
  if (rank < 0 || rank > OPBRIDGE_SCHEMA_MAX_RANK) {
    return what + ": rank " + std::to_string(rank) + " is outside 0.." + std::to_string(OPBRIDGE_SCHEMA_MAX_RANK);
  }
  if (rank > 0 && dims == nullptr) return what + ": rank " + std::to_string(rank) + " with NULL dims";
  for (int32_t axis = 0; axis < rank; ++axis) {
    if (dims[axis] < -1) {
      return what + ": dimension " + std::to_string(axis) + " is " + std::to_string(dims[axis]) +
             " (sizes are >= 0, or -1 when known only at run time)";
    }
  }
  return "";
}

int32_t SetOutput(const OpbridgeInferContext* ctx, int32_t index, int32_t dtype, const int64_t* dims,
                  int32_t rank) noexcept {
  InferState* state = InferStateOf(ctx);
  if (state == nullptr) return 1;
  try {
    const std::string problem = SetOutputProblem(*state, index, dtype, dims, rank);
    if (!problem.empty()) {
      if (state->refusal.empty()) state->refusal = problem;
      return 1;
    }
    state->outputs[static_cast<size_t>(index)] =
        InferOutput{dtype, rank > 0 ? std::vector<int64_t>(dims, dims + rank) : std::vector<int64_t>()};
    return 0;
  } catch (...) {
    return 1;
  }
}

void FailInference(const OpbridgeInferContext* ctx, const char* message) noexcept {
  InferState* state = InferStateOf(ctx);
  if (state == nullptr) return;
  try {
    if (!state->failure) {
      state->failure = LibraryMessage(message, "(fail was given NULL)");
    }
  } catch (...) {
  }
}

const OpbridgeInferApi kInferApi = {
    sizeof(OpbridgeInferApi), InputCount,     InputPresent,    InputDType,
    InputRank,                InputDims,      AttributeInt,    AttributeFloat,
    AttributeString,          AttributeInts,  AttributeFloats, AttributeStrings,
    SetOutput,                FailInference,
};

std::string ParameterList(const std::vector<ParameterSpec>& parameters) {
  std::string text;
  for (const ParameterSpec& parameter : parameters) {
    text += (text.empty() ? "" : ", ") + parameter.name +
            (parameter.option == OPBRIDGE_PARAMETER_OPTIONAL   ? "?"
             : parameter.option == OPBRIDGE_PARAMETER_VARIADIC ? "..."
                                                               : "");
  }
  return text;
}

void CheckInferInputs(const SchemaSpec& schema, const std::vector<InferInput>& inputs, const std::string& where) {
  const std::vector<ParameterSpec>& parameters = schema.inputs;
  const bool variadic = !parameters.empty() && parameters.back().option == OPBRIDGE_PARAMETER_VARIADIC;
  size_t required = 0;
  for (const ParameterSpec& parameter : parameters) required += parameter.option != OPBRIDGE_PARAMETER_OPTIONAL;
  const size_t most = variadic ? OPBRIDGE_SCHEMA_MAX_LIST : parameters.size();
  if (inputs.size() < required || inputs.size() > most) {
    std::string expected = std::to_string(required);
    if (variadic) {
      expected = "at least " + expected;
    } else if (required != parameters.size()) {
      expected += " to " + std::to_string(parameters.size());
    }
    throw InvalidInput(where + " takes " + expected + " inputs (" + ParameterList(parameters) + "), got " +
                       std::to_string(inputs.size()));
  }
  std::map<std::string, std::pair<int32_t, std::string>> bound;  // type variable -> (dtype, input name)
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ParameterSpec& parameter = ParameterAt(parameters, i);
    const std::string at = where + ": input " + std::to_string(i) + " (" + parameter.name + ")";
    const InferInput& input = inputs[i];
    if (!input.present) {
      if (parameter.option != OPBRIDGE_PARAMETER_OPTIONAL) throw InvalidInput(at + " is required but missing");
      continue;
    }
    const uint32_t allowed = ConstraintOf(schema, parameter.type_var).allowed;
    if (!Allows(allowed, input.dtype)) {
      throw InvalidInput(at + " is " + opbridge_dtype_name(input.dtype) + " (" + std::to_string(input.dtype) +
                         "); " + parameter.type_var + " allows " + DTypeSet(allowed));
    }
    const auto [previous, inserted] = bound.emplace(parameter.type_var, std::make_pair(input.dtype, parameter.name));
    if (!inserted && previous->second.first != input.dtype) {
      throw InvalidInput(at + " is " + opbridge_dtype_name(input.dtype) + " but " + previous->second.second +
                         " is " + opbridge_dtype_name(previous->second.first) + "; both have type variable " +
                         parameter.type_var);
    }
    if (input.shape.size() > OPBRIDGE_SCHEMA_MAX_RANK) {
      throw InvalidInput(at + " has rank " + std::to_string(input.shape.size()) + ", over " +
                         std::to_string(OPBRIDGE_SCHEMA_MAX_RANK));
    }
    for (int64_t dim : input.shape) {
      if (dim < -1) throw InvalidInput(at + " has dimension " + std::to_string(dim) + " (sizes are >= 0, or -1)");
    }
  }
}

Attributes CompleteAttributes(const SchemaSpec& schema, const Attributes& given, const std::string& where) {
  Attributes complete;
  for (const auto& [name, value] : given) {
    const AttributeSpec* spec = nullptr;
    for (const AttributeSpec& attribute : schema.attributes) {
      if (attribute.name == name) spec = &attribute;
    }
    if (spec == nullptr) throw InvalidInput(where + " has no attribute " + Quote(name));
    if (AttributeTypeOf(value) != spec->type) {
      throw InvalidInput(where + ": attribute " + Quote(name) + " is " + AttributeTypeName(spec->type) + ", got " +
                         AttributeTypeName(AttributeTypeOf(value)));
    }
    // The callback reads strings as C strings: an embedded NUL would silently cut them short.
    bool has_nul = false;
    if (const auto* text = std::get_if<std::string>(&value)) has_nul = text->find('\0') != std::string::npos;
    if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) {
      for (const std::string& text : *texts) has_nul = has_nul || text.find('\0') != std::string::npos;
    }
    if (has_nul) throw InvalidInput(where + ": attribute " + Quote(name) + " contains a NUL character");
    complete.emplace(name, value);
  }
  for (const AttributeSpec& attribute : schema.attributes) {
    if (complete.count(attribute.name) != 0) continue;
    if (!attribute.default_value) {
      throw InvalidInput(where + ": required attribute " + Quote(attribute.name) + " (" +
                         AttributeTypeName(attribute.type) + ") is missing");
    }
    complete.emplace(attribute.name, *attribute.default_value);
  }
  return complete;
}


// Calls infer with a context over `state`; a callback that throws breaks the contract.
void CallInfer(const SchemaSpec& schema, InferState* state, const std::string& where,
               const std::string& library_where) {
  const OpbridgeInferContext context = {&kInferApi, state};
  int32_t code = 1;
  try {
    code = schema.infer(&context);
  } catch (const std::exception& error) {
    throw InferenceContractError(library_where + ": infer threw: " + error.what());
  } catch (...) {
    throw InferenceContractError(library_where + ": infer threw a non-standard exception");
  }
  if (state->failure) throw InferenceError(where + ": " + *state->failure);
  if (code != 0) {
    throw InferenceContractError(library_where + ": infer returned " + std::to_string(code) +
                                 " without calling fail (say why: ctx->api->fail(ctx, message))" +
                                 (state->refusal.empty() ? "" : "; the host refused " + state->refusal));
  }
  if (!state->refusal.empty()) {
    throw InferenceContractError(library_where + ": infer returned 0, but the host refused " + state->refusal);
  }
}

// The outputs infer set: 0..n-1 without gaps, every non-optional one.
std::vector<InferOutput> CollectOutputs(const SchemaSpec& schema, InferState* state,
                                        const std::string& library_where) {
  size_t count = 0;
  for (size_t i = 0; i < state->outputs.size(); ++i) {
    if (state->outputs[i].has_value()) count = i + 1;
  }
  std::vector<InferOutput> outputs;
  for (size_t i = 0; i < count; ++i) {
    if (!state->outputs[i].has_value()) {
      throw InferenceContractError(library_where + ": infer set output " + std::to_string(count - 1) +
                                   " but not output " + std::to_string(i) + " (set outputs 0..n-1)");
    }
    outputs.push_back(std::move(*state->outputs[i]));
  }
  for (size_t i = count; i < schema.outputs.size(); ++i) {
    if (schema.outputs[i].option != OPBRIDGE_PARAMETER_OPTIONAL) {
      throw InferenceContractError(library_where + ": infer did not set output " + std::to_string(i) + " (" +
                                   schema.outputs[i].name + ")");
    }
  }
  return outputs;
}

}  // namespace

std::vector<InferOutput> RunSchemaInference(const SchemaSpec& schema, const std::vector<InferInput>& inputs,
                                            const Attributes& attributes, const std::string& library_path) {
  const std::string where = "schema " + schema.Describe();
  CheckInferInputs(schema, inputs, where);
  const Attributes complete = CompleteAttributes(schema, attributes, where);
  InferState state;
  state.schema = &schema;
  state.inputs = &inputs;
  state.attributes = &complete;
  for (const auto& [name, value] : complete) {
    if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) {
      std::vector<const char*>& pointers = state.string_lists[name];
      for (const std::string& text : *texts) pointers.push_back(text.c_str());
    }
  }
  const bool variadic = schema.outputs.back().option == OPBRIDGE_PARAMETER_VARIADIC;
  state.outputs.resize(variadic ? OPBRIDGE_SCHEMA_MAX_PARAMETERS : schema.outputs.size());

  const std::string library_where = where + " of schema library " + library_path;
  CallInfer(schema, &state, where, library_where);
  return CollectOutputs(schema, &state, library_where);
}

}  // namespace opbridge::plugin
