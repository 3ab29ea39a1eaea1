/* SPDX-License-Identifier: Apache-2.0 */
// Loads plugins written against opbridge's own ABI (opbridge_plugin.h) and
// runs their kernels. Used by the pybind11 module cc/python:_opbridge_plugins
// and by C++ tests; Python code uses opbridge.backends.host_plugins instead.
#ifndef OPBRIDGE_PLUGIN_PLUGIN_HOST_H_
#define OPBRIDGE_PLUGIN_PLUGIN_HOST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cc/plugin/host_types.h"
#include "cc/plugin/opbridge_plugin.h"

namespace opbridge::plugin {

struct OpSummary {
  std::string domain;
  std::string name;
  int32_t since_version = 0;
  std::vector<uint32_t> input_dtypes;   // OPBRIDGE_DTYPE_BIT sets
  std::vector<uint32_t> output_dtypes;
};

// One loaded plugin library. Kernels hold a shared_ptr to it, so it is
// unloaded only after the last kernel is destroyed.
class PluginLibrary {
 public:
  // Loads by explicit path and validates every registered op (LoadError).
  static std::shared_ptr<PluginLibrary> Open(const std::string& path);

  const std::string& path() const { return path_; }
  uint32_t api_version() const { return api_version_; }
  std::vector<OpSummary> Ops() const;
  // The op of (domain, name) with the highest since_version <= opset, or null.
  const OpbridgeOpDef* Find(const std::string& domain, const std::string& name, int64_t opset) const;

 private:
  PluginLibrary() = default;
  std::string path_;
  uint32_t api_version_ = 0;
  std::vector<const OpbridgeOpDef*> ops_;  // point into the library: unused once it is closed
  LibraryHandle handle_;
};

// One graph node's kernel: created on the first run, kept across runs (and
// changing shapes), destroyed with this object.
class NativeKernel {
 public:
  NativeKernel(std::shared_ptr<PluginLibrary> library, const OpbridgeOpDef* op, Attributes attributes,
               std::string node_name);
  ~NativeKernel();
  NativeKernel(const NativeKernel&) = delete;
  NativeKernel& operator=(const NativeKernel&) = delete;

  // Runs the op; every declared output must be allocated by the plugin.
  std::vector<HostTensor> Compute(const std::vector<TensorRef>& inputs);
  bool created() const { return created_; }
  const std::string& node_name() const { return node_name_; }

 private:
  std::string Where() const;
  std::shared_ptr<PluginLibrary> library_;
  const OpbridgeOpDef* op_;
  Attributes attributes_;
  std::string node_name_;
  void* kernel_ = nullptr;
  bool created_ = false;
};

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_PLUGIN_HOST_H_
