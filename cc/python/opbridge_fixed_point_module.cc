// SPDX-License-Identifier: Apache-2.0
// The pybind11 module `_opbridge_fixed_point`: the kernels' fixed-point
// arithmetic (cc/kernels/opbridge_fixed_point.h), callable from Python so the
// NumPy reference and the C code can be compared directly on the host.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "cc/kernels/opbridge_fixed_point.h"

namespace py = pybind11;

namespace {

void check_multiplier(std::int32_t multiplier, std::int32_t shift) {
  if (multiplier < 0) {
    throw py::value_error("multiplier must be in [0, 2^31), got " + std::to_string(multiplier));
  }
  if (shift < -31 || shift > 30) {
    throw py::value_error("shift must be in [-31, 30], got " + std::to_string(shift));
  }
}

// Applies opbridge_multiply_by_quantized_multiplier element-wise to an int32
// array of any shape; returns a new array.
py::array_t<std::int32_t> multiply_by_quantized_multiplier(
    const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& values,
    std::int32_t multiplier, std::int32_t shift) {
  check_multiplier(multiplier, shift);
  py::array_t<std::int32_t> result(values.request().shape);
  const std::int32_t* input = values.data();
  std::int32_t* output = result.mutable_data();
  const py::ssize_t count = values.size();
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < count; ++i) {
      output[i] = opbridge_multiply_by_quantized_multiplier(input[i], multiplier, shift);
    }
  }
  return result;
}

}  // namespace

PYBIND11_MODULE(_opbridge_fixed_point, module) {
  module.doc() = "opbridge's C kernels, bound for host-side use and testing.";
  module.def("saturating_rounding_doubling_high_mul",
             &opbridge_saturating_rounding_doubling_high_mul, py::arg("a"), py::arg("b"),
             "(a * b) / 2^31 rounded to nearest (ties upwards), saturated to int32.");
  module.def(
      "rounding_divide_by_power_of_two",
      [](std::int32_t x, std::int32_t exponent) {
        if (exponent < 0 || exponent > 31) {
          throw py::value_error("exponent must be in [0, 31], got " + std::to_string(exponent));
        }
        return opbridge_rounding_divide_by_power_of_two(x, exponent);
      },
      py::arg("x"), py::arg("exponent"), "x / 2^exponent, rounded half away from zero.");
  module.def("multiply_by_quantized_multiplier", &multiply_by_quantized_multiplier,
             py::arg("values"), py::arg("multiplier"), py::arg("shift"),
             "Rescales int32 values by multiplier * 2^shift / 2^31 as TFLite's kernels do.");
}
