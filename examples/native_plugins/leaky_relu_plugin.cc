// SPDX-License-Identifier: Apache-2.0
// An opbridge-ABI plugin (cc/plugin/opbridge_plugin.h) with one op,
// com.example::LeakyRelu (opset 1): y = x if x >= 0 else alpha * x, in
// float16, bfloat16, float32 and float64. `alpha` is a required float
// attribute, so that a node without it fails with a clear error.
#include <cstdint>
#include <new>
#include <string>

#include "cc/plugin/opbridge_plugin.h"
#include "examples/native_plugins/leaky_relu_math.h"

namespace {

struct Kernel {
  float alpha;
};

constexpr uint32_t kFloatTypes = OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT16) |
                                 OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_BFLOAT16) |
                                 OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT64);
const uint32_t kInputTypes[] = {kFloatTypes};
const uint32_t kOutputTypes[] = {kFloatTypes};

int32_t Create(const OpbridgeHostApi* host, const OpbridgeKernelInfo* info, void** kernel, OpbridgeStatus* status) {
  double alpha = 0.0;
  if (host->attribute_float(info, "alpha", &alpha) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT,
                    "LeakyRelu needs a float attribute \"alpha\" (the slope for x < 0)");
    return OPBRIDGE_PLUGIN_INVALID_ARGUMENT;
  }
  *kernel = new (std::nothrow) Kernel{static_cast<float>(alpha)};
  if (*kernel == nullptr) {
    host->set_error(status, OPBRIDGE_PLUGIN_FAILED, "out of memory");
    return OPBRIDGE_PLUGIN_FAILED;
  }
  return OPBRIDGE_PLUGIN_OK;
}

template <typename Element, typename Load, typename Store>
void Map(const void* input, void* output, int64_t count, float alpha, Load load, Store store) {
  const auto* x = static_cast<const Element*>(input);
  auto* y = static_cast<Element*>(output);
  for (int64_t i = 0; i < count; ++i) y[i] = store(leaky_relu::Apply(load(x[i]), alpha));
}

int32_t Compute(const OpbridgeHostApi* host, void* kernel, OpbridgeKernelContext* context, OpbridgeStatus* status) {
  const float alpha = static_cast<Kernel*>(kernel)->alpha;
  OpbridgeTensorView x;
  if (host->input(context, 0, &x) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "LeakyRelu takes one input");
    return OPBRIDGE_PLUGIN_INVALID_ARGUMENT;
  }
  void* y = nullptr;
  if (host->allocate_output(context, 0, x.dtype, x.shape, x.rank, &y) != 0) {
    host->set_error(status, OPBRIDGE_PLUGIN_FAILED, "cannot allocate the output");
    return OPBRIDGE_PLUGIN_FAILED;
  }
  switch (x.dtype) {
    case OPBRIDGE_DTYPE_FLOAT32:
      Map<float>(x.data, y, x.element_count, alpha, [](float v) { return v; }, [](float v) { return v; });
      break;
    case OPBRIDGE_DTYPE_FLOAT64: {
      const auto* in = static_cast<const double*>(x.data);
      auto* out = static_cast<double*>(y);
      for (int64_t i = 0; i < x.element_count; ++i) out[i] = leaky_relu::Apply(in[i], static_cast<double>(alpha));
      break;
    }
    case OPBRIDGE_DTYPE_FLOAT16:
      Map<uint16_t>(x.data, y, x.element_count, alpha, leaky_relu::Float16ToFloat, leaky_relu::FloatToFloat16);
      break;
    case OPBRIDGE_DTYPE_BFLOAT16:
      Map<uint16_t>(x.data, y, x.element_count, alpha, leaky_relu::BFloat16ToFloat, leaky_relu::FloatToBFloat16);
      break;
    default:  // the host only passes declared types
      host->set_error(status, OPBRIDGE_PLUGIN_INVALID_ARGUMENT, "unexpected element type");
      return OPBRIDGE_PLUGIN_INVALID_ARGUMENT;
  }
  return OPBRIDGE_PLUGIN_OK;
}

void Destroy(void* kernel) { delete static_cast<Kernel*>(kernel); }

const OpbridgeOpDef kOps[] = {
    {"com.example", "LeakyRelu", 1, 1, kInputTypes, 1, kOutputTypes, Create, Compute, Destroy},
};

const OpbridgePluginOpTable kTable = OPBRIDGE_PLUGIN_OP_TABLE(kOps);

}  // namespace

extern "C" __attribute__((visibility("default"))) const OpbridgePluginOpTable* opbridge_plugin_get_ops(
    uint32_t host_api_version) {
  return host_api_version >= 1 ? &kTable : nullptr;
}
