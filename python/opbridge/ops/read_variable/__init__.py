# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE: the current value of a LiteRT resource variable, kept as module state (this node's
persistent bytes in C, its state in the reference) and initialised from CALL_ONCE's init subgraph."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.read_variable.emit_c import emit_read_variable, variable_bytes
from opbridge.ops.read_variable.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.read_variable.reference import read_variable_reference
from opbridge.ops.read_variable.schema import READ_VARIABLE_SCHEMA

READ_VARIABLE = OperatorDefinition(
    op_type="READ_VARIABLE",
    # Claimed by frontends/litert/resource_variables.py, which builds the node: its parser only refuses.
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    reference=read_variable_reference,
    emit_c=emit_read_variable,
    doc=__doc__ or "",
    schema=READ_VARIABLE_SCHEMA,
    stateful=True,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    memory=NodeMemory(persistent=variable_bytes),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (READ_VARIABLE,)
