# SPDX-License-Identifier: Apache-2.0
"""Every operator folder is registered, complete and tested, and its C kernels are linked.

- each folder of python/opbridge/ops (but shared/) is in ops/builtin.py's BUILTIN_OPERATOR_FOLDERS and the
  other way round;
- each has the operator folder's files (docs/adding_an_operator.md), an op_test.py (which the BUILD's glob
  makes a target), and an __init__.py that holds only its definitions;
- each definition has a schema, a reference and a C emitter, and names C kernel files that are among the
  sources aot_model links (//cc/kernels:linked_sources, in this test's runfiles);
- every linked kernel source is named by some operator;
- each definition decides every fact (MACs, layout, int8 output quantization, memory: none left UNDECIDED),
  and its quantization agrees with its schema (an op with int8 output kinds has an int8 output);
- the README's operator table is the registry's.

The checks are functions of their inputs, so the tests at the end break each on purpose.
"""

import ast
import dataclasses
import pathlib

import pytest
from opbridge.ops.builtin import BUILTIN_OPERATOR_FOLDERS, folder_definitions
from opbridge.ops.definition import OWN, UNDECIDED, OperatorDefinition, QuantizationKind, Undecided, undecided_facts

from tests.registration.operator_table import BEGIN, END, operator_table

OPS = pathlib.Path("python/opbridge/ops")
KERNELS = pathlib.Path("cc/kernels")
NOT_OPERATOR_FOLDERS = {"shared", "__pycache__"}
REQUIRED_FILES = ("__init__.py", "schema.py", "reference.py", "emit_c.py", "litert.py", "op_test.py")
# Kernel sources no operator calls directly; the kernels that need them do.
SUPPORT_SOURCES = {"opbridge_gemmlowp.c"}


def operator_folders(ops: pathlib.Path) -> set[str]:
    return {p.name for p in ops.iterdir() if p.is_dir() and p.name not in NOT_OPERATOR_FOLDERS}


def registration_problems(folders: set[str], registered: tuple[str, ...]) -> list[str]:
    problems = [
        f"ops/{name}/ is not registered: add {name!r} to ops/builtin.py" for name in sorted(folders - set(registered))
    ]
    problems += [
        f"ops/builtin.py registers {name!r}, which has no folder in ops/" for name in registered if name not in folders
    ]
    problems += [
        f"ops/builtin.py registers {name!r} twice"
        for name in sorted({n for n in registered if registered.count(n) > 1})
    ]
    return problems


def folder_problems(folder: pathlib.Path) -> list[str]:
    problems = [f"ops/{folder.name}/ has no {name}" for name in REQUIRED_FILES if not (folder / name).is_file()]
    init = folder / "__init__.py"
    if init.is_file():
        for statement in ast.parse(init.read_text()).body:
            if isinstance(statement, ast.Import | ast.ImportFrom):
                continue
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                continue  # the docstring
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call | ast.Tuple):
                continue  # X = OperatorDefinition(...), DEFINITIONS = (...)
            problems.append(
                f"ops/{folder.name}/__init__.py line {statement.lineno}: holds more than the definition; "
                "move it to reference.py, emit_c.py, litert.py or onnx.py"
            )
    return problems


def kernel_problems(definitions: list[OperatorDefinition], linked: set[str]) -> list[str]:
    problems = []
    claimed: set[str] = set()
    for definition in definitions:
        for field in ("schema", "reference", "emit_c"):
            if getattr(definition, field) is None:
                problems.append(f"{definition.op_type} has no {field}")
        for source in definition.c_kernels:
            claimed.add(source)
            if source not in linked:
                problems.append(
                    f"{definition.op_type} names the kernel {source}, which aot_model does not link "
                    f"(not in //cc/kernels:linked_sources): put it in cc/kernels as opbridge_*.c"
                )
    problems += [
        f"cc/kernels/{source} is linked but no operator names it in c_kernels"
        for source in sorted(linked - claimed - SUPPORT_SOURCES)
    ]
    return problems


def fact_problems(definitions: list[OperatorDefinition]) -> list[str]:
    """Facts left UNDECIDED, and int8 output quantizations of ops whose schema has no int8 output."""
    problems = []
    for definition in definitions:
        problems += [
            f"{definition.op_type} leaves {name} undecided: set it in its OperatorDefinition "
            '(docs/adding_an_operator.md, "Operator facts")'
            for name in undecided_facts(definition)
        ]
        quantization = definition.quantization
        schema = definition.schema
        if schema is None or not schema.outputs or isinstance(quantization, Undecided):
            continue
        int8_out = any(t.value == "int8" for t in schema.constraint(schema.outputs[0].type_var).allowed)
        if quantization.kind is not QuantizationKind.FLOAT and not int8_out:
            problems.append(
                f"{definition.op_type} declares quantization {quantization.kind.name} but its schema has no int8 output"
            )
    return problems


def linked_kernel_sources() -> set[str]:
    return {path.name for path in KERNELS.glob("*.c")}


def all_definitions() -> list[OperatorDefinition]:
    return [definition for folder in BUILTIN_OPERATOR_FOLDERS for definition in folder_definitions(folder)]


def test_every_operator_folder_is_registered_once() -> None:
    assert registration_problems(operator_folders(OPS), BUILTIN_OPERATOR_FOLDERS) == []


@pytest.mark.parametrize("name", sorted(operator_folders(OPS)))
def test_operator_folder_is_complete(name: str) -> None:
    assert folder_problems(OPS / name) == []


def test_op_tests_are_bazel_targets_from_a_glob() -> None:
    build = pathlib.Path("python/opbridge/BUILD.bazel").read_text()
    assert 'glob(["ops/*/op_test.py"])' in build, "op test targets must come from the glob, not a list"


def test_kernels_are_linked_and_claimed() -> None:
    linked = linked_kernel_sources()
    assert linked, "//cc/kernels:linked_sources is not in the runfiles"
    assert kernel_problems(all_definitions(), linked) == []


def test_every_fact_is_decided() -> None:
    assert fact_problems(all_definitions()) == []


def test_readme_operator_table_is_the_registry() -> None:
    readme = pathlib.Path("README.md").read_text()
    start, end = readme.find(BEGIN), readme.find(END)
    assert start >= 0 and end > start, f"README.md has no operator table between {BEGIN} and {END}"
    expected = operator_table()
    assert readme[start : end + len(END)] == expected, (
        "README.md's operator table is stale; replace it with the output of "
        f"`bazel run //tests/registration:operator_table`:\n{expected}"
    )


# The checks, broken on purpose.


def test_an_unregistered_folder_is_reported() -> None:
    registered = tuple(n for n in BUILTIN_OPERATOR_FOLDERS if n != "relu")
    assert registration_problems(operator_folders(OPS), registered) == [
        "ops/relu/ is not registered: add 'relu' to ops/builtin.py"
    ]


def test_a_folder_without_a_test_or_with_code_in_init_is_reported(tmp_path: pathlib.Path) -> None:
    folder = tmp_path / "half_done"
    folder.mkdir()
    for name in REQUIRED_FILES[1:-1]:
        (folder / name).write_text("")
    (folder / "__init__.py").write_text('"""HALF_DONE."""\n\nimport numpy\n\n\ndef helper():\n    pass\n')
    assert folder_problems(folder) == [
        "ops/half_done/ has no op_test.py",
        "ops/half_done/__init__.py line 6: holds more than the definition; "
        "move it to reference.py, emit_c.py, litert.py or onnx.py",
    ]


def test_a_kernel_left_out_of_the_linked_sources_is_reported() -> None:
    linked = linked_kernel_sources() - {"opbridge_softmax_s8.c"}
    assert kernel_problems(all_definitions(), linked) == [
        "SOFTMAX names the kernel opbridge_softmax_s8.c, which aot_model does not link "
        "(not in //cc/kernels:linked_sources): put it in cc/kernels as opbridge_*.c"
    ]


def test_an_unclaimed_kernel_is_reported() -> None:
    assert kernel_problems(all_definitions(), linked_kernel_sources() | {"opbridge_orphan.c"}) == [
        "cc/kernels/opbridge_orphan.c is linked but no operator names it in c_kernels"
    ]


def test_an_undecided_fact_is_reported() -> None:
    relu = next(d for d in all_definitions() if d.op_type == "RELU")
    undecided = dataclasses.replace(relu, macs=UNDECIDED, memory=UNDECIDED)
    assert fact_problems([undecided]) == [
        'RELU leaves macs undecided: set it in its OperatorDefinition (docs/adding_an_operator.md, "Operator facts")',
        'RELU leaves memory undecided: set it in its OperatorDefinition (docs/adding_an_operator.md, "Operator facts")',
    ]


def test_an_int8_quantization_without_an_int8_output_is_reported() -> None:
    exp = next(d for d in all_definitions() if d.op_type == "EXP")
    assert fact_problems([dataclasses.replace(exp, quantization=OWN)]) == [
        "EXP declares quantization OWN but its schema has no int8 output"
    ]
