// SPDX-License-Identifier: Apache-2.0
// An ORT custom-op library with a bug of the worst kind, for the isolated
// host (CustomOpSession(..., isolate=True)): "Crash" dereferences NULL in
// its compute; "Twice" (y = 2x, float) works, so a model can run a good node
// before the bad one.
#include <cstdint>

#include "onnxruntime_c_api.h"

namespace {

const OrtApi* api = nullptr;

OrtStatusPtr Twice(void*, OrtKernelContext* context) {
  const OrtValue* input = nullptr;
  OrtTensorTypeAndShapeInfo* info = nullptr;
  if (OrtStatus* status = api->KernelContext_GetInput(context, 0, &input)) return status;
  if (OrtStatus* status = api->GetTensorTypeAndShape(input, &info)) return status;
  size_t rank = 0;
  size_t count = 0;
  int64_t dims[16] = {};
  OrtStatus* status = api->GetDimensionsCount(info, &rank);
  if (status == nullptr && rank > 16) status = api->CreateStatus(ORT_INVALID_ARGUMENT, "Twice: rank above 16");
  if (status == nullptr) status = api->GetTensorShapeElementCount(info, &count);
  if (status == nullptr) status = api->GetDimensions(info, dims, rank);
  api->ReleaseTensorTypeAndShapeInfo(info);
  if (status != nullptr) return status;
  const void* x = nullptr;
  void* y = nullptr;
  OrtValue* output = nullptr;
  if (OrtStatus* failed = api->GetTensorData(input, &x)) return failed;
  if (OrtStatus* failed = api->KernelContext_GetOutput(context, 0, dims, rank, &output)) return failed;
  if (OrtStatus* failed = api->GetTensorMutableData(output, &y)) return failed;
  for (size_t i = 0; i < count; ++i) static_cast<float*>(y)[i] = 2.0f * static_cast<const float*>(x)[i];
  return nullptr;
}

OrtStatusPtr Crash(void*, OrtKernelContext*) {
  volatile int* nowhere = nullptr;
  *nowhere = 1;  // the bug: SIGSEGV
  return nullptr;
}

template <OrtStatusPtr (*kCompute)(void*, OrtKernelContext*)>
struct FloatOp : OrtCustomOp {
  explicit FloatOp(const char* (*name)(const OrtCustomOp*)) : OrtCustomOp{} {
    version = ORT_API_VERSION;
    GetName = name;
    GetExecutionProviderType = [](const OrtCustomOp*) -> const char* { return nullptr; };
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetInputType = [](const OrtCustomOp*, size_t) { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; };
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetOutputType = [](const OrtCustomOp*, size_t) { return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT; };
    GetInputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetOutputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetInputMemoryType = [](const OrtCustomOp*, size_t) { return OrtMemTypeDefault; };
    CreateKernelV2 = [](const OrtCustomOp*, const OrtApi*, const OrtKernelInfo*, void** kernel) -> OrtStatusPtr {
      *kernel = nullptr;
      return nullptr;
    };
    KernelComputeV2 = kCompute;
    KernelDestroy = [](void*) {};
    GetStartVersion = [](const OrtCustomOp*) { return 1; };
    GetEndVersion = [](const OrtCustomOp*) { return 1; };
  }
};

FloatOp<Twice> twice_op([](const OrtCustomOp*) { return "Twice"; });
FloatOp<Crash> crash_op([](const OrtCustomOp*) { return "Crash"; });
OrtCustomOpDomain* domain = nullptr;

struct ReleaseDomain {
  ~ReleaseDomain() {
    if (domain != nullptr) api->ReleaseCustomOpDomain(domain);
  }
} release_domain;

}  // namespace

extern "C" __attribute__((visibility("default"))) OrtStatus* ORT_API_CALL RegisterCustomOps(
    OrtSessionOptions* options, const OrtApiBase* api_base) {
  api = api_base->GetApi(ORT_API_VERSION);
  if (api == nullptr) return nullptr;
  if (domain == nullptr) {
    if (OrtStatus* status = api->CreateCustomOpDomain("com.test", &domain)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &twice_op)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &crash_op)) return status;
  }
  return api->AddCustomOpDomain(options, domain);
}
