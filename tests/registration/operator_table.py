# SPDX-License-Identifier: Apache-2.0
"""The README's operator table, rendered from the built-in registry (tests/registration checks the README
against it; `bazel run //tests/registration:operator_table` prints it)."""

from opbridge.ops.builtin import builtin_operators
from opbridge.ops.definition import OperatorDefinition

BEGIN = "<!-- operators: generated from the registry by tests/registration/operator_table.py -->"
END = "<!-- end operators -->"


def dtypes_of(definition: OperatorDefinition) -> str:
    if definition.schema is None:
        return ""
    names = {dtype.value for constraint in definition.schema.type_constraints for dtype in constraint.allowed}
    return ", ".join(sorted(names))


def operator_table() -> str:
    rows = [
        "| operator | LiteRT versions | ONNX ops | PyTorch ops | dtypes |",
        "|---|---|---|---|---|",
    ]
    for definition in sorted(builtin_operators(), key=lambda d: d.op_type):
        litert = (
            ", ".join(map(str, sorted(definition.litert_versions)))
            if definition.litert_builtin_code is not None
            else ""
        )
        onnx = ", ".join(converter.key for converter in definition.onnx_converters)
        # "aten.conv2d.default" -> "conv2d"; other namespaces keep theirs.
        torch = ", ".join(
            converter.target.removeprefix("aten.").removesuffix(".default") for converter in definition.torch_converters
        )
        rows.append(f"| {definition.op_type} | {litert} | {onnx} | {torch} | {dtypes_of(definition)} |")
    return "\n".join([BEGIN, *rows, END])


if __name__ == "__main__":
    print(operator_table())
