# SPDX-License-Identifier: Apache-2.0
"""Backends that run or compile a Graph."""
