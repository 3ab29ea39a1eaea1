# SPDX-License-Identifier: Apache-2.0
"""Constants for BUILD files across the tree."""

# target_compatible_with for host-only targets (py_test, pybind11 modules,
# code generators): `bazel build --platforms=//platforms:cortex_m55 //...`
# skips them instead of failing.
HOST_ONLY = [
    "@platforms//cpu:x86_64",
    "@platforms//os:linux",
]

# target_compatible_with for code that runs on any Linux (x86_64, and
# aarch64 under qemu-aarch64) but not on the microcontrollers: the native
# plugin hosts and plugins.
LINUX_ONLY = ["@platforms//os:linux"]
