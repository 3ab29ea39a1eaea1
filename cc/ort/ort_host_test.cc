// SPDX-License-Identifier: Apache-2.0
// The ORT-ABI host from C++, with the example ORT LeakyRelu library (the
// Python tests add real onnxruntime and onnx-extended); run under ASan/LSan
// by --config=asan.
#include "cc/ort/ort_host.h"

#include <cstdint>
#include <vector>

#include "cc/plugin/elf_facts.h"
#include "cc/plugin/testdata/check.h"

using opbridge::ort::OrtKernel;
using opbridge::ort::OrtPluginLibrary;
using opbridge::plugin::HostTensor;
using opbridge::plugin::InvalidInput;
using opbridge::plugin::KernelError;
using opbridge::plugin::LoadError;
using opbridge::plugin::TensorRef;

namespace {

constexpr int32_t kFloat = 1;
constexpr int32_t kFloat16 = 10;
constexpr int32_t kDouble = 11;
constexpr int32_t kBFloat16 = 16;
const char kLibrary[] = "examples/native_plugins/libort_leaky_relu.so";
const char kOldLibrary[] = "cc/ort/libold_descriptor_plugin.so";
const char kUniqueLibrary[] = "cc/ort/libunique_global_plugin.so";

void Registration() {
  auto library = OrtPluginLibrary::Open(kLibrary);
  CHECK(library->ops().size() == 4);
  for (const auto& op : library->ops()) {
    CHECK(op.domain == "com.example" && op.name == "LeakyRelu" && op.unsupported.empty());
    CHECK(op.status_callbacks && op.version == 29);
  }
  CHECK(library->Select("com.example", "LeakyRelu", 1, {kBFloat16}).input_types[0] == kBFloat16);
  CHECK_THROWS(InvalidInput, "no overload for input types (int32)",
               library->Select("com.example", "LeakyRelu", 1, {6}));
  CHECK_THROWS(InvalidInput, "supports opset 1..1 of domain \"com.example\", the model imports 2",
               library->Select("com.example", "LeakyRelu", 2, {kFloat}));
  CHECK_THROWS(InvalidInput, "has no op com.example::Relu (it registers: com.example::LeakyRelu",
               library->Select("com.example", "Relu", 1, {kFloat}));
  // Descriptors of versions 11 and 1: only their versions' members are read
  // (the rest are poisoned), and the legacy callbacks serve them.
  auto old = OrtPluginLibrary::Open(kOldLibrary);
  CHECK(old->ops().size() == 2);
  for (const auto& op : old->ops()) {
    CHECK(op.unsupported.empty() && !op.status_callbacks && op.start_version == 1 && op.end_version == INT32_MAX);
  }
  CHECK(old->Select("com.test", "AddOne", 1, {kFloat}).version == 11);
  CHECK(old->Select("com.test", "AddOne", 1, {kDouble}).version == 1);
  CHECK_THROWS(LoadError, "does not export RegisterCustomOps",
               OrtPluginLibrary::Open("examples/native_plugins/libleaky_relu_plugin.so"));
  CHECK_THROWS(LoadError, "does not exist", OrtPluginLibrary::Open("./missing.so"));
}

void Compute() {
  auto library = OrtPluginLibrary::Open(kLibrary);
  OrtKernel kernel(library, library->Select("com.example", "LeakyRelu", 1, {kFloat}), {{"alpha", 0.25}}, "leaky");
  const std::vector<float> x = {-4.0f, 2.0f, -1.0f, 0.0f};
  std::vector<HostTensor> y = kernel.Compute({TensorRef{kFloat, {2, 2}, x.data()}});
  const float* out = static_cast<const float*>(y[0].data());
  CHECK(y[0].shape() == std::vector<int64_t>({2, 2}) && out[0] == -1.0f && out[1] == 2.0f && out[2] == -0.25f);
  y = kernel.Compute({TensorRef{kFloat, {}, x.data()}});  // a scalar, same kernel
  CHECK(y[0].shape().empty() && *static_cast<const float*>(y[0].data()) == -1.0f);
  y = kernel.Compute({TensorRef{kFloat, {3, 0}, nullptr}});  // empty
  CHECK(y[0].element_count() == 0);
  CHECK_THROWS(InvalidInput, "input 0 is float64, the op takes float32",
               kernel.Compute({TensorRef{kDouble, {1}, x.data()}}));
  CHECK_THROWS(InvalidInput, "rank 17", kernel.Compute({TensorRef{kFloat, std::vector<int64_t>(17, 1), x.data()}}));

  const std::vector<double> xd = {-2.0, 8.0};
  OrtKernel doubles(library, library->Select("com.example", "LeakyRelu", 1, {kDouble}), {{"alpha", 0.5}}, "d");
  y = doubles.Compute({TensorRef{kDouble, {2}, xd.data()}});
  CHECK(static_cast<const double*>(y[0].data())[0] == -1.0 && static_cast<const double*>(y[0].data())[1] == 8.0);

  const std::vector<uint16_t> half = {0xC000u /* -2 */, 0x3C00u /* 1 */};
  OrtKernel halves(library, library->Select("com.example", "LeakyRelu", 1, {kFloat16}), {{"alpha", 0.5}}, "h");
  y = halves.Compute({TensorRef{kFloat16, {2}, half.data()}});
  CHECK(static_cast<const uint16_t*>(y[0].data())[0] == 0xBC00u /* -1 */);
  CHECK(static_cast<const uint16_t*>(y[0].data())[1] == 0x3C00u);

  const std::vector<uint16_t> brain = {0xC000u /* -2 */, 0x3F80u /* 1 */};
  OrtKernel bf16(library, library->Select("com.example", "LeakyRelu", 1, {kBFloat16}), {{"alpha", 0.5}}, "b");
  y = bf16.Compute({TensorRef{kBFloat16, {2}, brain.data()}});
  CHECK(static_cast<const uint16_t*>(y[0].data())[0] == 0xBF80u /* -1 */);

  // The plugin's own error status for a missing attribute, at creation.
  OrtKernel no_alpha(library, library->Select("com.example", "LeakyRelu", 1, {kFloat}), {}, "no_alpha");
  CHECK_THROWS(KernelError, "node \"no_alpha\" has no float attribute \"alpha\"",
               no_alpha.Compute({TensorRef{kFloat, {1}, x.data()}}));
  CHECK(!no_alpha.created());
}

void LegacyCompute() {
  auto library = OrtPluginLibrary::Open(kOldLibrary);
  const std::vector<float> x = {1.5f, -2.0f, 0.0f};
  OrtKernel floats(library, library->Select("com.test", "AddOne", 1, {kFloat}), {}, "v11");
  std::vector<HostTensor> y = floats.Compute({TensorRef{kFloat, {3}, x.data()}});
  const float* out = static_cast<const float*>(y[0].data());
  CHECK(y[0].shape() == std::vector<int64_t>({3}) && out[0] == 2.5f && out[1] == -1.0f && out[2] == 1.0f);
  const std::vector<double> xd = {-0.5, 2.0};
  OrtKernel doubles(library, library->Select("com.test", "AddOne", 1, {kDouble}), {}, "v1");
  y = doubles.Compute({TensorRef{kDouble, {2, 1}, xd.data()}});
  CHECK(static_cast<const double*>(y[0].data())[0] == 0.5 && static_cast<const double*>(y[0].data())[1] == 3.0);
}

// Load, use, release, load again, 100 times, for every library the tests
// host (with and without GNU-unique symbols); and load, fail to select an
// op (as a session does that rejects a model), release, load again.
void Reload() {
  struct Case {
    const char* path;
    const char* domain;
    const char* name;
  };
  const Case cases[] = {{kLibrary, "com.example", "LeakyRelu"},
                        {kOldLibrary, "com.test", "AddOne"},
                        {kUniqueLibrary, "com.test", "Negate"}};
  const std::vector<float> x = {1.0f, -3.0f};
  for (const Case& c : cases) {
    for (int round = 0; round < 100; ++round) {
      auto library = OrtPluginLibrary::Open(c.path);
      OrtKernel kernel(library, library->Select(c.domain, c.name, 1, {kFloat}), {{"alpha", 0.5}}, "n");
      CHECK(kernel.Compute({TensorRef{kFloat, {2}, x.data()}})[0].element_count() == 2);
    }
    for (int round = 0; round < 100; ++round) {
      auto library = OrtPluginLibrary::Open(c.path);
      CHECK_THROWS(InvalidInput, "has no op", library->Select(c.domain, "Missing", 1, {kFloat}));
    }
  }
}

void ElfChecks() {
  // Hidden visibility: nothing GNU-unique; the example needs libstdc++, not ORT.
  const auto example = opbridge::plugin::ReadElfFacts(kLibrary);
  CHECK(example.unique_symbols.empty());
  for (const auto& needed : example.needed) CHECK(needed.rfind("libonnxruntime", 0) != 0);
  // Default visibility and an inline function's static: a GNU-unique symbol.
  const char* unique = kUniqueLibrary;
  CHECK(!opbridge::plugin::ReadElfFacts(unique).unique_symbols.empty());
  // Without ONNX Runtime in the process it is still hosted, and says so.
  auto library = OrtPluginLibrary::Open(unique);
  CHECK(!library->unique_symbols().empty());
  OrtKernel negate(library, library->Select("com.test", "Negate", 1, {kFloat}), {}, "negate");
  const std::vector<float> x = {1.5f, -2.0f};
  CHECK(static_cast<const float*>(negate.Compute({TensorRef{kFloat, {2}, x.data()}})[0].data())[0] == -1.5f);
  CHECK_THROWS(LoadError, "Linux: no ELF header",
               opbridge::plugin::ReadElfFacts("cc/ort/ort_host_test.cc"));
}

}  // namespace

int main() {
  Registration();
  Compute();
  LegacyCompute();
  Reload();
  ElfChecks();
  std::puts("ort_host_test: all checks passed");
  return 0;
}
