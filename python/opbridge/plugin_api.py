# SPDX-License-Identifier: Apache-2.0
"""The plugin API in one import: the names heliaAOT's plugin API defines, kept so a heliaAOT plugin ports
by changing its imports (docs/heliaaot_porting.md), and what opbridge's plugins
use besides.

heliaAOT's names (seed 000), which opbridge keeps although its own vocabulary differs
(docs/architecture.md, "Glossary"):

- `RegistryContext`, `build_default_registry_context`: the registries of one conversion;
  its registries `litert_parsers`, `litert_model_hooks`, `air_options` (an op's attribute
  class by key), `aot_operator_classes` and `transforms` keep heliaAOT's names too.
- `custom_code_to_op_key`: a LiteRT customCode -> the canonical operator key.
- `AotOperator`: the C emitter of one node; `OperatorAttributes`: its per-node code-generation
  settings (config `operators[].attributes`), not the op's attributes (`node.attributes`).
- `AotConverter`, `ConvertArgs`: one conversion, from the Python API.
"""

from opbridge.aot.operators import AotOperator, AotTensor, NodeCodeOperator, OperatorAttributes
from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.litert.nodes import LiteRTNode, custom_code_to_op_key
from opbridge.ops.definition import OnnxConverter, OperatorDefinition, ReferenceCall
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import OpSchema

__all__ = [
    "AotConverter",
    "AotOperator",
    "AotTensor",
    "ConvertArgs",
    "EmitContext",
    "LiteRTNode",
    "NodeCode",
    "NodeCodeOperator",
    "OnnxConverter",
    "OpSchema",
    "OperatorAttributes",
    "OperatorDefinition",
    "OpsetDomain",
    "ReferenceCall",
    "RegistryContext",
    "build_default_registry_context",
    "custom_code_to_op_key",
]
