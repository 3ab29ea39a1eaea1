# SPDX-License-Identifier: Apache-2.0
"""Python test and binary macros: host-only, on the pinned venv."""

load("@rules_python//python:defs.bzl", "py_binary", "py_library", "py_test")
load("//toolchains:defs.bzl", "HOST_ONLY")

def py_pytest_test(name, srcs, deps = [], data = [], args = [], testing_helpers = True, **kwargs):
    """A py_test that runs the pytest files `srcs` with the pinned venv.

    testing_helpers: whether the test helpers (//python/opbridge_testing, and with them the converter and the
      built-in operators)
    are in its deps. A test that imports neither says False, and depends on the narrow library targets it
    imports (//python/opbridge:errors, ...): an edit elsewhere in the library does not rerun it.
    """
    py_test(
        name = name,
        srcs = srcs + ["//toolchains:pytest_main.py"],
        main = "//toolchains:pytest_main.py",
        args = args + ["$(rootpath %s)" % src for src in srcs],
        deps = deps + (["//python/opbridge_testing"] if testing_helpers else []),
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

def opbridge_library(name, srcs = [], deps = [], **kwargs):
    """A py_library of python/opbridge (python/ is the import root), host only.

    `srcs` may be empty: a target that gathers others (`:ops_builtin`).
    Every one has the package markers (//python/opbridge:package, the __init__.py files without imports).
    """
    py_library(
        name = name,
        srcs = srcs,
        deps = deps + ([] if name == "package" else ["//python/opbridge:package"]),
        imports = [".."],
        target_compatible_with = HOST_ONLY,
        visibility = ["//visibility:public"],
        **kwargs
    )
