# SPDX-License-Identifier: Apache-2.0
"""The previous main job, `bazel run //examples/kws_m55:kws_demo`: classifies on the M55 like the reference."""

import pathlib
import re
import subprocess

from opbridge.frontends.litert import load_litert_model
from opbridge.registry import default_registry_context

MODEL = pathlib.Path("../shared_models/models/mlperf_tiny/kws_ref_model.tflite")


def test_kws_demo_runs_on_the_m55_and_agrees_with_the_reference() -> None:
    result = subprocess.run(["examples/kws_m55/kws_demo"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    top = re.search(r"^top class: (\d+) \((\w+)\)", result.stdout, re.MULTILINE)
    expected = re.search(r"^reference interpreter's top class: (\d+) \((\w+)\)", result.stdout, re.MULTILINE)
    assert top and expected and top.groups() == expected.groups()
    arena = re.search(r"^arena: (\d+) bytes \(liveness lower bound (\d+) bytes\)", result.stdout, re.MULTILINE)
    assert arena and int(arena.group(1)) == int(arena.group(2)) > 0
    flash = re.search(
        r"^flash: \d+ bytes = kernels (\d+) \+ module code (\d+) \+ constants (\d+)", result.stdout, re.MULTILINE
    )
    assert flash
    kernels, module_code, constants = map(int, flash.groups())
    assert kernels > 0 and module_code > 0
    # The constants in the M55 ELF (symbol sizes) are the model file's weights, each exactly once:
    # none dropped by the linker, none duplicated, none counted as kernels or module code; except the
    # biases the folded kernels replace with their own (module code; docs/kernels.md).
    context = default_registry_context()
    graph = load_litert_model(MODEL, context)
    absorbed = set()
    for node in graph.nodes:
        definition = context.operators[node.op_type]
        if definition.absorbed_constants is not None:
            absorbed |= set(definition.absorbed_constants(graph, node))
    assert absorbed, "kws's folded convolutions absorb their biases"
    model_constants = sum(
        tensor.bytes for tensor in graph.tensors if tensor.is_constant and tensor.index not in absorbed
    )
    assert constants == model_constants, f"ELF constants {constants} bytes, model constants {model_constants} bytes"
