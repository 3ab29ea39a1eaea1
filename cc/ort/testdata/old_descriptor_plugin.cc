// SPDX-License-Identifier: Apache-2.0
// An ORT custom-op library with descriptors older than the status-returning
// callbacks: OrtCustomOp version 11 (what onnxruntime-extensions registers)
// for float and version 1 (the first layout) for double, one op "AddOne"
// (y = x + 1) computed through the legacy CreateKernel/KernelCompute.
//
// The members those versions do not define are filled with values a host
// would trip over if it read them, as it would read past a real old
// descriptor's end: CreateKernelV2/KernelComputeV2 fail, the opset range
// starts at 7, the input memory is not the default, an output aliases an
// input, and (for version 1) the inputs are optional.
#include <cstdint>

#include "onnxruntime_c_api.h"

namespace {

struct Kernel {
  const OrtApi* api;
};

// True if `status` is success; a failure is released (a legacy KernelCompute
// has no way to report it: the host then finds no output).
bool Ok(const OrtApi* api, OrtStatus* status) {
  if (status == nullptr) return true;
  api->ReleaseStatus(status);
  return false;
}

template <typename T>
void AddOne(void* state, OrtKernelContext* context) {
  const OrtApi* api = static_cast<Kernel*>(state)->api;
  const OrtValue* input = nullptr;
  OrtTensorTypeAndShapeInfo* info = nullptr;
  if (!Ok(api, api->KernelContext_GetInput(context, 0, &input))) return;
  if (!Ok(api, api->GetTensorTypeAndShape(input, &info))) return;
  size_t rank = 0;
  size_t count = 0;
  int64_t dims[16] = {};
  const bool shaped = Ok(api, api->GetDimensionsCount(info, &rank)) && rank <= 16 &&
                      Ok(api, api->GetTensorShapeElementCount(info, &count)) &&
                      Ok(api, api->GetDimensions(info, dims, rank));
  api->ReleaseTensorTypeAndShapeInfo(info);
  const void* x = nullptr;
  void* y = nullptr;
  OrtValue* output = nullptr;
  if (!shaped || !Ok(api, api->GetTensorData(input, &x))) return;
  if (!Ok(api, api->KernelContext_GetOutput(context, 0, dims, rank, &output))) return;
  if (!Ok(api, api->GetTensorMutableData(output, &y))) return;
  for (size_t i = 0; i < count; ++i) static_cast<T*>(y)[i] = static_cast<const T*>(x)[i] + T(1);
}

OrtStatusPtr Poisoned(const OrtCustomOp*, const OrtApi* api, const OrtKernelInfo*, void**) {
  return api->CreateStatus(ORT_FAIL, "CreateKernelV2 read from a descriptor older than version 16");
}

template <uint32_t kVersion, ONNXTensorElementDataType kType, typename T>
struct OldOp : OrtCustomOp {
  OldOp() : OrtCustomOp{} {
    version = kVersion;
    GetName = [](const OrtCustomOp*) { return "AddOne"; };
    GetExecutionProviderType = [](const OrtCustomOp*) -> const char* { return nullptr; };
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetInputType = [](const OrtCustomOp*, size_t) { return kType; };
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetOutputType = [](const OrtCustomOp*, size_t) { return kType; };
    CreateKernel = [](const OrtCustomOp*, const OrtApi* api, const OrtKernelInfo*) -> void* {
      return new Kernel{api};
    };
    KernelCompute = AddOne<T>;
    KernelDestroy = [](void* state) { delete static_cast<Kernel*>(state); };
    // Past the end of a version-1 descriptor (characteristics exist from 8).
    if (kVersion < 8) {
      GetInputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_OPTIONAL; };
    }
    // Past the end of a version-11 descriptor.
    GetInputMemoryType = [](const OrtCustomOp*, size_t) { return OrtMemTypeCPUInput; };
    CreateKernelV2 = Poisoned;
    KernelComputeV2 = [](void*, OrtKernelContext*) -> OrtStatusPtr { return nullptr; };
    GetStartVersion = [](const OrtCustomOp*) { return 7; };
    GetAliasMap = [](int** inputs, int** outputs) -> size_t {
      static int zero = 0;
      *inputs = &zero;
      *outputs = &zero;
      return 1;
    };
    ReleaseAliasMap = [](int*, int*) {};
  }
};

OldOp<11, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT, float> float_op;
OldOp<1, ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE, double> double_op;
OrtCustomOpDomain* domain = nullptr;
const OrtApi* api = nullptr;

struct ReleaseDomain {
  ~ReleaseDomain() {
    if (domain != nullptr) api->ReleaseCustomOpDomain(domain);
  }
} release_domain;

}  // namespace

extern "C" __attribute__((visibility("default"))) OrtStatus* ORT_API_CALL RegisterCustomOps(
    OrtSessionOptions* options, const OrtApiBase* api_base) {
  api = api_base->GetApi(11);
  if (api == nullptr) return nullptr;
  if (domain == nullptr) {
    if (OrtStatus* status = api->CreateCustomOpDomain("com.test", &domain)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &float_op)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &double_op)) return status;
  }
  return api->AddCustomOpDomain(options, domain);
}
