# SPDX-License-Identifier: Apache-2.0
"""Ahead-of-time C emission: the classes that emit one node's C (operators; builtin_operators registers
the built-ins' classes), resolution of a graph's nodes into them (resolve), patch-based stages
(patch_stage), and custom operators' portable kernels with their generated host adapters
(portable_kernel, portable_adapters, openvino_extension; kernel_adapters writes them)."""
