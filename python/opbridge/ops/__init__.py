# SPDX-License-Identifier: Apache-2.0
"""Operators: one folder per operator, each registered by one explicit call.

An operator's folder holds its `OperatorDefinition`, schema, typed
attributes, NumPy reference, C emitter, LiteRT, ONNX and PyTorch importers
and tests (docs/adding_an_operator.md); `ops/builtin.py` lists the built-in
operators; `registry_context.py` (OperatorRegistry) holds them for one conversion;
`ops/definition.py` and `ops/contracts.py` are the contract every operator
follows.
"""
