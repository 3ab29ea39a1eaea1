# SPDX-License-Identifier: Apache-2.0
"""Model importers: each turns a model file into an opbridge Graph."""
