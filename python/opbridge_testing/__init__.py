# SPDX-License-Identifier: Apache-2.0
"""Test data shared by tests, golden files and benchmarks."""
