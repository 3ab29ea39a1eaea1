# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE: stores a new value in a LiteRT resource variable, kept by the variable's
READ_VARIABLE node (whose output is this node's second input, so it always runs after the read)."""

from opbridge.ops.assign_variable.emit_c import emit_assign_variable
from opbridge.ops.assign_variable.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.assign_variable.reference import assign_variable_reference, variable_state_owner
from opbridge.ops.assign_variable.schema import ASSIGN_VARIABLE_SCHEMA
from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition

ASSIGN_VARIABLE = OperatorDefinition(
    op_type="ASSIGN_VARIABLE",
    # Claimed by frontends/litert/resource_variables.py, which builds the node: its parser only refuses.
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    reference=assign_variable_reference,
    emit_c=emit_assign_variable,
    doc=__doc__ or "",
    schema=ASSIGN_VARIABLE_SCHEMA,
    stateful=True,  # no outputs: dead-code elimination keeps it for this
    state_owner=variable_state_owner,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ASSIGN_VARIABLE,)
