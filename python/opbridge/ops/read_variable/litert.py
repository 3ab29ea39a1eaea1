# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE: LiteRT's builtin code and versions. Its options parser only refuses (a working import
never asks it): a LiteRT READ_VARIABLE reads a RESOURCE handle, which frontends/litert/resource_variables.py
resolves to a variable by name (with its initial value from CALL_ONCE's init subgraph) before it builds
this node."""

from typing import Any

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.shared.variables import VariableAttributes, unresolved_variable_operator


def parse_litert_options(operator: Any) -> VariableAttributes:
    return unresolved_variable_operator(operator)


LITERT_CODE = BuiltinOperator.READ_VARIABLE
LITERT_VERSIONS = frozenset({1})
