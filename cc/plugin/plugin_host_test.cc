// SPDX-License-Identifier: Apache-2.0
// The opbridge-ABI host from C++ (the Python tests cover the same host
// through the pybind11 module); run under ASan/LSan by --config=asan.
#include "cc/plugin/plugin_host.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "cc/plugin/testdata/check.h"

using opbridge::plugin::Attributes;
using opbridge::plugin::HostTensor;
using opbridge::plugin::InvalidInput;
using opbridge::plugin::KernelError;
using opbridge::plugin::LoadError;
using opbridge::plugin::NativeKernel;
using opbridge::plugin::PluginLibrary;
using opbridge::plugin::TensorRef;

namespace {

const char kTestPlugin[] = "cc/plugin/libtest_plugin_good.so";

std::shared_ptr<PluginLibrary> TestPlugin() { return PluginLibrary::Open(kTestPlugin); }

NativeKernel Kernel(const std::string& name, Attributes attributes = {}, int64_t opset = 1) {
  auto library = TestPlugin();
  const OpbridgeOpDef* op = library->Find("test", name, opset);
  CHECK(op != nullptr);
  return NativeKernel(library, op, std::move(attributes), "node_" + name);
}

TensorRef Floats(const std::vector<float>& values, std::vector<int64_t> shape) {
  return TensorRef{OPBRIDGE_DTYPE_FLOAT32, std::move(shape), values.data()};
}

void LeakyRelu() {
  auto library = PluginLibrary::Open("examples/native_plugins/libleaky_relu_plugin.so");
  CHECK(library->api_version() == 1);
  CHECK(library->Ops().size() == 1);
  const OpbridgeOpDef* op = library->Find("com.example", "LeakyRelu", 1);
  CHECK(op != nullptr);
  CHECK(library->Find("com.example", "LeakyRelu", 0) == nullptr);
  NativeKernel kernel(library, op, {{"alpha", 0.5}}, "leaky");
  const std::vector<float> x = {-2.0f, -0.0f, 0.0f, 3.0f, -1.0f, 4.0f};
  std::vector<HostTensor> y = kernel.Compute({Floats(x, {2, 3})});
  CHECK(y.size() == 1 && y[0].shape() == std::vector<int64_t>({2, 3}));
  const float* out = static_cast<const float*>(y[0].data());
  CHECK(out[0] == -1.0f && out[3] == 3.0f && out[4] == -0.5f && out[5] == 4.0f);
  // The same kernel with another shape, a scalar and an empty tensor.
  const std::vector<float> scalar = {-4.0f};
  y = kernel.Compute({Floats(scalar, {})});
  CHECK(y[0].shape().empty() && *static_cast<const float*>(y[0].data()) == -2.0f);
  y = kernel.Compute({TensorRef{OPBRIDGE_DTYPE_FLOAT32, {0, 5}, nullptr}});
  CHECK(y[0].element_count() == 0 && y[0].shape() == std::vector<int64_t>({0, 5}));
  // A missing attribute is the plugin's own error, raised at creation.
  NativeKernel no_alpha(library, op, {}, "no_alpha");
  CHECK_THROWS(KernelError, "needs a float attribute \"alpha\"", no_alpha.Compute({Floats(x, {6})}));
  CHECK(!no_alpha.created());
  // Types outside the declared set never reach the plugin.
  const std::vector<int32_t> ints = {1, 2};
  CHECK_THROWS(InvalidInput, "the op accepts {float32, float16, float64, bfloat16}",
               kernel.Compute({TensorRef{OPBRIDGE_DTYPE_INT32, {2}, ints.data()}}));
}

void KernelState() {
  NativeKernel kernel = Kernel("CountCalls");
  const std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f};  // holds every shape used below
  for (int64_t call = 1; call <= 3; ++call) {
    std::vector<HostTensor> y = kernel.Compute({Floats(x, {1 + call})});
    CHECK(*static_cast<const int64_t*>(y[0].data()) == call);
  }
  NativeKernel other = Kernel("CountCalls");  // another node, its own state
  CHECK(*static_cast<const int64_t*>(other.Compute({Floats(x, {1})})[0].data()) == 1);
}

void Errors() {
  const std::vector<float> x = {1.0f, 2.0f};
  NativeKernel fail = Kernel("Fail");
  CHECK_THROWS(KernelError, "node \"node_Fail\" (test::Fail): compute failed: test.Fail was asked to fail",
               fail.Compute({Floats(x, {2})}));
  NativeKernel thrower = Kernel("Throw");
  CHECK_THROWS(KernelError, "compute threw: test.Throw threw", thrower.Compute({Floats(x, {2})}));
  NativeKernel bad_create = Kernel("FailCreate");  // sets *kernel, then fails: the host destroys it
  CHECK_THROWS(KernelError, "create failed: test.FailCreate refuses", bad_create.Compute({Floats(x, {2})}));
  CHECK(!bad_create.created());
  NativeKernel no_output = Kernel("NoOutput");
  CHECK_THROWS(KernelError, "without allocating output 0", no_output.Compute({Floats(x, {2})}));
  NativeKernel wrong_type = Kernel("WrongOutputType");
  CHECK_THROWS(KernelError, "int32 is not among the declared {float32}", wrong_type.Compute({Floats(x, {2})}));
  NativeKernel huge = Kernel("HugeOutput");
  CHECK_THROWS(KernelError, "exceeds the 67108864-byte limit", huge.Compute({Floats(x, {2})}));
  NativeKernel echo = Kernel("Echo");
  CHECK_THROWS(InvalidInput, "takes 1 input(s), got 2", echo.Compute({Floats(x, {2}), Floats(x, {2})}));
  CHECK_THROWS(InvalidInput, "rank 17 is outside 0..16",
               echo.Compute({Floats(x, std::vector<int64_t>(17, 1))}));
  CHECK_THROWS(InvalidInput, "dimension 1 is negative", echo.Compute({Floats(x, {2, -1})}));
  CHECK_THROWS(InvalidInput, "exceeds the 67108864-byte limit",
               echo.Compute({Floats(x, {INT64_C(1) << 62, INT64_C(1) << 62})}));
  // Version selection: the highest since_version not above the opset.
  auto library = TestPlugin();
  CHECK(library->Find("test", "Echo", 1)->since_version == 1);
  CHECK(library->Find("test", "Echo", 7)->since_version == 2);
}

void Registration() {
  CHECK_THROWS(LoadError, "implements API version 99; this host accepts 1..1",
               PluginLibrary::Open("cc/plugin/libtest_plugin_wrong_abi.so"));
  CHECK_THROWS(LoadError, "declined host API version 1", PluginLibrary::Open("cc/plugin/libtest_plugin_declines.so"));
  CHECK_THROWS(LoadError, "(test::CountCalls): create, compute and destroy must all be non-NULL",
               PluginLibrary::Open("cc/plugin/libtest_plugin_null_callback.so"));
  CHECK_THROWS(LoadError, "registers test::Fail version 1 twice",
               PluginLibrary::Open("cc/plugin/libtest_plugin_duplicate.so"));
  CHECK_THROWS(LoadError, "does not export opbridge_plugin_get_ops",
               PluginLibrary::Open("cc/plugin/libtest_plugin_no_entry_point.so"));
  CHECK_THROWS(LoadError, "says its OpbridgeOpDef has 16 bytes",
               PluginLibrary::Open("cc/plugin/libtest_plugin_small_op_def.so"));
  CHECK_THROWS(LoadError, "does not exist", PluginLibrary::Open("./no/such/plugin.so"));
  CHECK_THROWS(LoadError, "is not a path", PluginLibrary::Open("libtest_plugin_good.so"));
  CHECK_THROWS(LoadError, "is not a regular file", PluginLibrary::Open("cc/plugin"));
  // A file that is not a shared library: this test's own source.
  CHECK_THROWS(LoadError, "is not a shared library for", PluginLibrary::Open("cc/plugin/plugin_host_test.cc"));
}

}  // namespace

int main() {
  LeakyRelu();
  KernelState();
  Errors();
  Registration();
  std::puts("plugin_host_test: all checks passed");
  return 0;
}
