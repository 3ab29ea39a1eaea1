# SPDX-License-Identifier: Apache-2.0
"""Forwards rules_python's public API to Bazel's native Python rules (see ../README.md)."""

load("@bazel_tools//tools/python:toolchain.bzl", _py_runtime_pair = "py_runtime_pair")

py_runtime_pair = _py_runtime_pair

def py_binary(**attrs):
    native.py_binary(**attrs)

def py_library(**attrs):
    native.py_library(**attrs)

def py_test(**attrs):
    native.py_test(**attrs)

def py_runtime(**attrs):
    native.py_runtime(**attrs)
