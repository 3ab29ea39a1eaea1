# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE: LiteRT's builtin code and versions. Its options parser only refuses (a working
import never asks it): frontends/litert/resource_variables.py resolves a LiteRT ASSIGN_VARIABLE's
RESOURCE handle to a variable by name and builds this node."""

from typing import Any

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.shared.variables import VariableAttributes, unresolved_variable_operator


def parse_litert_options(operator: Any) -> VariableAttributes:
    return unresolved_variable_operator(operator)


LITERT_CODE = BuiltinOperator.ASSIGN_VARIABLE
LITERT_VERSIONS = frozenset({1})
