# SPDX-License-Identifier: Apache-2.0
"""Python test and binary macros: host-only, on the pinned venv."""

load("@rules_python//python:defs.bzl", "py_binary", "py_test")
load("//toolchains:defs.bzl", "HOST_ONLY")

def py_pytest_test(name, srcs, deps = [], data = [], args = [], **kwargs):
    """A py_test that runs the pytest files `srcs` with the pinned venv."""
    py_test(
        name = name,
        srcs = srcs + ["//toolchains:pytest_main.py"],
        main = "//toolchains:pytest_main.py",
        args = args + ["$(rootpath %s)" % src for src in srcs],
        # The test helpers (python/opbridge_testing) are every test's to use.
        deps = deps + ["//python/opbridge_testing"],
        data = data,
        python_version = "PY3",
        srcs_version = "PY3",
        target_compatible_with = HOST_ONLY,
        **kwargs
    )

def host_py_binary(name, **kwargs):
    """A py_binary that runs on the host (skipped by --platforms=<MCU> builds)."""
    py_binary(
        name = name,
        python_version = "PY3",
        srcs_version = "PY3",
        target_compatible_with = HOST_ONLY,
        **kwargs
    )
