// SPDX-License-Identifier: Apache-2.0
#include "cc/plugin/host_types.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cc/plugin/tensor_limits.h"

namespace opbridge::plugin {

HostTensor::HostTensor(int32_t dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  const TensorSize size = CheckTensorLimits(dtype_, shape_, "tensor");
  element_count_ = size.element_count;
  bytes_ = size.bytes;
  // At least one byte, so that data() of an empty tensor is still a valid pointer.
  storage_ = std::make_unique<std::byte[]>(bytes_ > 0 ? bytes_ : 1);
}

std::string DescribeTensor(int32_t dtype, const std::vector<int64_t>& shape) {
  std::ostringstream text;
  text << opbridge_dtype_name(dtype) << "[";
  for (size_t i = 0; i < shape.size(); ++i) text << (i ? ", " : "") << shape[i];
  text << "]";
  return text.str();
}

TensorSize CheckTensorLimits(int32_t dtype, const std::vector<int64_t>& shape, const std::string& what) {
  TensorSize size;
  char message[256];
  if (opbridge_check_tensor(dtype, shape.data(), static_cast<int64_t>(shape.size()), &size.element_count, &size.bytes,
                            message, sizeof message) != 0) {
    throw InvalidInput(what + ": " + message);
  }
  return size;
}

std::string ResolveLibraryPath(const std::string& path) {
  // dlopen() searches LD_LIBRARY_PATH and the system directories for a bare
  // name; only an explicit path (with a slash) is ever loaded.
  if (path.find('/') == std::string::npos) {
    throw LoadError("plugin library \"" + path +
                    "\" is not a path; pass an explicit path such as ./" + path +
                    " (libraries are never looked up on a search path)");
  }
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) {
    throw LoadError("plugin library \"" + path + "\" does not exist: " + std::strerror(errno));
  }
  struct stat info {};
  if (stat(resolved, &info) != 0 || !S_ISREG(info.st_mode)) {
    throw LoadError("plugin library \"" + path + "\" is not a regular file");
  }
  return resolved;
}

void LibraryCloser::operator()(void* handle) const {
  if (handle != nullptr) dlclose(handle);
}

LibraryHandle OpenLibrary(const std::string& resolved_path, int extra_flags) {
  dlerror();
  void* handle = dlopen(resolved_path.c_str(), RTLD_NOW | RTLD_LOCAL | extra_flags);
  if (handle == nullptr) {
    const char* reason = dlerror();
    throw LoadError("cannot load plugin library " + resolved_path + ": " +
                    (reason != nullptr ? reason : "unknown dlopen error") +
                    " (is it a shared library built for this machine?)");
  }
  return LibraryHandle(handle);
}

LibraryHandle OpenPrivateInstance(const std::string& resolved_path, const LibraryHandle& dependencies_loaded_by) {
  if (!dependencies_loaded_by) throw LoadError("internal: the original of " + resolved_path + " is not loaded");
  const char* tmp = std::getenv("TMPDIR");
  std::string directory = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/opbridge-plugin-XXXXXX";
  if (mkdtemp(directory.data()) == nullptr) {
    throw LoadError("cannot create a private copy of " + resolved_path + ": mkdtemp failed: " + std::strerror(errno));
  }
  // Same file name: the copy's own SONAME and error messages read as the original's.
  const std::string copy = directory + "/" + resolved_path.substr(resolved_path.rfind('/') + 1);
  auto remove_copy = [&] {
    unlink(copy.c_str());
    rmdir(directory.c_str());
  };
  {
    std::ifstream source(resolved_path, std::ios::binary);
    std::ofstream target(copy, std::ios::binary);
    target << source.rdbuf();
    if (!source || !target.flush()) {
      remove_copy();
      throw LoadError("cannot create a private copy of " + resolved_path + " in " + directory);
    }
  }
  dlerror();
  void* handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* reason = handle == nullptr ? dlerror() : nullptr;
  remove_copy();  // the mapping outlives the file; nothing is left behind
  if (handle == nullptr) {
    throw LoadError("cannot load a private instance of " + resolved_path + ": " +
                    (reason != nullptr ? reason : "unknown dlopen error"));
  }
  return LibraryHandle(handle);
}

}  // namespace opbridge::plugin
