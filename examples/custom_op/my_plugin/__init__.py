# SPDX-License-Identifier: Apache-2.0
"""A starter opbridge plugin: the custom no-op (a byte copy) of docs/custom_ops.md."""
