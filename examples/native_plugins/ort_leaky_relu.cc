// SPDX-License-Identifier: Apache-2.0
// An ONNX Runtime custom-op library (the ORT C API only, no C++ wrappers)
// with com.example::LeakyRelu for float16, bfloat16, float32 and float64:
// one OrtCustomOp per element type, as ORT selects overloads by type.
// It loads into real onnxruntime (SessionOptions.register_custom_ops_library)
// and into opbridge's ORT-ABI host (cc/ort), which needs no ORT.
#include <cstdint>
#include <mutex>
#include <new>

#include "examples/native_plugins/leaky_relu_math.h"
#include "onnxruntime_c_api.h"

namespace {

struct Kernel {
  const OrtApi* api;
  float alpha;
};

// A status for an error, or the API's own status passed through.
OrtStatus* Fail(const OrtApi* api, OrtErrorCode code, const char* message) { return api->CreateStatus(code, message); }

template <ONNXTensorElementDataType kType>
struct LeakyReluOp : OrtCustomOp {
  LeakyReluOp() : OrtCustomOp{} {
    version = ORT_API_VERSION;
    GetName = [](const OrtCustomOp*) { return "LeakyRelu"; };
    GetExecutionProviderType = [](const OrtCustomOp*) { return "CPUExecutionProvider"; };
    GetInputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetInputType = [](const OrtCustomOp*, size_t) { return kType; };
    GetOutputTypeCount = [](const OrtCustomOp*) -> size_t { return 1; };
    GetOutputType = [](const OrtCustomOp*, size_t) { return kType; };
    GetInputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetOutputCharacteristic = [](const OrtCustomOp*, size_t) { return INPUT_OUTPUT_REQUIRED; };
    GetInputMemoryType = [](const OrtCustomOp*, size_t) { return OrtMemTypeDefault; };
    GetVariadicInputMinArity = [](const OrtCustomOp*) { return 1; };
    GetVariadicInputHomogeneity = [](const OrtCustomOp*) { return 1; };
    GetVariadicOutputMinArity = [](const OrtCustomOp*) { return 1; };
    GetVariadicOutputHomogeneity = [](const OrtCustomOp*) { return 1; };
    GetStartVersion = [](const OrtCustomOp*) { return 1; };
    GetEndVersion = [](const OrtCustomOp*) { return 1; };
    CreateKernelV2 = Create;
    KernelComputeV2 = Compute;
    KernelDestroy = [](void* kernel) { delete static_cast<Kernel*>(kernel); };
  }

  static OrtStatus* ORT_API_CALL Create(const OrtCustomOp*, const OrtApi* api, const OrtKernelInfo* info,
                                        void** kernel) noexcept {
    float alpha = 0.0f;
    if (OrtStatus* status = api->KernelInfoGetAttribute_float(info, "alpha", &alpha)) return status;
    *kernel = new (std::nothrow) Kernel{api, alpha};
    return *kernel != nullptr ? nullptr : Fail(api, ORT_FAIL, "LeakyRelu: out of memory");
  }

  static OrtStatus* ORT_API_CALL Compute(void* opaque, OrtKernelContext* context) noexcept {
    const Kernel& kernel = *static_cast<Kernel*>(opaque);
    const OrtApi* api = kernel.api;
    const OrtValue* input = nullptr;
    if (OrtStatus* status = api->KernelContext_GetInput(context, 0, &input)) return status;
    OrtTensorTypeAndShapeInfo* info = nullptr;
    if (OrtStatus* status = api->GetTensorTypeAndShape(input, &info)) return status;
    size_t rank = 0;
    size_t count = 0;
    int64_t dims[16];
    OrtStatus* status = api->GetDimensionsCount(info, &rank);
    if (status == nullptr && rank > 16) status = Fail(api, ORT_INVALID_ARGUMENT, "LeakyRelu: rank above 16");
    if (status == nullptr) status = api->GetDimensions(info, dims, rank);
    if (status == nullptr) status = api->GetTensorShapeElementCount(info, &count);
    api->ReleaseTensorTypeAndShapeInfo(info);
    if (status != nullptr) return status;
    OrtValue* output = nullptr;
    if ((status = api->KernelContext_GetOutput(context, 0, dims, rank, &output))) return status;
    void* x = nullptr;
    void* y = nullptr;
    if ((status = api->GetTensorMutableData(const_cast<OrtValue*>(input), &x))) return status;
    if ((status = api->GetTensorMutableData(output, &y))) return status;
    Apply(x, y, count, kernel.alpha);
    return nullptr;
  }

  static void Apply(const void* x, void* y, size_t count, float alpha) {
    if constexpr (kType == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
      for (size_t i = 0; i < count; ++i) {
        static_cast<float*>(y)[i] = leaky_relu::Apply(static_cast<const float*>(x)[i], alpha);
      }
    } else if constexpr (kType == ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE) {
      for (size_t i = 0; i < count; ++i) {
        static_cast<double*>(y)[i] = leaky_relu::Apply(static_cast<const double*>(x)[i], static_cast<double>(alpha));
      }
    } else {
      const bool half = kType == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
      const auto* in = static_cast<const uint16_t*>(x);
      auto* out = static_cast<uint16_t*>(y);
      for (size_t i = 0; i < count; ++i) {
        const float value = half ? leaky_relu::Float16ToFloat(in[i]) : leaky_relu::BFloat16ToFloat(in[i]);
        const float result = leaky_relu::Apply(value, alpha);
        out[i] = half ? leaky_relu::FloatToFloat16(result) : leaky_relu::FloatToBFloat16(result);
      }
    }
  }
};

LeakyReluOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT> float_op;
LeakyReluOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE> double_op;
LeakyReluOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16> float16_op;
LeakyReluOp<ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16> bfloat16_op;

// The domains this library created; ORT requires them to outlive every
// session using them, so they are released only when the library unloads.
struct Domains {
  std::mutex mutex;
  const OrtApi* api = nullptr;
  OrtCustomOpDomain* list[64] = {};
  int count = 0;
  ~Domains() {
    for (int i = 0; i < count; ++i) api->ReleaseCustomOpDomain(list[i]);
  }
} domains;

}  // namespace

extern "C" __attribute__((visibility("default"))) OrtStatus* ORT_API_CALL RegisterCustomOps(
    OrtSessionOptions* options, const OrtApiBase* api_base) {
  const OrtApi* api = api_base->GetApi(ORT_API_VERSION);
  if (api == nullptr) return nullptr;  // cannot even report: the runtime is older than this library
  std::lock_guard<std::mutex> lock(domains.mutex);
  if (domains.count == 64) return api->CreateStatus(ORT_FAIL, "LeakyRelu: registered 64 times already");
  OrtCustomOpDomain* domain = nullptr;
  if (OrtStatus* status = api->CreateCustomOpDomain("com.example", &domain)) return status;
  domains.api = api;
  domains.list[domains.count++] = domain;
  for (const OrtCustomOp* op : {static_cast<const OrtCustomOp*>(&float_op), static_cast<const OrtCustomOp*>(&double_op),
                                static_cast<const OrtCustomOp*>(&float16_op),
                                static_cast<const OrtCustomOp*>(&bfloat16_op)}) {
    if (OrtStatus* status = api->CustomOpDomain_Add(domain, op)) return status;
  }
  return api->AddCustomOpDomain(options, domain);
}
