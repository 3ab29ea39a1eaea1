# SPDX-License-Identifier: Apache-2.0
"""Operators: one folder per operator, each registered by one explicit call.

An operator's folder holds its typed attributes, its LiteRT importer, its
NumPy reference implementation and their tests; `ops/builtin.py` lists the
built-in operators; `ops/registry.py` holds them for one conversion.
"""
