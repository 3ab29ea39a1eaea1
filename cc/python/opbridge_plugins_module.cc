// SPDX-License-Identifier: Apache-2.0
// The pybind11 module `_opbridge_plugins`: opbridge's two native plugin
// hosts (cc/plugin for its own ABI, cc/ort for ONNX Runtime custom-op
// libraries) for opbridge.backends.host_plugins. Python code should use that
// package; this module is its thin, checked boundary.
//
// Tensors cross as (dtype, shape, buffer) with ONNX dtype numbers; the
// buffer is the caller's bytes, copied by the host before a plugin sees
// them. Outputs come back as uint8 arrays that own their host storage.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cc/ort/ort_host.h"
#include "cc/plugin/plugin_host.h"
#include "cc/plugin/tensor_limits.h"

namespace py = pybind11;
using opbridge::ort::OrtKernel;
using opbridge::ort::OrtPluginLibrary;
using opbridge::plugin::Attributes;
using opbridge::plugin::AttributeValue;
using opbridge::plugin::HostTensor;
using opbridge::plugin::NativeKernel;
using opbridge::plugin::PluginLibrary;
using opbridge::plugin::TensorRef;

namespace {

using TensorIn = std::tuple<int32_t, std::vector<int64_t>, py::buffer>;
using TensorOut = std::tuple<int32_t, std::vector<int64_t>, py::array>;
using AttributeList = std::vector<std::tuple<std::string, std::string, py::object>>;

// [(name, kind, value)] -> Attributes; kind is "int", "float", "string",
// "ints", "floats" or "strings" (opbridge.backends.host_plugins.plugins encodes
// them, so that empty lists keep their type).
Attributes ToAttributes(const AttributeList& values) {
  Attributes attributes;
  for (const auto& [name, kind, value] : values) {
    try {
      if (kind == "int") {
        attributes[name] = py::cast<int64_t>(value);
      } else if (kind == "float") {
        attributes[name] = py::cast<double>(value);
      } else if (kind == "string") {
        attributes[name] = py::cast<std::string>(value);
      } else if (kind == "ints") {
        attributes[name] = py::cast<std::vector<int64_t>>(value);
      } else if (kind == "floats") {
        attributes[name] = py::cast<std::vector<double>>(value);
      } else if (kind == "strings") {
        attributes[name] = py::cast<std::vector<std::string>>(value);
      } else {
        throw py::value_error("attribute \"" + name + "\" has unknown kind \"" + kind + "\"");
      }
    } catch (const py::cast_error&) {
      throw py::value_error("attribute \"" + name + "\" is not a valid " + kind + " value");
    }
  }
  return attributes;
}

// Checks each input (limits first, then that the buffer holds exactly the
// shape's bytes) and returns borrowed views of the buffers.
std::vector<TensorRef> ToRefs(const std::vector<TensorIn>& inputs, std::vector<py::buffer_info>& keep) {
  std::vector<TensorRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& [dtype, shape, buffer] = inputs[i];
    const size_t bytes = opbridge::plugin::CheckTensorLimits(dtype, shape, "input " + std::to_string(i)).bytes;
    keep.push_back(buffer.request());
    const py::buffer_info& info = keep.back();
    // Bytes are copied with memcpy: only a C-contiguous buffer is its bytes in order.
    py::ssize_t stride = info.itemsize;
    for (py::ssize_t axis = info.ndim - 1; axis >= 0; --axis) {
      if (info.shape[axis] > 1 && info.strides[axis] != stride) {
        throw py::value_error("input " + std::to_string(i) + ": the buffer is not C-contiguous");
      }
      stride *= info.shape[axis];
    }
    if (static_cast<size_t>(info.size * info.itemsize) != bytes) {
      throw py::value_error("input " + std::to_string(i) + ": buffer has " +
                            std::to_string(info.size * info.itemsize) + " bytes, the shape needs " +
                            std::to_string(bytes));
    }
    refs.push_back(TensorRef{dtype, shape, info.ptr});
  }
  return refs;
}

// Hands each output's storage to a NumPy uint8 array (no copy).
std::vector<TensorOut> ToOutputs(std::vector<HostTensor> outputs) {
  std::vector<TensorOut> results;
  for (HostTensor& output : outputs) {
    auto* owned = new HostTensor(std::move(output));
    py::capsule base(owned, [](void* pointer) { delete static_cast<HostTensor*>(pointer); });
    py::array bytes(py::dtype::of<uint8_t>(), {static_cast<py::ssize_t>(owned->bytes())}, {1},
                    static_cast<uint8_t*>(owned->data()), base);
    results.emplace_back(owned->dtype(), owned->shape(), std::move(bytes));
  }
  return results;
}

// A kernel Python can release explicitly (close()) before the library.
// Runs and release() are serialized by a mutex, taken without the GIL
// (compute runs without it): a kernel is never entered twice at once, nor
// released while it runs.
template <typename Kernel>
class KernelHandle {
 public:
  explicit KernelHandle(std::unique_ptr<Kernel> kernel) : kernel_(std::move(kernel)) {}
  std::vector<TensorOut> Compute(const std::vector<TensorIn>& inputs) {
    std::vector<py::buffer_info> keep;
    std::vector<TensorRef> refs = ToRefs(inputs, keep);
    std::vector<HostTensor> outputs;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex_);
      if (!kernel_) throw std::runtime_error("the kernel was released (its session is closed)");
      outputs = kernel_->Compute(refs);
    }
    return ToOutputs(std::move(outputs));
  }
  bool created() {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex_);
    return kernel_ && kernel_->created();
  }
  void Release() {
    std::unique_ptr<Kernel> released;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex_);
      released = std::move(kernel_);
      released.reset();  // destroyed without the GIL: the plugin's destroy may take time
    }
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<Kernel> kernel_;
};

using NativeKernelHandle = KernelHandle<NativeKernel>;
using OrtKernelHandle = KernelHandle<OrtKernel>;

}  // namespace

PYBIND11_MODULE(_opbridge_plugins, module) {
  module.doc() = "opbridge's native plugin hosts (use opbridge.backends.host_plugins)";
  // InvalidInput derives from std::invalid_argument, which pybind11 raises as ValueError.
  py::register_exception<opbridge::plugin::LoadError>(module, "LoadError", PyExc_RuntimeError);
  py::register_exception<opbridge::plugin::KernelError>(module, "KernelError", PyExc_RuntimeError);

  module.attr("MAX_MODEL_BYTES") = static_cast<uint64_t>(OPBRIDGE_MAX_MODEL_BYTES);
  module.attr("MAX_TENSOR_BYTES") = static_cast<uint64_t>(OPBRIDGE_MAX_TENSOR_BYTES);
  module.attr("MAX_RANK") = OPBRIDGE_MAX_RANK;
  module.attr("API_VERSION") = OPBRIDGE_PLUGIN_API_VERSION;
  module.def(
      "check_model_size",
      [](size_t size) {
        char message[256];
        if (opbridge_check_model_size(size, message, sizeof message) != 0) throw py::value_error(message);
      },
      "Raises ValueError when a model of `size` bytes is over the limit.");

  py::class_<PluginLibrary, std::shared_ptr<PluginLibrary>>(module, "PluginLibrary")
      .def_static("open", &PluginLibrary::Open, py::arg("path"))
      .def_property_readonly("path", &PluginLibrary::path)
      .def_property_readonly("api_version", &PluginLibrary::api_version)
      .def("ops", [](const PluginLibrary& library) {
        py::list ops;
        for (const auto& op : library.Ops()) {
          ops.append(py::dict(py::arg("domain") = op.domain, py::arg("name") = op.name,
                              py::arg("since_version") = op.since_version, py::arg("input_dtypes") = op.input_dtypes,
                              py::arg("output_dtypes") = op.output_dtypes));
        }
        return ops;
      });

  py::class_<NativeKernelHandle>(module, "NativeKernel")
      .def(py::init([](std::shared_ptr<PluginLibrary> library, const std::string& domain, const std::string& name,
                       int64_t opset, const AttributeList& attributes, const std::string& node_name) {
             const OpbridgeOpDef* op = library->Find(domain, name, opset);
             if (op == nullptr) {
               throw opbridge::plugin::InvalidInput("plugin " + library->path() + " has no op " + domain +
                                                    "::" + name + " at opset " + std::to_string(opset));
             }
             return std::make_unique<NativeKernelHandle>(
                 std::make_unique<NativeKernel>(library, op, ToAttributes(attributes), node_name));
           }),
           py::arg("library"), py::arg("domain"), py::arg("name"), py::arg("opset"), py::arg("attributes"),
           py::arg("node_name"))
      .def("compute", &NativeKernelHandle::Compute, py::arg("inputs"))
      .def_property_readonly("created", &NativeKernelHandle::created)
      .def("release", &NativeKernelHandle::Release);

  py::class_<OrtPluginLibrary, std::shared_ptr<OrtPluginLibrary>>(module, "OrtPluginLibrary")
      .def_static("open", &OrtPluginLibrary::Open, py::arg("path"))
      .def_property_readonly("path", &OrtPluginLibrary::path)
      .def_property_readonly("unique_symbols", &OrtPluginLibrary::unique_symbols)
      .def("ops", [](const OrtPluginLibrary& library) {
        py::list ops;
        for (const auto& op : library.ops()) {
          ops.append(py::dict(py::arg("domain") = op.domain, py::arg("name") = op.name,
                              py::arg("version") = op.version, py::arg("start_version") = op.start_version,
                              py::arg("end_version") = op.end_version, py::arg("input_types") = op.input_types,
                              py::arg("output_types") = op.output_types,
                              py::arg("status_callbacks") = op.status_callbacks,
                              py::arg("unsupported") = op.unsupported));
        }
        return ops;
      });

  py::class_<OrtKernelHandle>(module, "OrtKernel")
      .def(py::init([](std::shared_ptr<OrtPluginLibrary> library, const std::string& domain, const std::string& name,
                       int64_t opset, const std::vector<int32_t>& input_types, const AttributeList& attributes,
                       const std::string& node_name) {
             const auto& op = library->Select(domain, name, opset, input_types);
             return std::make_unique<OrtKernelHandle>(
                 std::make_unique<OrtKernel>(library, op, ToAttributes(attributes), node_name));
           }),
           py::arg("library"), py::arg("domain"), py::arg("name"), py::arg("opset"), py::arg("input_types"),
           py::arg("attributes"), py::arg("node_name"))
      .def("compute", &OrtKernelHandle::Compute, py::arg("inputs"))
      .def_property_readonly("created", &OrtKernelHandle::created)
      .def("release", &OrtKernelHandle::Release);
}
