// SPDX-License-Identifier: Apache-2.0
#include "cc/plugin/plugin_host.h"

#include <dlfcn.h>

#include <cstring>
#include <exception>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "cc/plugin/elf_facts.h"
#include "cc/plugin/tensor_limits.h"

// The ABI's opaque structs, defined at global scope as the C header declares them.
struct OpbridgeKernelInfo {
  const opbridge::plugin::Attributes* attributes;
};

struct OpbridgeKernelContext {
  const OpbridgeOpDef* op;
  const std::vector<opbridge::plugin::TensorRef>* inputs;
  std::vector<std::optional<opbridge::plugin::HostTensor>> outputs;
  std::string error;  // why a host call failed, reported if compute then fails
};

struct OpbridgeStatus {
  int32_t code = OPBRIDGE_PLUGIN_OK;
  std::string message;
};

namespace opbridge::plugin {
namespace {

constexpr uint32_t kKnownDTypes =
    OPBRIDGE_DTYPE_BIT(1) | OPBRIDGE_DTYPE_BIT(2) | OPBRIDGE_DTYPE_BIT(3) | OPBRIDGE_DTYPE_BIT(4) |
    OPBRIDGE_DTYPE_BIT(5) | OPBRIDGE_DTYPE_BIT(6) | OPBRIDGE_DTYPE_BIT(7) | OPBRIDGE_DTYPE_BIT(9) |
    OPBRIDGE_DTYPE_BIT(10) | OPBRIDGE_DTYPE_BIT(11) | OPBRIDGE_DTYPE_BIT(12) | OPBRIDGE_DTYPE_BIT(13) |
    OPBRIDGE_DTYPE_BIT(16);
constexpr int32_t kMaxArguments = 64;

bool Allows(uint32_t dtypes, int32_t dtype) {
  return dtype > 0 && dtype < 32 && (dtypes & OPBRIDGE_DTYPE_BIT(dtype)) != 0;
}

std::string DTypeSet(uint32_t dtypes) {
  std::string text;
  for (int32_t dtype = 1; dtype < 32; ++dtype) {
    if (Allows(dtypes, dtype)) text += (text.empty() ? "" : ", ") + std::string(opbridge_dtype_name(dtype));
  }
  return "{" + text + "}";
}

template <typename T>
const T* FindAttribute(const OpbridgeKernelInfo* info, const char* name) noexcept {
  if (info == nullptr || name == nullptr) return nullptr;
  try {
    auto found = info->attributes->find(name);
    if (found == info->attributes->end()) return nullptr;
    return std::get_if<T>(&found->second);
  } catch (...) {  // std::string(name) could only fail to allocate
    return nullptr;
  }
}

// The host API functions are called from C: none may throw.
int32_t AttributeFloat(const OpbridgeKernelInfo* info, const char* name, double* value) noexcept {
  const double* found = FindAttribute<double>(info, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = *found;
  return 0;
}

int32_t AttributeInt(const OpbridgeKernelInfo* info, const char* name, int64_t* value) noexcept {
  const int64_t* found = FindAttribute<int64_t>(info, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = *found;
  return 0;
}

int32_t AttributeString(const OpbridgeKernelInfo* info, const char* name, const char** value) noexcept {
  const std::string* found = FindAttribute<std::string>(info, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = found->c_str();
  return 0;
}

int32_t InputCount(const OpbridgeKernelContext* context) noexcept {
  return context == nullptr ? 0 : static_cast<int32_t>(context->inputs->size());
}

int32_t OutputCount(const OpbridgeKernelContext* context) noexcept {
  return context == nullptr ? 0 : static_cast<int32_t>(context->outputs.size());
}

int32_t Input(const OpbridgeKernelContext* context, int32_t index, OpbridgeTensorView* view) noexcept {
  if (context == nullptr || view == nullptr || index < 0 || index >= InputCount(context)) return 1;
  const TensorRef& input = (*context->inputs)[static_cast<size_t>(index)];
  int64_t count = 0;
  char message[256];
  opbridge_check_tensor(input.dtype, input.shape.data(), static_cast<int64_t>(input.shape.size()), &count, nullptr,
                        message, sizeof message);
  view->dtype = input.dtype;
  view->rank = static_cast<int32_t>(input.shape.size());
  view->shape = input.shape.data();
  view->element_count = count;
  view->data = input.data;
  return 0;
}

int32_t AllocateOutputOrThrow(OpbridgeKernelContext* context, int32_t index, int32_t dtype, const int64_t* shape,
                              int32_t rank, void** data) {
  if (index < 0 || index >= OutputCount(context)) {
    context->error = "allocate_output: output " + std::to_string(index) + " does not exist";
    return 1;
  }
  auto& slot = context->outputs[static_cast<size_t>(index)];
  if (slot.has_value()) {
    context->error = "allocate_output: output " + std::to_string(index) + " was already allocated in this run";
    return 1;
  }
  const uint32_t allowed = context->op->output_dtypes[index];
  if (!Allows(allowed, dtype)) {
    context->error = "allocate_output: output " + std::to_string(index) + " of type " +
                     opbridge_dtype_name(dtype) + " is not among the declared " + DTypeSet(allowed);
    return 1;
  }
  if (rank < 0 || rank > OPBRIDGE_MAX_RANK) {
    context->error = "allocate_output: output " + std::to_string(index) + " has rank " + std::to_string(rank) +
                     ", outside 0.." + std::to_string(OPBRIDGE_MAX_RANK);
    return 1;
  }
  if (rank > 0 && shape == nullptr) {
    context->error = "allocate_output: output " + std::to_string(index) + " has rank " + std::to_string(rank) +
                     " but a NULL shape";
    return 1;
  }
  try {
    slot.emplace(dtype, std::vector<int64_t>(shape, shape + rank));
  } catch (const std::exception& error) {
    context->error = "allocate_output: output " + std::to_string(index) + ": " + error.what();
    return 1;
  }
  *data = slot->data();
  return 0;
}

int32_t AllocateOutput(OpbridgeKernelContext* context, int32_t index, int32_t dtype, const int64_t* shape,
                       int32_t rank, void** data) noexcept {
  if (context == nullptr || data == nullptr) return 1;
  *data = nullptr;
  try {
    return AllocateOutputOrThrow(context, index, dtype, shape, rank, data);
  } catch (...) {  // building a message could only fail to allocate
    return 1;
  }
}

void SetError(OpbridgeStatus* status, int32_t code, const char* message) noexcept {
  if (status == nullptr) return;
  status->code = code == OPBRIDGE_PLUGIN_OK ? OPBRIDGE_PLUGIN_FAILED : code;
  try {
    status->message = message != nullptr ? message : "";
  } catch (...) {
    status->message.clear();
  }
}

const OpbridgeHostApi kHostApi = {
    OPBRIDGE_PLUGIN_API_VERSION, AttributeFloat, AttributeInt,   AttributeString, InputCount,
    OutputCount,                 Input,          AllocateOutput, SetError,
};

void ValidateOp(const OpbridgeOpDef& op, uint32_t position, const std::string& path) {
  const std::string where = "plugin " + path + ", op " + std::to_string(position);
  if (op.name == nullptr || op.name[0] == '\0') throw LoadError(where + ": has no name");
  if (op.domain == nullptr) throw LoadError(where + " (" + op.name + "): domain is NULL; use \"\" for the default");
  const std::string label = where + " (" + op.domain + "::" + op.name + ")";
  if (op.since_version < 1) {
    throw LoadError(label + ": since_version " + std::to_string(op.since_version) + " must be >= 1");
  }
  if (op.create == nullptr || op.compute == nullptr || op.destroy == nullptr) {
    throw LoadError(label + ": create, compute and destroy must all be non-NULL");
  }
  auto check_args = [&](const char* kind, int32_t count, const uint32_t* dtypes) {
    if (count < 0 || count > kMaxArguments) {
      throw LoadError(label + ": " + kind + "_count " + std::to_string(count) + " is outside 0.." +
                      std::to_string(kMaxArguments));
    }
    if (count > 0 && dtypes == nullptr) throw LoadError(label + ": " + kind + "_dtypes is NULL");
    for (int32_t i = 0; i < count; ++i) {
      if (dtypes[i] == 0 || (dtypes[i] & ~kKnownDTypes) != 0) {
        throw LoadError(label + ": " + kind + " " + std::to_string(i) +
                        " declares no dtype or an unknown one (set bits with OPBRIDGE_DTYPE_BIT)");
      }
    }
  };
  check_args("input", op.input_count, op.input_dtypes);
  check_args("output", op.output_count, op.output_dtypes);
  if (op.output_count == 0) throw LoadError(label + ": an op needs at least one output");
}

}  // namespace

std::shared_ptr<PluginLibrary> PluginLibrary::Open(const std::string& path) {
  std::shared_ptr<PluginLibrary> library(new PluginLibrary());
  library->path_ = ResolveLibraryPath(path);
  ReadElfFacts(library->path_);  // a clear error for files that are not shared libraries
  library->handle_ = OpenLibrary(library->path_);
  dlerror();
  auto get_ops = reinterpret_cast<OpbridgePluginGetOpsFn>(dlsym(library->handle_.get(), OPBRIDGE_PLUGIN_ENTRY_POINT));
  if (get_ops == nullptr) {
    throw LoadError("plugin " + library->path_ + " does not export " OPBRIDGE_PLUGIN_ENTRY_POINT
                    " (declare it extern \"C\" with default visibility; see docs/native_plugins.md)");
  }
  const OpbridgePluginOpTable* table = get_ops(OPBRIDGE_PLUGIN_API_VERSION);
  if (table == nullptr) {
    throw LoadError("plugin " + library->path_ + " declined host API version " +
                    std::to_string(OPBRIDGE_PLUGIN_API_VERSION) + " (it was built for another opbridge)");
  }
  if (table->api_version < 1 || table->api_version > OPBRIDGE_PLUGIN_API_VERSION) {
    throw LoadError("plugin " + library->path_ + " implements API version " + std::to_string(table->api_version) +
                    "; this host accepts 1.." + std::to_string(OPBRIDGE_PLUGIN_API_VERSION) +
                    " (rebuild the plugin against this opbridge's cc/plugin/opbridge_plugin.h)");
  }
  if (table->op_count == 0 || table->ops == nullptr) {
    throw LoadError("plugin " + library->path_ + " registers no operators");
  }
  // Version 1's OpbridgeOpDef is this host's; a newer plugin's may be longer.
  if (table->op_def_size < sizeof(OpbridgeOpDef)) {
    throw LoadError("plugin " + library->path_ + " says its OpbridgeOpDef has " +
                    std::to_string(table->op_def_size) + " bytes; API version 1's has " +
                    std::to_string(sizeof(OpbridgeOpDef)) + " (build the table with OPBRIDGE_PLUGIN_OP_TABLE)");
  }
  std::set<std::tuple<std::string, std::string, int32_t>> seen;
  for (uint32_t i = 0; i < table->op_count; ++i) {
    const OpbridgeOpDef& op = *reinterpret_cast<const OpbridgeOpDef*>(reinterpret_cast<const char*>(table->ops) +
                                                                       size_t{i} * table->op_def_size);
    ValidateOp(op, i, library->path_);
    if (!seen.emplace(op.domain, op.name, op.since_version).second) {
      throw LoadError("plugin " + library->path_ + " registers " + op.domain + "::" + op.name + " version " +
                      std::to_string(op.since_version) + " twice");
    }
    library->ops_.push_back(&op);
  }
  library->api_version_ = table->api_version;
  return library;
}

std::vector<OpSummary> PluginLibrary::Ops() const {
  std::vector<OpSummary> ops;
  for (const OpbridgeOpDef* op : ops_) {
    ops.push_back({op->domain, op->name, op->since_version,
                   std::vector<uint32_t>(op->input_dtypes, op->input_dtypes + op->input_count),
                   std::vector<uint32_t>(op->output_dtypes, op->output_dtypes + op->output_count)});
  }
  return ops;
}

const OpbridgeOpDef* PluginLibrary::Find(const std::string& domain, const std::string& name, int64_t opset) const {
  const OpbridgeOpDef* best = nullptr;
  for (const OpbridgeOpDef* op : ops_) {
    if (domain == op->domain && name == op->name && op->since_version <= opset &&
        (best == nullptr || op->since_version > best->since_version)) {
      best = op;
    }
  }
  return best;
}

NativeKernel::NativeKernel(std::shared_ptr<PluginLibrary> library, const OpbridgeOpDef* op, Attributes attributes,
                           std::string node_name)
    : library_(std::move(library)), op_(op), attributes_(std::move(attributes)), node_name_(std::move(node_name)) {}

NativeKernel::~NativeKernel() {
  if (created_) op_->destroy(kernel_);
}

std::string NativeKernel::Where() const {
  return "node \"" + node_name_ + "\" (" + op_->domain + "::" + op_->name + ")";
}

std::vector<HostTensor> NativeKernel::Compute(const std::vector<TensorRef>& inputs) {
  if (static_cast<int32_t>(inputs.size()) != op_->input_count) {
    throw InvalidInput(Where() + " takes " + std::to_string(op_->input_count) + " input(s), got " +
                       std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorRef& input = inputs[i];
    if (!Allows(op_->input_dtypes[i], input.dtype)) {
      throw InvalidInput(Where() + ": input " + std::to_string(i) + " is " + opbridge_dtype_name(input.dtype) +
                         ", the op accepts " + DTypeSet(op_->input_dtypes[i]));
    }
    CheckTensorLimits(input.dtype, input.shape, Where() + ": input " + std::to_string(i));
  }
  // Plugins see copies: a plugin that writes to its inputs cannot reach the caller's memory.
  std::vector<HostTensor> copies;
  std::vector<TensorRef> views;
  for (const TensorRef& input : inputs) {
    copies.emplace_back(input.dtype, input.shape);
    if (copies.back().bytes() > 0) std::memcpy(copies.back().data(), input.data, copies.back().bytes());
    views.push_back(TensorRef{input.dtype, input.shape, copies.back().data()});
  }
  OpbridgeStatus status;
  if (!created_) {
    OpbridgeKernelInfo info{&attributes_};
    int32_t code = OPBRIDGE_PLUGIN_FAILED;
    kernel_ = nullptr;
    try {
      code = op_->create(&kHostApi, &info, &kernel_, &status);
    } catch (const std::exception& error) {
      code = OPBRIDGE_PLUGIN_FAILED;
      status.message = std::string("create threw: ") + error.what();
    } catch (...) {
      code = OPBRIDGE_PLUGIN_FAILED;
      status.message = "create threw a non-standard exception";
    }
    if (code != OPBRIDGE_PLUGIN_OK) {
      // The ABI's rule: a failed create leaves *kernel NULL, or it is destroyed.
      if (kernel_ != nullptr) op_->destroy(kernel_);
      kernel_ = nullptr;
      throw KernelError(Where() + ": create failed: " +
                        (status.message.empty() ? "code " + std::to_string(code) : status.message));
    }
    created_ = true;
  }
  OpbridgeKernelContext context{op_, &views, {}, {}};
  context.outputs.resize(static_cast<size_t>(op_->output_count));
  int32_t code = OPBRIDGE_PLUGIN_FAILED;
  try {
    code = op_->compute(&kHostApi, kernel_, &context, &status);
  } catch (const std::exception& error) {
    throw KernelError(Where() + ": compute threw: " + error.what());
  } catch (...) {
    throw KernelError(Where() + ": compute threw a non-standard exception");
  }
  if (code != OPBRIDGE_PLUGIN_OK) {
    std::string reason = status.message.empty() ? "code " + std::to_string(code) : status.message;
    if (!context.error.empty()) reason += " (host: " + context.error + ")";
    throw KernelError(Where() + ": compute failed: " + reason);
  }
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < context.outputs.size(); ++i) {
    if (!context.outputs[i].has_value()) {
      throw KernelError(Where() + ": compute returned without allocating output " + std::to_string(i) +
                        (context.error.empty() ? "" : " (host: " + context.error + ")"));
    }
    outputs.push_back(std::move(*context.outputs[i]));
  }
  return outputs;
}

}  // namespace opbridge::plugin
