# SPDX-License-Identifier: Apache-2.0
"""Ahead-of-time C emission: operator classes (operators), resolution of a graph's nodes (resolve)."""
