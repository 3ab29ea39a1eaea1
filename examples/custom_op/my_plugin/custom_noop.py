# SPDX-License-Identifier: Apache-2.0
"""CUSTOM_NOOP: copies its input to its output; the smallest custom operator
that parses, resolves, emits, links and runs (docs/custom_ops.md).

    opbridge convert model.tflite -o out --plugin my_plugin.custom_noop
"""

import pathlib

from opbridge.aot.operators import AotOperator
from opbridge.frontends.litert.nodes import LiteRTNode, custom_code_to_op_key
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition, ReferenceCall
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import ANY_TYPE, FormalParameter, OpSchema, TypeConstraint, same_as_input

CUSTOM_CODE = "custom-noop"
CUSTOM_OP_KEY = custom_code_to_op_key(CUSTOM_CODE)  # "CUSTOM_NOOP"
DOMAIN = "com.example.custom_op"

# What the operator takes and gives: one tensor of any type, copied unchanged.
CUSTOM_NOOP_SCHEMA = OpSchema(
    domain=DOMAIN,
    name="CustomNoop",
    since_version=1,
    doc="Copies its input to its output.",
    inputs=(FormalParameter("input", "T", "any tensor"),),
    outputs=(FormalParameter("output", "T", "the input's values, its dtype and shape"),),
    type_constraints=(TypeConstraint("T", ANY_TYPE, "any type"),),
    infer=same_as_input(0),
)


def parse_custom_noop(node: LiteRTNode) -> None:
    """The node's options: this operator takes none, so a payload is a model error."""
    if node.custom_options:
        raise ValueError(f"{CUSTOM_CODE} takes no options, got {len(node.custom_options)} bytes")


def custom_noop_reference(call: ReferenceCall) -> list:
    """The host's answer for the same node: the input, unchanged."""
    return [call.value(0).copy().reshape(call.outputs[0].shape)]


class CustomNoopOperator(AotOperator):
    """Emits the C for one CUSTOM_NOOP node: a byte copy from input to output."""

    TYPE = CUSTOM_OP_KEY

    def on_resolve(self) -> None:
        """Rejects a node the emitted C could not serve."""
        if len(self.input_tensors) != 1 or len(self.output_tensors) != 1:
            raise ValueError("CUSTOM_NOOP expects exactly one input and one output")
        source, destination = self.input_tensors[0], self.output_tensors[0]
        if source is None or source.dtype != destination.dtype:
            raise ValueError("CUSTOM_NOOP expects input and output of the same dtype")
        if source.nbytes != destination.nbytes:
            raise ValueError("CUSTOM_NOOP expects input and output of the same size")

    def emit(self, save_path: pathlib.Path) -> None:
        """Writes the operator's header and source into the module tree."""
        stem = f"{self.prefix}_{self.name}"
        source = self.input_tensors[0]
        destination = self.output_tensors[0]
        assert source is not None  # on_resolve checked
        (save_path / "includes-api" / f"{stem}.h").write_text(
            f'#pragma once\n\n#include "{self.prefix}_common.h"\n\n'
            '#ifdef __cplusplus\nextern "C" {\n#endif\n\n'
            f"int32_t {stem}_run({self.prefix}_model_context_t *ctx);\n\n"
            "#ifdef __cplusplus\n}\n#endif\n",
            encoding="utf-8",
            newline="\n",
        )
        (save_path / "src" / f"{stem}.c").write_text(
            f'#include "{self.prefix}_common.h"\n#include "{stem}.h"\n\n'
            f"{self.function_attributes()}int32_t\n{stem}_run({self.prefix}_model_context_t *ctx)\n"
            "{\n"
            f"    const void *input = ctx->tensor_ptrs[{self.prefix}_{source.name}];\n"
            f"    void *output = ctx->tensor_ptrs[{self.prefix}_{destination.name}];\n"
            "    /* A status of our own (1000..1999) reaches the caller of <prefix>_run. */\n"
            f"    if (input == NULL || output == NULL) {{ return {self.prefix}_status_custom_first; }}\n"
            "    if (input != output) { memmove(output, input, "
            f"{destination.nbytes}u); }}\n"
            "    return 0;\n}\n",
            encoding="utf-8",
            newline="\n",
        )


def customize_registry(context: RegistryContext) -> None:
    """Hooks the parser, the reference (with the schema) and the operator class into a conversion."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "the starter plugin's operators"))
    context.litert_parsers.register(CUSTOM_OP_KEY, parse_custom_noop)
    context.operators.add(
        OperatorDefinition(
            op_type=CUSTOM_OP_KEY,
            reference=custom_noop_reference,
            schema=CUSTOM_NOOP_SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): a copy (no MACs) of each element,
            # int8 on its input's parameters, no arena memory of its own.
            macs=None,
            layout=Layout.ELEMENTWISE,
            quantization=SAME_AS_INPUT,
            memory=NO_MEMORY,
        )
    )
    context.aot_operator_classes.register(CUSTOM_OP_KEY, CustomNoopOperator)
