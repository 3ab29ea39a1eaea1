/* SPDX-License-Identifier: Apache-2.0 */
// Hosts custom-op libraries written for the ONNX Runtime C API
// (RegisterCustomOps(OrtSessionOptions*, const OrtApiBase*)) without ONNX
// Runtime: opbridge implements the subset of the OrtApi table such plugins
// use and leaves every other slot NULL. See docs/native_plugins.md for the
// audited subset; a plugin that calls anything else is not supported.
#ifndef OPBRIDGE_ORT_ORT_HOST_H_
#define OPBRIDGE_ORT_ORT_HOST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cc/plugin/host_types.h"

struct OrtCustomOp;

namespace opbridge::ort {

using plugin::Attributes;
using plugin::HostTensor;
using plugin::TensorRef;

// The oldest OrtCustomOp.version this host serves, as ONNX Runtime: version
// 1's members are read from every descriptor, later members only from the
// versions that define them (ort_host.cc, Describe).
constexpr uint32_t kMinOpVersion = 1;

// One op a library registered. `unsupported` says why the host cannot run
// it (empty when it can); such ops are listed but rejected when used.
struct OrtOpInfo {
  std::string domain;
  std::string name;
  uint32_t version = 0;  // OrtCustomOp.version: the ORT API it was built against
  int start_version = 1;
  int end_version = INT32_MAX;
  std::vector<int32_t> input_types;  // ONNX element types
  std::vector<int32_t> output_types;
  bool status_callbacks = false;  // CreateKernelV2/KernelComputeV2 rather than the legacy pair
  std::string unsupported;
  const OrtCustomOp* op = nullptr;
};

class OrtPluginLibrary {
 public:
  // Loads by explicit path, calls RegisterCustomOps and validates what it
  // registered (plugin::LoadError).
  static std::shared_ptr<OrtPluginLibrary> Open(const std::string& path);
  ~OrtPluginLibrary();
  OrtPluginLibrary(const OrtPluginLibrary&) = delete;
  OrtPluginLibrary& operator=(const OrtPluginLibrary&) = delete;

  const std::string& path() const { return path_; }
  const std::vector<OrtOpInfo>& ops() const { return ops_; }
  // GNU-unique symbols the library exports: when not empty, its private
  // instance shares them with any other copy loaded in this process.
  const std::vector<std::string>& unique_symbols() const { return unique_symbols_; }
  // The op for a node of (domain, name) at the model's opset of `domain`
  // whose input types are `input_types`; throws plugin::InvalidInput saying
  // what is missing or unsupported.
  const OrtOpInfo& Select(const std::string& domain, const std::string& name, int64_t opset,
                          const std::vector<int32_t>& input_types) const;

 private:
  OrtPluginLibrary() = default;
  std::string path_;
  std::vector<OrtOpInfo> ops_;
  std::vector<std::string> unique_symbols_;
  // The library as loaded normally (which brings in its dependencies), and
  // this host's private instance of it, whose ops are used. Members are
  // destroyed in reverse order: the private instance is unloaded first.
  plugin::LibraryHandle original_;
  plugin::LibraryHandle handle_;
};

// One node's kernel, created on its first run and kept across runs.
class OrtKernel {
 public:
  OrtKernel(std::shared_ptr<OrtPluginLibrary> library, const OrtOpInfo& op, Attributes attributes,
            std::string node_name);
  ~OrtKernel();
  OrtKernel(const OrtKernel&) = delete;
  OrtKernel& operator=(const OrtKernel&) = delete;

  std::vector<HostTensor> Compute(const std::vector<TensorRef>& inputs);
  bool created() const { return created_; }

 private:
  std::string Where() const;
  std::shared_ptr<OrtPluginLibrary> library_;
  const OrtOpInfo& op_;
  Attributes attributes_;
  std::string node_name_;
  void* kernel_ = nullptr;
  bool created_ = false;
};

}  // namespace opbridge::ort

#endif  // OPBRIDGE_ORT_ORT_HOST_H_
