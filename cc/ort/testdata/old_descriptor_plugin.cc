// SPDX-License-Identifier: Apache-2.0
// An ORT custom-op library whose descriptors say OrtCustomOp version 17,
// older than the host serves, with two type overloads of one op: the
// library must still load (overloads told apart by their types), and using
// the op must name the version as the reason.
#include <cstdint>

#include "onnxruntime_c_api.h"

namespace {

template <ONNXTensorElementDataType kType>
struct OldOp : OrtCustomOp {
  OldOp() : OrtCustomOp{} {
    version = 17;
    GetName = [](const OrtCustomOp*) { return "Old"; };
    GetExecutionProviderType = [](const OrtCustomOp*) { return "CPUExecutionProvider"; };
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetInputType = [](const OrtCustomOp*, size_t) { return kType; };
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetOutputType = [](const OrtCustomOp*, size_t) { return kType; };
    CreateKernel = [](const OrtCustomOp*, const OrtApi*, const OrtKernelInfo*) -> void* { return nullptr; };
    KernelCompute = [](void*, OrtKernelContext*) {};
    KernelDestroy = [](void*) {};
  }
};

OldOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT> float_op;
OldOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE> double_op;
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
  api = api_base->GetApi(17);
  if (api == nullptr) return nullptr;
  if (domain == nullptr) {
    if (OrtStatus* status = api->CreateCustomOpDomain("com.test", &domain)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &float_op)) return status;
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, &double_op)) return status;
  }
  return api->AddCustomOpDomain(options, domain);
}
