# SPDX-License-Identifier: Apache-2.0
"""docs/pytorch.md: its Python snippets run, in order and in a temporary folder; each ```text block
shows lines that the snippet before it prints; its excerpts are real code; the command line it shows
converts the .pt2 its snippets save; and its operator table is the registry's.

`python -m tests.docs.pytorch_doc_test` (from the workspace root) prints the table (a failing check prints it too)."""

import contextlib
import functools
import io
import pathlib

import pytest
from opbridge.cli import main as opbridge_main
from opbridge.frontends.torch import quantizer
from opbridge.registry import default_registry_context

from tests.docs.doc_snippets import blocks, check_excerpts

PAGE = pathlib.Path("docs/pytorch.md").resolve()
ROOT = PAGE.parent.parent

BEGIN = "<!-- torch operators: generated from the registry by tests/docs/pytorch_doc_test.py -->"
END = "<!-- end torch operators -->"

# What the converters that are no single operator (ops/shared/torch_composite.py) do, by function;
# and the int8 column of those the quantizer never sees as a float32 tensor op.
COMPOSITE_OPERATORS = {
    "alias": "none: the output is the input",
    "convert_dropout": "none: the output is the input (eval mode)",
    "convert_getitem": "none: one output of a multi-output node",
    "convert_nothing": "none: a check torch.export records",
    "convert_batch_norm": "folded into the convolution before it, else MUL and ADD",
    "convert_native_batch_norm": "folded into the convolution before it, else MUL and ADD",
}
NOT_QUANTIZED = {"convert_getitem", "convert_nothing"}


@functools.cache
def derived_rules() -> dict[str, quantizer.OutputQuantization]:
    """The rules for_context derives from the operators' definitions (one-input element-wise, int8 form)."""
    return quantizer.OpbridgeQuantizer.for_context(default_registry_context()).custom_ops


def int8_rule(target: str) -> str:
    """What OpbridgeQuantizer does with the op (its rule tables, frontends/torch/quantizer.py)."""
    if target.startswith("quantized_decomposed."):
        return "PT2E's own"
    if target in quantizer.WEIGHTED_OPS:
        return "int8 weights per channel, int32 bias"
    if target in quantizer.BINARY_OPS or target in quantizer.OWN_OUTPUT_OPS:
        return "own parameters"
    if target in quantizer.FIXED_OUTPUT_OPS:
        scale, zero_point = quantizer.FIXED_OUTPUT_OPS[target]
        return f"fixed output: scale 1/{1 / scale:g}, zero point {zero_point}"
    if target in quantizer.CAT_OPS:
        return "one set shared by the inputs and the output"
    if target in quantizer.PAD_OPS:
        return "input's parameters when it pads with 0, else float32"
    if target in quantizer.SHARED_OUTPUT_OPS:
        return "input's parameters"
    derived = derived_rules().get(target)
    if derived is not None and derived.kind is quantizer.QuantizationKind.OWN:
        return "own parameters (its definition's quantization)"
    if derived is not None and derived.kind is quantizer.QuantizationKind.FIXED:
        return f"fixed output: scale 1/{1 / derived.scale:g}, zero point {derived.zero_point} (its definition's)"
    if derived is not None and derived.kind is quantizer.QuantizationKind.SAME_AS_INPUT:
        return "input's parameters (its definition's quantization)"
    return "float32"


def torch_operator_table() -> str:
    """The page's table: every key of the built-in torch_converters, the operator folder it belongs to
    (or what a composite converter does) and the quantizer's rule, between BEGIN and END."""
    context = default_registry_context()
    folder = {
        converter.target: definition.op_type
        for definition in context.operators.definitions()
        for converter in definition.torch_converters
    }
    rows = ["| torch op | opbridge operator | int8 (OpbridgeQuantizer) |", "|---|---|---|"]
    for key in sorted(context.torch_converters):
        function = context.torch_converters[key].convert.__qualname__
        operator = folder.get(key) or COMPOSITE_OPERATORS.get(function)
        assert operator is not None, f"{key}: say what {function} converts to in COMPOSITE_OPERATORS"
        int8 = "none" if function in NOT_QUANTIZED else int8_rule(key)
        rows.append(f"| `{key}` | {operator} | {int8} |")
    return "\n".join([BEGIN, *rows, END])


@pytest.fixture(scope="module")
def page_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, list[tuple[str, str]]]:
    """Runs the page's Python blocks (not the `# from <path>` excerpts) in one namespace, in a temporary
    folder; returns the folder and, for each ```text block, (its text, what the snippet before it printed)."""
    folder = tmp_path_factory.mktemp("pytorch_doc")
    namespace: dict[str, object] = {"__name__": f"doc:{PAGE.name}"}
    printed, shown = "", []
    count = 0
    with contextlib.chdir(folder):
        for language, code in blocks(PAGE):
            if language == "python" and not code.startswith("# from "):
                count += 1
                output = io.StringIO()
                with contextlib.redirect_stdout(output):
                    exec(compile(code, f"{PAGE}:python block {count}", "exec"), namespace)
                printed = output.getvalue()
            elif language == "text":
                shown.append((code, printed))
    assert count >= 14, f"only {count} Python blocks ran"
    return folder, shown


def test_printed_output_is_what_the_page_shows(page_run: tuple[pathlib.Path, list[tuple[str, str]]]) -> None:
    _, shown = page_run
    assert len(shown) >= 8
    for text, printed in shown:
        for line in text.splitlines():
            assert line in printed.splitlines(), f"the page shows {line!r}; the snippet printed:\n{printed}"


def test_the_command_line_converts_the_saved_program(page_run: tuple[pathlib.Path, list[tuple[str, str]]]) -> None:
    folder, _ = page_run
    with contextlib.chdir(folder):
        assert opbridge_main(["convert", "net.pt2", "-o", "out/net", "--prefix", "net", "-q"]) == 0
    assert (folder / "out/net/includes-api/net.h").is_file()


def test_excerpts_are_verbatim() -> None:
    assert check_excerpts(PAGE, ROOT) >= 2


def test_operator_table_is_the_registry() -> None:
    text = PAGE.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    expected = torch_operator_table()
    assert text[start:end] == expected, f"docs/pytorch.md's operator table is out of date; it should read:\n{expected}"


if __name__ == "__main__":
    print(torch_operator_table())
