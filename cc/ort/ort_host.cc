// SPDX-License-Identifier: Apache-2.0
#include "cc/ort/ort_host.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "cc/ort/ort_api_names.h"
#include "cc/plugin/elf_facts.h"
#include "cc/plugin/tensor_limits.h"
#include "onnxruntime_c_api.h"

// The audited subset below is written against exactly this API version
// (pinned in WORKSPACE with the headers package).
static_assert(ORT_API_VERSION == 29, "cc/ort/ort_host.cc was audited against ORT API version 29");

// The ORT API's opaque structs, as this host defines them.
struct OrtStatus {
  OrtErrorCode code;
  std::string message;
  bool immortal = false;  // the host's own "not implemented" statuses: ReleaseStatus keeps them
};

// Every tensor the host hands out is in CPU memory.
struct OrtMemoryInfo {
  OrtAllocatorType type = OrtDeviceAllocator;
  OrtMemType mem_type = OrtMemTypeDefault;
  bool immortal = false;  // the one GetTensorMemoryInfo returns
};

struct OrtCustomOpDomain {
  std::string name;
  std::vector<const OrtCustomOp*> ops;
};

// What RegisterCustomOps sees as session options: only domains can be added.
struct OrtSessionOptions {
  std::vector<OrtCustomOpDomain*> domains;
};

struct OrtValue {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  void* data = nullptr;
  std::optional<opbridge::plugin::HostTensor> storage;  // set for outputs
};

struct OrtTensorTypeAndShapeInfo {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
};

struct OrtKernelInfo {
  const opbridge::plugin::Attributes* attributes;
  const std::string* node_name;
  size_t input_count;
  size_t output_count;
};

struct OrtKernelContext {
  const opbridge::ort::OrtOpInfo* op;
  std::vector<OrtValue> inputs;
  std::vector<OrtValue> outputs;  // data == nullptr until allocated
};

namespace opbridge::ort {
namespace {

using plugin::InvalidInput;
using plugin::KernelError;
using plugin::LoadError;

OrtStatus* MakeStatus(OrtErrorCode code, std::string message) noexcept {
  try {
    return new OrtStatus{code, std::move(message)};
  } catch (...) {
    return nullptr;  // cannot happen short of running out of memory
  }
}

// ---- The implemented OrtApi functions --------------------------------------

OrtStatus* ORT_API_CALL CreateStatus(OrtErrorCode code, const char* msg) noexcept {
  return MakeStatus(code, msg != nullptr ? msg : "");
}
OrtErrorCode ORT_API_CALL GetErrorCode(const OrtStatus* status) noexcept {
  return status != nullptr ? status->code : ORT_OK;
}
const char* ORT_API_CALL GetErrorMessage(const OrtStatus* status) noexcept {
  return status != nullptr ? status->message.c_str() : "";
}
void ORT_API_CALL ReleaseStatus(OrtStatus* status) noexcept {
  if (status != nullptr && !status->immortal) delete status;
}

OrtStatus* ORT_API_CALL CreateCustomOpDomain(const char* domain, OrtCustomOpDomain** out) noexcept {
  if (domain == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "CreateCustomOpDomain: NULL argument");
  try {
    *out = new OrtCustomOpDomain{domain, {}};
  } catch (...) {
    return MakeStatus(ORT_FAIL, "CreateCustomOpDomain: out of memory");
  }
  return nullptr;
}
OrtStatus* ORT_API_CALL CustomOpDomain_Add(OrtCustomOpDomain* domain, const OrtCustomOp* op) noexcept {
  if (domain == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "CustomOpDomain_Add: NULL domain");
  try {
    domain->ops.push_back(op);  // a NULL op is reported by validation, naming the domain
  } catch (...) {
    return MakeStatus(ORT_FAIL, "CustomOpDomain_Add: out of memory");
  }
  return nullptr;
}
OrtStatus* ORT_API_CALL AddCustomOpDomain(OrtSessionOptions* options, OrtCustomOpDomain* domain) noexcept {
  if (options == nullptr || domain == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "AddCustomOpDomain: NULL argument");
  try {
    options->domains.push_back(domain);
  } catch (...) {
    return MakeStatus(ORT_FAIL, "AddCustomOpDomain: out of memory");
  }
  return nullptr;
}
// The plugin owns its domains (as with ORT) and releases them, possibly only
// when it is unloaded.
void ORT_API_CALL ReleaseCustomOpDomain(OrtCustomOpDomain* domain) noexcept { delete domain; }

const plugin::AttributeValue* FindAttribute(const OrtKernelInfo* info, const char* name) {
  if (info == nullptr || name == nullptr) return nullptr;
  auto found = info->attributes->find(name);
  return found == info->attributes->end() ? nullptr : &found->second;
}

OrtStatus* MissingAttribute(const OrtKernelInfo* info, const char* name, const char* type) {
  return MakeStatus(ORT_FAIL, std::string("node \"") + (info != nullptr ? *info->node_name : "") +
                                  "\" has no " + type + " attribute \"" + (name != nullptr ? name : "") + "\"");
}

OrtStatus* ORT_API_CALL KernelInfoGetAttribute_float(const OrtKernelInfo* info, const char* name, float* out) noexcept {
  const auto* value = FindAttribute(info, name);
  const double* number = value != nullptr ? std::get_if<double>(value) : nullptr;
  if (number == nullptr || out == nullptr) return MissingAttribute(info, name, "float");
  *out = static_cast<float>(*number);
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelInfoGetAttribute_int64(const OrtKernelInfo* info, const char* name, int64_t* out) noexcept {
  const auto* value = FindAttribute(info, name);
  const int64_t* number = value != nullptr ? std::get_if<int64_t>(value) : nullptr;
  if (number == nullptr || out == nullptr) return MissingAttribute(info, name, "int");
  *out = *number;
  return nullptr;
}
// ORT's size protocol for strings: *size includes the terminating NUL; a
// NULL `out` asks for the size; a short buffer is an error that reports it.
OrtStatus* CopyString(const std::string& text, char* out, size_t* size, const char* function) {
  const size_t needed = text.size() + 1;
  if (out == nullptr) {
    *size = needed;
    return nullptr;
  }
  if (*size < needed) {
    *size = needed;
    return MakeStatus(ORT_INVALID_ARGUMENT, std::string(function) + ": buffer too small");
  }
  std::memcpy(out, text.c_str(), needed);
  *size = needed;
  return nullptr;
}

OrtStatus* ORT_API_CALL KernelInfoGetAttribute_string(const OrtKernelInfo* info, const char* name, char* out,
                                                      size_t* size) noexcept {
  const auto* value = FindAttribute(info, name);
  const std::string* text = value != nullptr ? std::get_if<std::string>(value) : nullptr;
  if (text == nullptr || size == nullptr) return MissingAttribute(info, name, "string");
  return CopyString(*text, out, size, "KernelInfoGetAttribute_string");
}
template <typename Element, typename Stored>
OrtStatus* GetArray(const OrtKernelInfo* info, const char* name, Element* out, size_t* size, const char* type) {
  const auto* value = FindAttribute(info, name);
  const auto* values = value != nullptr ? std::get_if<std::vector<Stored>>(value) : nullptr;
  if (values == nullptr || size == nullptr) return MissingAttribute(info, name, type);
  if (out == nullptr) {
    *size = values->size();
    return nullptr;
  }
  if (*size < values->size()) {
    *size = values->size();
    return MakeStatus(ORT_INVALID_ARGUMENT, "KernelInfoGetAttributeArray: buffer too small");
  }
  for (size_t i = 0; i < values->size(); ++i) out[i] = static_cast<Element>((*values)[i]);
  *size = values->size();
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelInfoGetAttributeArray_float(const OrtKernelInfo* info, const char* name, float* out,
                                                          size_t* size) noexcept {
  return GetArray<float, double>(info, name, out, size, "floats");
}
OrtStatus* ORT_API_CALL KernelInfoGetAttributeArray_int64(const OrtKernelInfo* info, const char* name, int64_t* out,
                                                          size_t* size) noexcept {
  return GetArray<int64_t, int64_t>(info, name, out, size, "ints");
}
OrtStatus* ORT_API_CALL KernelInfo_GetInputCount(const OrtKernelInfo* info, size_t* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelInfo_GetInputCount: NULL");
  *out = info->input_count;
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelInfo_GetOutputCount(const OrtKernelInfo* info, size_t* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelInfo_GetOutputCount: NULL");
  *out = info->output_count;
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelInfo_GetNodeName(const OrtKernelInfo* info, char* out, size_t* size) noexcept {
  if (info == nullptr || size == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelInfo_GetNodeName: NULL");
  return CopyString(*info->node_name, out, size, "KernelInfo_GetNodeName");
}

OrtStatus* ORT_API_CALL KernelContext_GetInputCount(const OrtKernelContext* context, size_t* out) noexcept {
  if (context == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetInputCount: NULL");
  *out = context->inputs.size();
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelContext_GetOutputCount(const OrtKernelContext* context, size_t* out) noexcept {
  if (context == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetOutputCount: NULL");
  *out = context->outputs.size();
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelContext_GetInput(const OrtKernelContext* context, size_t index, const OrtValue** out) noexcept {
  if (context == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetInput: NULL");
  if (index >= context->inputs.size()) {
    return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetInput: input " + std::to_string(index) + " does not exist");
  }
  *out = &context->inputs[index];
  return nullptr;
}
OrtStatus* ORT_API_CALL KernelContext_GetOutput(OrtKernelContext* context, size_t index, const int64_t* dims,
                                                size_t dim_count, OrtValue** out) noexcept {
  if (context == nullptr || out == nullptr || (dim_count > 0 && dims == nullptr)) {
    return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetOutput: NULL");
  }
  if (index >= context->outputs.size()) {
    return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetOutput: output " + std::to_string(index) + " does not exist");
  }
  if (dim_count > OPBRIDGE_MAX_RANK) {
    return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetOutput: rank " + std::to_string(dim_count) +
                                                " exceeds the host's limit of " + std::to_string(OPBRIDGE_MAX_RANK));
  }
  OrtValue& value = context->outputs[index];
  std::vector<int64_t> shape(dims, dims + dim_count);
  if (value.storage.has_value()) {
    // Asking again for the same output returns it (as ORT does); another shape is an error.
    if (shape != value.shape) {
      return MakeStatus(ORT_INVALID_ARGUMENT, "KernelContext_GetOutput: output " + std::to_string(index) +
                                                  " was already allocated with another shape");
    }
    *out = &value;
    return nullptr;
  }
  try {
    value.storage.emplace(context->op->output_types[index], shape);
  } catch (const std::exception& error) {
    return MakeStatus(ORT_INVALID_ARGUMENT, std::string("KernelContext_GetOutput: ") + error.what());
  }
  value.dtype = context->op->output_types[index];
  value.shape = std::move(shape);
  value.data = value.storage->data();
  *out = &value;
  return nullptr;
}

OrtStatus* ORT_API_CALL IsTensor(const OrtValue* value, int* out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "IsTensor: NULL");
  *out = 1;
  return nullptr;
}
OrtStatus* ORT_API_CALL GetValueType(const OrtValue* value, ONNXType* out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetValueType: NULL");
  *out = ONNX_TYPE_TENSOR;
  return nullptr;
}
OrtStatus* ORT_API_CALL GetTensorMutableData(OrtValue* value, void** out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorMutableData: NULL");
  *out = value->data;
  return nullptr;
}
OrtStatus* ORT_API_CALL GetTensorData(const OrtValue* value, const void** out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorData: NULL");
  *out = value->data;
  return nullptr;
}
OrtStatus* ORT_API_CALL GetTensorTypeAndShape(const OrtValue* value, OrtTensorTypeAndShapeInfo** out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorTypeAndShape: NULL");
  try {
    *out = new OrtTensorTypeAndShapeInfo{value->dtype, value->shape};
  } catch (...) {
    return MakeStatus(ORT_FAIL, "GetTensorTypeAndShape: out of memory");
  }
  return nullptr;
}
void ORT_API_CALL ReleaseTensorTypeAndShapeInfo(OrtTensorTypeAndShapeInfo* info) noexcept { delete info; }
OrtStatus* ORT_API_CALL GetTensorElementType(const OrtTensorTypeAndShapeInfo* info, ONNXTensorElementDataType* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorElementType: NULL");
  *out = static_cast<ONNXTensorElementDataType>(info->dtype);
  return nullptr;
}
OrtStatus* ORT_API_CALL GetDimensionsCount(const OrtTensorTypeAndShapeInfo* info, size_t* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetDimensionsCount: NULL");
  *out = info->shape.size();
  return nullptr;
}
OrtStatus* ORT_API_CALL GetDimensions(const OrtTensorTypeAndShapeInfo* info, int64_t* dims, size_t length) noexcept {
  if (info == nullptr || (length > 0 && dims == nullptr)) return MakeStatus(ORT_INVALID_ARGUMENT, "GetDimensions: NULL");
  std::copy_n(info->shape.begin(), std::min(length, info->shape.size()), dims);
  return nullptr;
}
OrtStatus* ORT_API_CALL GetSymbolicDimensions(const OrtTensorTypeAndShapeInfo* info, const char** names,
                                              size_t length) noexcept {
  if (info == nullptr || (length > 0 && names == nullptr)) return MakeStatus(ORT_INVALID_ARGUMENT, "GetSymbolicDimensions: NULL");
  for (size_t i = 0; i < length; ++i) names[i] = "";  // run-time shapes are concrete
  return nullptr;
}
OrtStatus* ORT_API_CALL GetTensorShapeElementCount(const OrtTensorTypeAndShapeInfo* info, size_t* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorShapeElementCount: NULL");
  size_t count = 1;
  for (int64_t dim : info->shape) count *= static_cast<size_t>(dim);  // within limits: checked on creation
  *out = count;
  return nullptr;
}

// Tensor-valued attributes need ORT's allocator; the host has neither. Both
// entry points fail with a status (the plugin then reports or throws), so
// an op that asks for one gets a clear error instead of a NULL call.
constexpr char kNoTensorAttributes[] =
    "tensor-valued attributes are not supported by opbridge's ORT host (it provides no OrtAllocator)";
OrtStatus* ORT_API_CALL GetAllocatorWithDefaultOptions(OrtAllocator** out) noexcept {
  if (out != nullptr) *out = nullptr;
  return MakeStatus(ORT_NOT_IMPLEMENTED, kNoTensorAttributes);
}
OrtStatus* ORT_API_CALL KernelInfoGetAttribute_tensor(const OrtKernelInfo*, const char*, OrtAllocator*,
                                                      OrtValue** out) noexcept {
  if (out != nullptr) *out = nullptr;
  return MakeStatus(ORT_NOT_IMPLEMENTED, kNoTensorAttributes);
}

// Memory info: every tensor is on the CPU ("Cpu", device 0, default memory),
// which is what plugins built with ORT's C++ wrappers check before reading.
const OrtMemoryInfo kCpuMemory{OrtDeviceAllocator, OrtMemTypeDefault, true};
OrtStatus* ORT_API_CALL GetTensorMemoryInfo(const OrtValue* value, const OrtMemoryInfo** out) noexcept {
  if (value == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "GetTensorMemoryInfo: NULL");
  *out = &kCpuMemory;
  return nullptr;
}
OrtStatus* ORT_API_CALL CreateCpuMemoryInfo(OrtAllocatorType type, OrtMemType mem_type, OrtMemoryInfo** out) noexcept {
  if (out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "CreateCpuMemoryInfo: NULL");
  try {
    *out = new OrtMemoryInfo{type, mem_type, false};
  } catch (...) {
    return MakeStatus(ORT_FAIL, "CreateCpuMemoryInfo: out of memory");
  }
  return nullptr;
}
void ORT_API_CALL ReleaseMemoryInfo(OrtMemoryInfo* info) noexcept {
  if (info != nullptr && !info->immortal) delete info;
}
OrtStatus* ORT_API_CALL MemoryInfoGetName(const OrtMemoryInfo* info, const char** out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "MemoryInfoGetName: NULL");
  *out = "Cpu";
  return nullptr;
}
OrtStatus* ORT_API_CALL MemoryInfoGetId(const OrtMemoryInfo* info, int* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "MemoryInfoGetId: NULL");
  *out = 0;
  return nullptr;
}
OrtStatus* ORT_API_CALL MemoryInfoGetMemType(const OrtMemoryInfo* info, OrtMemType* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "MemoryInfoGetMemType: NULL");
  *out = info->mem_type;
  return nullptr;
}
OrtStatus* ORT_API_CALL MemoryInfoGetType(const OrtMemoryInfo* info, OrtAllocatorType* out) noexcept {
  if (info == nullptr || out == nullptr) return MakeStatus(ORT_INVALID_ARGUMENT, "MemoryInfoGetType: NULL");
  *out = info->type;
  return nullptr;
}

// The slots the host does not implement: rather than NULL (a plugin calling
// one would crash the process), each returns a status naming its slot. The
// status is the host's own and survives ReleaseStatus, so a slot whose real
// function returns void or a value leaks nothing when called. OrtApi is a
// table of function pointers only.
constexpr size_t kApiSlots = sizeof(OrtApi) / sizeof(void (*)());
static_assert(sizeof(OrtApi) % sizeof(void (*)()) == 0, "OrtApi holds only function pointers");
static_assert(kOrtApiNameCount == kApiSlots, "ort_api_names.py read a different OrtApi than the compiler");

template <size_t kSlot>
OrtStatus* ORT_API_CALL NotImplemented() noexcept {
  static OrtStatus status{ORT_NOT_IMPLEMENTED,
                          std::string("OrtApi::") + kOrtApiNames[kSlot] +
                              " is not implemented by opbridge's ORT host (docs/native_plugins.md lists the "
                              "functions it serves)",
                          true};
  return &status;
}

template <size_t... kSlots>
void FillUnimplemented(OrtApi& table, std::index_sequence<kSlots...>) {
  using Slot = OrtStatus*(ORT_API_CALL*)() noexcept;
  Slot stubs[] = {NotImplemented<kSlots>...};
  void (*slots[kApiSlots])();
  std::memcpy(slots, &table, sizeof(table));
  for (size_t i = 0; i < kApiSlots; ++i) {
    if (slots[i] == nullptr) slots[i] = reinterpret_cast<void (*)()>(stubs[i]);
  }
  std::memcpy(&table, slots, sizeof(table));
}

// The table: the functions below, then a "not implemented" stub in every
// other slot (FillUnimplemented).
const OrtApi* HostApi() {
  static const OrtApi api = [] {
    OrtApi table{};
    table.CreateStatus = CreateStatus;
    table.GetErrorCode = GetErrorCode;
    table.GetErrorMessage = GetErrorMessage;
    table.ReleaseStatus = ReleaseStatus;
    table.CreateCustomOpDomain = CreateCustomOpDomain;
    table.CustomOpDomain_Add = CustomOpDomain_Add;
    table.AddCustomOpDomain = AddCustomOpDomain;
    table.ReleaseCustomOpDomain = ReleaseCustomOpDomain;
    table.KernelInfoGetAttribute_float = KernelInfoGetAttribute_float;
    table.KernelInfoGetAttribute_int64 = KernelInfoGetAttribute_int64;
    table.KernelInfoGetAttribute_string = KernelInfoGetAttribute_string;
    table.KernelInfoGetAttributeArray_float = KernelInfoGetAttributeArray_float;
    table.KernelInfoGetAttributeArray_int64 = KernelInfoGetAttributeArray_int64;
    table.KernelInfo_GetInputCount = KernelInfo_GetInputCount;
    table.KernelInfo_GetOutputCount = KernelInfo_GetOutputCount;
    table.KernelInfo_GetNodeName = KernelInfo_GetNodeName;
    table.KernelContext_GetInputCount = KernelContext_GetInputCount;
    table.KernelContext_GetOutputCount = KernelContext_GetOutputCount;
    table.KernelContext_GetInput = KernelContext_GetInput;
    table.KernelContext_GetOutput = KernelContext_GetOutput;
    table.IsTensor = IsTensor;
    table.GetValueType = GetValueType;
    table.GetTensorMutableData = GetTensorMutableData;
    table.GetTensorData = GetTensorData;
    table.GetTensorTypeAndShape = GetTensorTypeAndShape;
    table.ReleaseTensorTypeAndShapeInfo = ReleaseTensorTypeAndShapeInfo;
    table.GetTensorElementType = GetTensorElementType;
    table.GetDimensionsCount = GetDimensionsCount;
    table.GetDimensions = GetDimensions;
    table.GetSymbolicDimensions = GetSymbolicDimensions;
    table.GetTensorShapeElementCount = GetTensorShapeElementCount;
    table.GetAllocatorWithDefaultOptions = GetAllocatorWithDefaultOptions;
    table.KernelInfoGetAttribute_tensor = KernelInfoGetAttribute_tensor;
    table.GetTensorMemoryInfo = GetTensorMemoryInfo;
    table.CreateCpuMemoryInfo = CreateCpuMemoryInfo;
    table.ReleaseMemoryInfo = ReleaseMemoryInfo;
    table.MemoryInfoGetName = MemoryInfoGetName;
    table.MemoryInfoGetId = MemoryInfoGetId;
    table.MemoryInfoGetMemType = MemoryInfoGetMemType;
    table.MemoryInfoGetType = MemoryInfoGetType;
    FillUnimplemented(table, std::make_index_sequence<kApiSlots>());
    return table;
  }();
  return &api;
}

const OrtApi* ORT_API_CALL GetApi(uint32_t version) noexcept {
  // Tables only ever grow: a plugin built against an older API gets the
  // same table. One built against a newer API than these headers is refused.
  return version >= 1 && version <= ORT_API_VERSION ? HostApi() : nullptr;
}
const char* ORT_API_CALL GetVersionString() noexcept { return "opbridge-ort-host"; }

const OrtApiBase kApiBase = {GetApi, GetVersionString};

using RegisterCustomOpsFn = OrtStatus*(ORT_API_CALL*)(OrtSessionOptions*, const OrtApiBase*);

// Whether an ONNX Runtime library (libonnxruntime*.so or the Python
// wheel's onnxruntime_pybind11_state*.so) is loaded in this process.
bool OnnxRuntimeIsLoaded() {
  bool loaded = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* found) {
        const char* name = info->dlpi_name != nullptr ? std::strrchr(info->dlpi_name, '/') : nullptr;
        name = name != nullptr ? name + 1 : (info->dlpi_name != nullptr ? info->dlpi_name : "");
        if (std::strncmp(name, "libonnxruntime", 14) == 0 || std::strncmp(name, "onnxruntime_pybind11_state", 26) == 0) {
          *static_cast<bool*>(found) = true;
        }
        return 0;
      },
      &loaded);
  return loaded;
}

bool ServableType(int32_t type) {
  return type != ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED && type != ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING &&
         opbridge_dtype_size(type) != 0;
}

std::string TypeName(int32_t type) {
  if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING) return "string";
  if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED) return "a generic type (UNDEFINED)";
  return ServableType(type) ? opbridge_dtype_name(type) : "ONNX element type " + std::to_string(type);
}

// Why an unservable element type is not served.
std::string TypeRemedy(int32_t type) {
  if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING) {
    return " (string tensors are not served: the host exchanges numeric arrays only; see docs/native_plugins.md)";
  }
  return " (only numeric element types are served; a generic type needs ONNX Runtime's type inference)";
}

// The OrtCustomOp version from which each member exists (ONNX Runtime reads a
// member only from these versions: a descriptor built against an older header
// ends before it, so reading it would read past the struct). Version 1 has
// CreateKernel, GetName, GetExecutionProviderType, the type callbacks,
// KernelCompute and KernelDestroy.
constexpr uint32_t kCharacteristicsSince = 8;  // GetInput/OutputCharacteristic
constexpr uint32_t kMemoryTypeSince = 13;      // GetInputMemoryType
constexpr uint32_t kStatusCallbacksSince = 16;  // CreateKernelV2, KernelComputeV2
constexpr uint32_t kOpsetRangeSince = 17;      // GetStartVersion, GetEndVersion (and InferOutputShapeFn)
constexpr uint32_t kAliasMapSince = 18;        // GetMayInplace, GetAliasMap and their releases

// Reads an op's descriptor; structural defects throw (the library is
// rejected), ops the host cannot run are kept with a reason. Members are read
// only from the OrtCustomOp version that has them (the constants above); the
// rest take ONNX Runtime's defaults: inputs and outputs required, default
// memory, opsets 1 and up, no aliases, the legacy CreateKernel/KernelCompute.
OrtOpInfo Describe(const OrtCustomOp* op, const std::string& domain, const std::string& path) {
  const std::string where = "plugin " + path + ", domain \"" + domain + "\"";
  if (op == nullptr) throw LoadError(where + ": registered a NULL OrtCustomOp");
  OrtOpInfo info;
  info.domain = domain;
  info.op = op;
  info.version = op->version;
  if (op->GetName == nullptr || op->GetName(op) == nullptr || op->GetName(op)[0] == '\0') {
    throw LoadError(where + ": an op has no GetName or an empty name");
  }
  info.name = op->GetName(op);
  const std::string label = where + ", op \"" + info.name + "\"";
  auto unsupported = [&info](const std::string& reason) {
    if (info.unsupported.empty()) info.unsupported = reason;
  };
  if (op->GetInputTypeCount == nullptr || op->GetInputType == nullptr || op->GetOutputTypeCount == nullptr ||
      op->GetOutputType == nullptr) {
    throw LoadError(label + ": GetInputType/GetInputTypeCount/GetOutputType/GetOutputTypeCount must be set");
  }
  const size_t inputs = op->GetInputTypeCount(op);
  const size_t outputs = op->GetOutputTypeCount(op);
  if (inputs > 64 || outputs > 64 || outputs == 0) {
    throw LoadError(label + ": declares " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) +
                    " outputs (expected 0..64 and 1..64)");
  }
  for (size_t i = 0; i < inputs; ++i) info.input_types.push_back(op->GetInputType(op, i));
  for (size_t i = 0; i < outputs; ++i) info.output_types.push_back(op->GetOutputType(op, i));
  if (op->version < kMinOpVersion || op->version > ORT_API_VERSION) {
    // ONNX Runtime, too, refuses descriptors newer than itself.
    info.unsupported = "built against ORT API version " + std::to_string(op->version) + "; this host serves " +
                       std::to_string(kMinOpVersion) + ".." + std::to_string(ORT_API_VERSION);
    return info;
  }
  for (size_t i = 0; i < inputs; ++i) {
    if (!ServableType(info.input_types[i])) {
      unsupported("input " + std::to_string(i) + " has " + TypeName(info.input_types[i]) + TypeRemedy(info.input_types[i]));
    }
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (!ServableType(info.output_types[i])) {
      unsupported("output " + std::to_string(i) + " has " + TypeName(info.output_types[i]) +
                  TypeRemedy(info.output_types[i]));
    }
  }
  if (op->GetExecutionProviderType != nullptr) {
    const char* provider = op->GetExecutionProviderType(op);
    if (provider != nullptr && std::strcmp(provider, "CPUExecutionProvider") != 0) {
      unsupported(std::string("runs on execution provider ") + provider + ", not the CPU");
    }
  }
  const uint32_t version = op->version;
  for (size_t i = 0; i < inputs && version >= kCharacteristicsSince && op->GetInputCharacteristic != nullptr; ++i) {
    // Optional inputs are served when the node gives them (ORT's "lite" C++
    // API, which onnxruntime-extensions uses, marks every input optional).
    if (op->GetInputCharacteristic(op, i) == INPUT_OUTPUT_VARIADIC) {
      unsupported("input " + std::to_string(i) + " is variadic");
    }
  }
  for (size_t i = 0; i < outputs && version >= kCharacteristicsSince && op->GetOutputCharacteristic != nullptr;
       ++i) {
    if (op->GetOutputCharacteristic(op, i) == INPUT_OUTPUT_VARIADIC) {
      unsupported("output " + std::to_string(i) + " is variadic");
    }
  }
  for (size_t i = 0; i < inputs && version >= kMemoryTypeSince && op->GetInputMemoryType != nullptr; ++i) {
    if (op->GetInputMemoryType(op, i) != OrtMemTypeDefault) {
      unsupported("input " + std::to_string(i) + " asks for non-default memory");
    }
  }
  // InferOutputShapeFn only helps graph-level shape inference: output shapes
  // are known here when the kernel allocates them, so it is never called.
  // GetMayInplace only permits reusing an input; outputs are always separate.
  if (version >= kAliasMapSince && op->GetAliasMap != nullptr) {
    // An alias means the output *is* an input's buffer, which the kernel may
    // then not write: such ops need ORT's memory planning.
    int* input_index = nullptr;
    int* output_index = nullptr;
    const size_t aliases = op->GetAliasMap(&input_index, &output_index);
    if (op->ReleaseAliasMap != nullptr) op->ReleaseAliasMap(input_index, output_index);
    if (aliases > 0) unsupported("declares outputs that alias inputs (GetAliasMap)");
  }
  if (version >= kOpsetRangeSince && op->GetStartVersion != nullptr) info.start_version = op->GetStartVersion(op);
  if (version >= kOpsetRangeSince && op->GetEndVersion != nullptr) info.end_version = op->GetEndVersion(op);
  if (info.start_version < 1 || info.end_version < info.start_version) {
    throw LoadError(label + ": opset range " + std::to_string(info.start_version) + ".." +
                    std::to_string(info.end_version) + " is empty or invalid");
  }
  if (op->KernelDestroy == nullptr) throw LoadError(label + ": KernelDestroy is NULL");
  if (version >= kStatusCallbacksSince && op->CreateKernelV2 != nullptr && op->KernelComputeV2 != nullptr) {
    info.status_callbacks = true;
  } else if (op->CreateKernel == nullptr || op->KernelCompute == nullptr) {
    throw LoadError(label + ": needs CreateKernelV2 and KernelComputeV2 (or the legacy CreateKernel and KernelCompute)");
  }
  return info;
}

std::string TypeList(const std::vector<int32_t>& types) {
  std::string text;
  for (int32_t type : types) text += (text.empty() ? "" : ", ") + TypeName(type);
  return "(" + text + ")";
}

}  // namespace

std::shared_ptr<OrtPluginLibrary> OrtPluginLibrary::Open(const std::string& path) {
  std::shared_ptr<OrtPluginLibrary> library(new OrtPluginLibrary());
  library->path_ = plugin::ResolveLibraryPath(path);
  const plugin::ElfFacts facts = plugin::ReadElfFacts(library->path_);
  for (const std::string& needed : facts.needed) {
    if (needed.rfind("libonnxruntime", 0) == 0) {
      throw LoadError("plugin " + library->path_ + " links ONNX Runtime (it needs " + needed +
                      "); this host never loads ONNX Runtime. Custom-op libraries get the API from "
                      "RegisterCustomOps: build it without linking onnxruntime (with the C++ wrapper, define "
                      "ORT_API_MANUAL_INIT and call Ort::InitApi in RegisterCustomOps)");
    }
  }
  // GNU-unique symbols (an exported function-local static, such as the
  // OrtApi pointer of ORT's C++ wrapper) are shared by every copy of the
  // library in the process, so a private instance would not be private.
  library->unique_symbols_ = facts.unique_symbols;
  if (!facts.unique_symbols.empty() && OnnxRuntimeIsLoaded()) {
    throw LoadError("plugin " + library->path_ + " exports GNU-unique symbols (" + facts.unique_symbols.front() +
                    (facts.unique_symbols.size() > 1 ? ", ..." : "") +
                    ") that the process shares with ONNX Runtime, which is loaded here: both would use one "
                    "copy of the library's globals. Host it in a process without ONNX Runtime, or build it with "
                    "-fvisibility=hidden");
  }
  // A library with GNU-unique symbols cannot have a private instance: the
  // copy's unique symbols bind to the original's, so state the copy leaves
  // there (ORT's C++ wrapper, onnxruntime-extensions: a static registry of
  // descriptors pointing into the copy's code) would outlive the copy once
  // it is unloaded, and the next load would call into unmapped code. glibc
  // keeps such a library loaded anyway; the host says so (RTLD_NODELETE),
  // loads it once per process and registers it again on each load, as ONNX
  // Runtime does for each session.
  const bool keep_loaded = !facts.unique_symbols.empty();
  library->original_ = plugin::OpenLibrary(library->path_, keep_loaded ? RTLD_NODELETE : 0);
  if (dlsym(library->original_.get(), "RegisterCustomOps") == nullptr) {
    throw LoadError("plugin " + library->path_ +
                    " does not export RegisterCustomOps(OrtSessionOptions*, const OrtApiBase*); "
                    "is it an ONNX Runtime custom-op library?");
  }
  // ORT's C++ wrapper keeps the OrtApi pointer it is registered with in a
  // process-global: a private instance keeps ONNX Runtime (or another
  // session) using the same file in this process from switching it.
  library->handle_ = keep_loaded ? plugin::OpenLibrary(library->path_, RTLD_NODELETE)
                                 : plugin::OpenPrivateInstance(library->path_, library->original_);
  dlerror();
  auto register_ops = reinterpret_cast<RegisterCustomOpsFn>(dlsym(library->handle_.get(), "RegisterCustomOps"));
  if (register_ops == nullptr) {
    throw LoadError("plugin " + library->path_ +
                    " does not export RegisterCustomOps(OrtSessionOptions*, const OrtApiBase*); "
                    "is it an ONNX Runtime custom-op library?");
  }
  OrtSessionOptions options;
  OrtStatus* status = nullptr;
  try {
    status = register_ops(&options, &kApiBase);
  } catch (const std::exception& error) {
    throw LoadError("plugin " + library->path_ + ": RegisterCustomOps threw: " + error.what());
  } catch (...) {
    throw LoadError("plugin " + library->path_ + ": RegisterCustomOps threw a non-standard exception");
  }
  if (status != nullptr) {
    const std::string message = status->message;
    ReleaseStatus(status);
    throw LoadError("plugin " + library->path_ + ": RegisterCustomOps failed: " + message);
  }
  if (options.domains.empty()) throw LoadError("plugin " + library->path_ + " registered no custom-op domain");
  std::set<std::tuple<std::string, std::string, std::vector<int32_t>>> seen;
  for (const OrtCustomOpDomain* domain : options.domains) {
    if (domain->ops.empty()) {
      throw LoadError("plugin " + library->path_ + ": domain \"" + domain->name + "\" has no ops");
    }
    for (const OrtCustomOp* op : domain->ops) {
      OrtOpInfo info = Describe(op, domain->name, library->path_);
      if (!seen.emplace(info.domain, info.name, info.input_types).second) {
        throw LoadError("plugin " + library->path_ + " registers " + info.domain + "::" + info.name +
                        " twice for input types " + TypeList(info.input_types));
      }
      library->ops_.push_back(std::move(info));
    }
  }
  return library;
}

OrtPluginLibrary::~OrtPluginLibrary() = default;

const OrtOpInfo& OrtPluginLibrary::Select(const std::string& domain, const std::string& name, int64_t opset,
                                          const std::vector<int32_t>& input_types) const {
  const std::string label = domain + "::" + name;
  std::vector<const OrtOpInfo*> named;
  for (const OrtOpInfo& op : ops_) {
    if (op.domain == domain && op.name == name) named.push_back(&op);
  }
  if (named.empty()) {
    std::string known;
    for (const OrtOpInfo& op : ops_) known += (known.empty() ? "" : ", ") + op.domain + "::" + op.name;
    throw InvalidInput("plugin " + path_ + " has no op " + label + " (it registers: " + known + ")");
  }
  for (const OrtOpInfo* op : named) {
    if (op->input_types != input_types) continue;
    if (!op->unsupported.empty()) {
      throw InvalidInput("op " + label + " of plugin " + path_ + " cannot be hosted: " + op->unsupported);
    }
    if (opset < op->start_version || opset > op->end_version) {
      throw InvalidInput("op " + label + " supports opset " + std::to_string(op->start_version) + ".." +
                         std::to_string(op->end_version) + " of domain \"" + domain + "\", the model imports " +
                         std::to_string(opset));
    }
    return *op;
  }
  std::string overloads;
  for (const OrtOpInfo* op : named) overloads += (overloads.empty() ? "" : ", ") + TypeList(op->input_types);
  throw InvalidInput("op " + label + " has no overload for input types " + TypeList(input_types) +
                     "; the plugin registers " + overloads + " (inputs are never converted)");
}

OrtKernel::OrtKernel(std::shared_ptr<OrtPluginLibrary> library, const OrtOpInfo& op, Attributes attributes,
                     std::string node_name)
    : library_(std::move(library)), op_(op), attributes_(std::move(attributes)), node_name_(std::move(node_name)) {}

OrtKernel::~OrtKernel() {
  if (created_) {
    try {
      op_.op->KernelDestroy(kernel_);
    } catch (...) {
      // A destructor must not throw; the kernel is gone either way.
    }
  }
}

std::string OrtKernel::Where() const { return "node \"" + node_name_ + "\" (" + op_.domain + "::" + op_.name + ")"; }

std::vector<HostTensor> OrtKernel::Compute(const std::vector<TensorRef>& inputs) {
  if (inputs.size() != op_.input_types.size()) {
    throw InvalidInput(Where() + " takes " + std::to_string(op_.input_types.size()) + " input(s), got " +
                       std::to_string(inputs.size()));
  }
  OrtKernelContext context{&op_, {}, {}};
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype != op_.input_types[i]) {
      throw InvalidInput(Where() + ": input " + std::to_string(i) + " is " + TypeName(inputs[i].dtype) +
                         ", the op takes " + TypeName(op_.input_types[i]) + " (inputs are never converted)");
    }
    plugin::CheckTensorLimits(inputs[i].dtype, inputs[i].shape, Where() + ": input " + std::to_string(i));
    // The API hands out mutable pointers to inputs: the plugin gets a copy.
    OrtValue value;
    value.dtype = inputs[i].dtype;
    value.shape = inputs[i].shape;
    value.storage.emplace(inputs[i].dtype, inputs[i].shape);
    if (value.storage->bytes() > 0) std::memcpy(value.storage->data(), inputs[i].data, value.storage->bytes());
    value.data = value.storage->data();
    context.inputs.push_back(std::move(value));
  }
  context.outputs.resize(op_.output_types.size());
  const OrtCustomOp* op = op_.op;
  if (!created_) {
    OrtKernelInfo info{&attributes_, &node_name_, op_.input_types.size(), op_.output_types.size()};
    try {
      if (op_.status_callbacks) {
        OrtStatus* status = op->CreateKernelV2(op, HostApi(), &info, &kernel_);
        if (status != nullptr) {
          const std::string message = status->message;
          ReleaseStatus(status);
          throw KernelError(Where() + ": kernel creation failed: " + message);
        }
      } else {
        kernel_ = op->CreateKernel(op, HostApi(), &info);
      }
    } catch (const KernelError&) {
      throw;
    } catch (const std::exception& error) {
      throw KernelError(Where() + ": kernel creation failed: " + error.what());
    } catch (...) {
      throw KernelError(Where() + ": kernel creation threw a non-standard exception");
    }
    created_ = true;
  }
  try {
    if (op_.status_callbacks) {
      OrtStatus* status = op->KernelComputeV2(kernel_, &context);
      if (status != nullptr) {
        const std::string message = status->message;
        ReleaseStatus(status);
        throw KernelError(Where() + ": compute failed: " + message);
      }
    } else {
      op->KernelCompute(kernel_, &context);
    }
  } catch (const KernelError&) {
    throw;
  } catch (const std::exception& error) {
    throw KernelError(Where() + ": compute failed: " + error.what());
  } catch (...) {
    throw KernelError(Where() + ": compute threw a non-standard exception");
  }
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < context.outputs.size(); ++i) {
    if (!context.outputs[i].storage.has_value()) {
      throw KernelError(Where() + ": compute returned without producing output " + std::to_string(i));
    }
    outputs.push_back(std::move(*context.outputs[i].storage));
  }
  return outputs;
}

}  // namespace opbridge::ort
