"""Constants for BUILD files across the tree."""

# target_compatible_with for host-only targets (py_test, pybind11 modules,
# code generators): `bazel build --platforms=//platforms:cortex_m55 //...`
# skips them instead of failing.
HOST_ONLY = [
    "@platforms//cpu:x86_64",
    "@platforms//os:linux",
]
