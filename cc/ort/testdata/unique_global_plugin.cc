// SPDX-License-Identifier: Apache-2.0
// An ORT custom-op library that keeps its OrtApi pointer the way ORT's C++
// wrapper does, in a function-local static of an inline function, built
// with default visibility: GCC exports it as a GNU-unique symbol, which the
// dynamic loader shares between every copy of the library in a process.
// The host must notice (cc/ort/ort_host_test.cc, tests/native_plugins).
// com.test::Negate: y = -x, float32.
#include <cstdint>

#include "onnxruntime_c_api.h"

inline const OrtApi*& GlobalApi() {
  static const OrtApi* api = nullptr;
  return api;
}

namespace {

OrtStatus* ORT_API_CALL Create(const OrtCustomOp*, const OrtApi*, const OrtKernelInfo*, void** kernel) noexcept {
  *kernel = nullptr;
  return nullptr;
}

OrtStatus* ORT_API_CALL Compute(void*, OrtKernelContext* context) noexcept {
  const OrtApi* api = GlobalApi();
  const OrtValue* input = nullptr;
  if (OrtStatus* status = api->KernelContext_GetInput(context, 0, &input)) return status;
  OrtTensorTypeAndShapeInfo* info = nullptr;
  if (OrtStatus* status = api->GetTensorTypeAndShape(input, &info)) return status;
  size_t rank = 0;
  size_t count = 0;
  int64_t dims[16];
  OrtStatus* status = api->GetDimensionsCount(info, &rank);
  if (status == nullptr && rank > 16) status = api->CreateStatus(ORT_INVALID_ARGUMENT, "Negate: rank above 16");
  if (status == nullptr) status = api->GetDimensions(info, dims, rank);
  if (status == nullptr) status = api->GetTensorShapeElementCount(info, &count);
  api->ReleaseTensorTypeAndShapeInfo(info);
  if (status != nullptr) return status;
  OrtValue* output = nullptr;
  if ((status = api->KernelContext_GetOutput(context, 0, dims, rank, &output))) return status;
  const void* x = nullptr;
  void* y = nullptr;
  if ((status = api->GetTensorData(input, &x))) return status;
  if ((status = api->GetTensorMutableData(output, &y))) return status;
  for (size_t i = 0; i < count; ++i) static_cast<float*>(y)[i] = -static_cast<const float*>(x)[i];
  return nullptr;
}

struct NegateOp : OrtCustomOp {
  NegateOp() : OrtCustomOp{} {
    version = ORT_API_VERSION;
    GetName = [](const OrtCustomOp*) { return "Negate"; };
    GetExecutionProviderType = [](const OrtCustomOp*) { return "CPUExecutionProvider"; };
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetInputType = [](const OrtCustomOp*, size_t) { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; };
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetOutputType = [](const OrtCustomOp*, size_t) { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; };
    GetInputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetOutputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetInputMemoryType = [](const OrtCustomOp*, size_t) { return OrtMemTypeDefault; };
    CreateKernelV2 = Create;
    KernelComputeV2 = Compute;
    KernelDestroy = [](void*) {};
  }
} negate_op;

OrtCustomOpDomain* domain = nullptr;

struct ReleaseDomain {
  ~ReleaseDomain() {
    if (domain != nullptr && GlobalApi() != nullptr) GlobalApi()->ReleaseCustomOpDomain(domain);
  }
} release_domain;

}  // namespace

extern "C" OrtStatus* ORT_API_CALL RegisterCustomOps(OrtSessionOptions* options, const OrtApiBase* api_base) {
  GlobalApi() = api_base->GetApi(ORT_API_VERSION);
  const OrtApi* api = GlobalApi();
  if (api == nullptr) return nullptr;
  if (domain == nullptr) {
    if (OrtStatus* status = api->CreateCustomOpDomain("com.test", &domain)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &negate_op)) return status;
  }
  return api->AddCustomOpDomain(options, domain);
}
