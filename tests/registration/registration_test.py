# SPDX-License-Identifier: Apache-2.0
"""Every operator folder is registered, complete and tested, and its C kernels are linked.

- each folder of python/opbridge/ops (but shared/) is in ops/builtin.py's BUILTIN_OPERATOR_FOLDERS and the
  other way round;
- each has the operator folder's files (docs/adding_an_operator.md), an op_test.py (which the BUILD's glob
  makes a target), and an __init__.py that holds only its definitions;
- each definition has a schema, a reference and a C emitter, and names C kernel files that are among the
  sources aot_model links (//cc/kernels:linked_sources, in this test's runfiles);
- every linked kernel source is named by some operator;
- each operator whose C kernels get a per-kernel golden test (cc/kernels/kernel_tests/operators.bzl) has its
  cases in its folder's kernel_cases.py, and every case there names an operator the folder defines;
- each definition decides every fact (MACs, layout, int8 output quantization, memory: none left UNDECIDED),
  and its quantization agrees with its schema (an op with int8 output kinds has an int8 output);
- the README's operator table is the registry's.

The checks are functions of their inputs, so the tests at the end break each on purpose.
"""

import ast
import dataclasses
import importlib
import importlib.util
import pathlib

import pytest
from opbridge.ops.builtin import BUILTIN_OPERATOR_FOLDERS, folder_definitions
from opbridge.ops.definition import OWN, UNDECIDED, OperatorDefinition, QuantizationKind, Undecided, undecided_facts

from tests.registration.operator_table import BEGIN, END, operator_table

OPS = pathlib.Path("python/opbridge/ops")
KERNELS = pathlib.Path("cc/kernels")
# The operators whose kernels get a per-kernel golden test (//cc/kernels:<op>_kernel_test).
KERNEL_TEST_LIST = KERNELS / "kernel_tests/operators.bzl"
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


def kernel_tested_operators(bzl: pathlib.Path) -> list[str]:
    """The operator keys of KERNEL_TEST_OPERATORS in the kernel tests' operators.bzl (add -> ADD)."""
    for statement in ast.parse(bzl.read_text()).body:
        if isinstance(statement, ast.Assign) and getattr(statement.targets[0], "id", "") == "KERNEL_TEST_OPERATORS":
            return [name.upper() for name in ast.literal_eval(statement.value)]
    raise ValueError(f"{bzl} has no KERNEL_TEST_OPERATORS")


def folder_kernel_cases(folder: str) -> set[str] | None:
    """The operators CASES of ops/<folder>/kernel_cases.py names; None when the folder has no such file."""
    name = f"opbridge.ops.{folder}.kernel_cases"
    if importlib.util.find_spec(name) is None:
        return None
    return set(importlib.import_module(name).CASES)


def kernel_case_problems(tested: list[str], folders: dict[str, tuple[set[str], set[str] | None]]) -> list[str]:
    """`folders`: each folder's operators and the operators its kernel_cases.py has cases of (None: no file)."""
    problems = []
    folder_of = {op_type: folder for folder, (op_types, _) in folders.items() for op_type in op_types}
    for op_type in tested:
        folder = folder_of.get(op_type)
        if folder is None:
            problems.append(f"{KERNEL_TEST_LIST} names {op_type}, which no operator folder defines")
            continue
        cases = folders[folder][1]
        if cases is None:
            problems.append(f"{op_type}'s kernels are tested but ops/{folder}/ has no kernel_cases.py")
        elif op_type not in cases:
            problems.append(f"{op_type}'s kernels are tested but ops/{folder}/kernel_cases.py has no case of it")
    for folder, (op_types, cases) in sorted(folders.items()):
        problems += [
            f"ops/{folder}/kernel_cases.py has cases of {op_type}, which ops/{folder}/ does not define"
            for op_type in sorted((cases or set()) - op_types)
        ]
    return problems


def registered_kernel_cases() -> dict[str, tuple[set[str], set[str] | None]]:
    return {
        folder: ({d.op_type for d in folder_definitions(folder)}, folder_kernel_cases(folder))
        for folder in BUILTIN_OPERATOR_FOLDERS
    }


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


def test_tested_kernels_have_their_cases_in_their_folders() -> None:
    tested = kernel_tested_operators(KERNEL_TEST_LIST)
    assert tested, f"{KERNEL_TEST_LIST} lists no operator"
    assert kernel_case_problems(tested, registered_kernel_cases()) == []


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


def test_a_tested_kernel_without_cases_and_a_stray_case_are_reported() -> None:
    folders = registered_kernel_cases()
    folders["abs"] = (folders["abs"][0], None)
    folders["pad"] = ({"PAD", "PADV2"}, {"PAD"})
    folders["relu"] = ({"RELU"}, {"RELU", "RELU6"})
    assert kernel_case_problems([*kernel_tested_operators(KERNEL_TEST_LIST), "NO_SUCH_OP"], folders) == [
        "ABS's kernels are tested but ops/abs/ has no kernel_cases.py",
        "PADV2's kernels are tested but ops/pad/kernel_cases.py has no case of it",
        f"{KERNEL_TEST_LIST} names NO_SUCH_OP, which no operator folder defines",
        "ops/relu/kernel_cases.py has cases of RELU6, which ops/relu/ does not define",
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
