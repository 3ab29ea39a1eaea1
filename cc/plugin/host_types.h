/* SPDX-License-Identifier: Apache-2.0 */
// Values shared by opbridge's native plugin hosts (its own ABI and the
// ONNX Runtime custom-op ABI): tensors the host owns, node attributes, and
// the typed errors the Python bindings turn into exceptions.
#ifndef OPBRIDGE_PLUGIN_HOST_TYPES_H_
#define OPBRIDGE_PLUGIN_HOST_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace opbridge::plugin {

// A library could not be loaded, or its registration is invalid.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Inputs the host refuses before calling the plugin (dtype, rank, limits).
class InvalidInput : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A plugin callback reported an error (or threw).
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A dense, host-owned tensor. Storage is 16-byte aligned (operator new).
class HostTensor {
 public:
  HostTensor() = default;
  // Checks the limits (InvalidInput) and allocates zeroed storage.
  HostTensor(int32_t dtype, std::vector<int64_t> shape);

  int32_t dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t element_count() const { return element_count_; }
  size_t bytes() const { return bytes_; }
  void* data() { return storage_.get(); }
  const void* data() const { return storage_.get(); }

 private:
  int32_t dtype_ = 0;
  std::vector<int64_t> shape_;
  int64_t element_count_ = 0;
  size_t bytes_ = 0;
  std::unique_ptr<std::byte[]> storage_;
};

// A borrowed input: the caller keeps `data` alive during the call.
struct TensorRef {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  const void* data = nullptr;
};

using AttributeValue =
    std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>, std::vector<std::string>>;
using Attributes = std::map<std::string, AttributeValue>;

// "float32[2, 3]", for messages.
std::string DescribeTensor(int32_t dtype, const std::vector<int64_t>& shape);

struct TensorSize {
  int64_t element_count = 0;
  size_t bytes = 0;
};

// The tensor's size; throws InvalidInput unless it is within the host's limits.
TensorSize CheckTensorLimits(int32_t dtype, const std::vector<int64_t>& shape, const std::string& what);

// Resolves `path` (must exist, be a regular file and be given explicitly)
// to an absolute path; throws LoadError naming the problem otherwise.
std::string ResolveLibraryPath(const std::string& path);

// dlopen()s a resolved path with RTLD_NOW | RTLD_LOCAL; throws LoadError.
// The handle is dlclose()d by the deleter.
struct LibraryCloser {
  void operator()(void* handle) const;
};
using LibraryHandle = std::unique_ptr<void, LibraryCloser>;
// `extra_flags` (e.g. RTLD_NODELETE) are added to RTLD_NOW | RTLD_LOCAL.
LibraryHandle OpenLibrary(const std::string& resolved_path, int extra_flags = 0);

// Loads a private instance of a library that another loader (ONNX Runtime,
// another host) may also have loaded: a library keeping process-global
// state, such as the OrtApi pointer ORT's C++ wrapper stores, must not be
// shared between two hosts. The file is copied to a fresh temporary
// directory, loaded and deleted again; dependencies resolve to those
// `dependencies_loaded_by` (the normally loaded original) brought in.
LibraryHandle OpenPrivateInstance(const std::string& resolved_path, const LibraryHandle& dependencies_loaded_by);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_HOST_TYPES_H_
