# SPDX-License-Identifier: Apache-2.0
"""What a LiteRT parser sees, and the canonical operator key of a custom operator.

One key names an operator in all registries: the parser's key in
`litert_parsers`, the node's op_type, and the class's key in
`aot_operator_classes`. For a LiteRT custom operator derive it from the
customCode with `custom_code_to_op_key`.
"""

import dataclasses
import re
from typing import Any

import flatbuffers

from opbridge.errors import UnsupportedOperatorError

_C_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_BUILTIN_CODE_SLOT = 10  # OperatorCode.builtin_code's vtable offset


def builtin_operator_code(operator_code: Any) -> int:
    """An OperatorCode's builtin operator as LiteRT and TFLite Micro read it: the larger of its builtin_code
    and deprecated_builtin_code fields. The `tflite` package's BuiltinCode() returns the deprecated field
    whenever builtin_code is below 127, which hides a builtin_code that disagrees with it; the field is
    read as stored here."""
    table = operator_code._tab
    offset = table.Offset(_BUILTIN_CODE_SLOT)
    stored = table.Get(flatbuffers.number_types.Int32Flags, offset + table.Pos) if offset else 0
    return max(int(stored), int(operator_code.DeprecatedBuiltinCode()))


def custom_code_to_op_key(custom_code: str) -> str:
    """'custom-noop' -> 'CUSTOM_NOOP'.

    Hyphens and spaces become underscores first, then surrounding
    whitespace is trimmed and the result uppercased, so ' custom-noop '
    gives '_CUSTOM_NOOP_'. Nothing else is rewritten: a key that is not a C
    identifier (a dot, other punctuation) is rejected here rather than left
    to fail in the C compiler.
    """
    key = custom_code.replace("-", "_").replace(" ", "_").strip().upper()
    if not _C_IDENTIFIER.match(key):
        raise UnsupportedOperatorError(
            f"custom operator code {custom_code!r} gives the key {key!r}, which is not a C identifier",
            hint="a customCode may use letters, digits, '_', '-' and spaces only (no dots or other punctuation); "
            "rename the custom operator when exporting the model",
        )
    return key


@dataclasses.dataclass(frozen=True)
class LiteRTNode:
    """One LiteRT node, as handed to the parser registered for its key."""

    index: int  # position in subgraph 0
    op_key: str  # the canonical key (also the node's op_type)
    version: int
    operator: Any  # tflite.Operator: builtin options, inputs, outputs
    model: Any  # tflite.Model
    custom_code: str | None = None  # CUSTOM operators only
    custom_options: bytes = b""  # CUSTOM operators: their options (TFLM's Signal ops: a flexbuffer)

    def describe(self) -> str:
        code = f" {self.custom_code!r}" if self.custom_code is not None else ""
        return f"node {self.index} ({self.op_key}{code})"
