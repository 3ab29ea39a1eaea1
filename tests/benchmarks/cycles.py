# SPDX-License-Identifier: Apache-2.0
"""Instruction benchmark: one inference of each model's module on the emulated Cortex-M55 and Cortex-M4.

    bazel run -c opt //tests/benchmarks:cycles

Runs cycles_main.c (one <prefix>_run after init, inputs zero) under
qemu-system-arm -icount shift=5 (mps3-an547 for the M55, mps2-an386 for the
M4), where SysTick counts the CPU clock (32 MHz and 25 MHz) and QEMU
advances 32 ns per instruction (platforms/boards/common/opbridge_board_timer.h);
deterministic to a few instructions. QEMU counts instructions, not
cycles: no MVE beats, no wait states. Each program is built with the
core's own kernel variant (Helium on the M55, DSP on the M4)
and with the portable variant too (--//cc/kernels:portable).
Flash is split into kernels, module code and constants from the ELF's
symbols. A second build of each module times every node (OPBRIDGE_TIME_NODES)
for the shares per operator type. MACs are counted from the model's graph;
MACs/16 is the M55's floor (one VMLADAVA.S8 per 16 int8 multiply-accumulates).
TFLite Micro with CMSIS-NN and heliaAOT are quoted from the issues (measured
there at -O2; M4: TFLM built from source with CMSIS-NN's DSP kernels).
Besides the shared models, the int8 PyTorch programs the build writes
(examples/pytorch_custom_op, tests/torch) have no .tflite: no TFLite Micro
figures (n/a). The converter-made suite (tests/models/converter_suite) follows.
x floor: the M55's instructions over MACs/16, the M4's over MACs/2. Then, per
model and core, where the instructions go (tests/benchmarks/node_profile.py):
each operator type's share and ratio to its floor, and the five nodes
furthest above theirs, with shapes, kernel form and parameters.

micro_speech's audio front end follows: one 1 s clip (49 frames) through its module on both
cores, whole and per operator type (instructions per frame and share).

    bazel run -c opt //tests/benchmarks:cycles -- --front-end

prints that table only.

    bazel run -c opt //tests/benchmarks:cycles -- --write-costs

runs only the node-timed programs of the shared models and the suite, on
both cores, fits the instruction lines `opbridge analyze` estimates with
(python/opbridge/analysis/instruction_costs.py: one per operator, and one
per kernel path) on the shared models and half the suite, prints how far
the estimates are from the measured runs of every model, the other half
of the suite held out, and writes the lines into the checkout.
"""

import collections
import datetime
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import wave

from opbridge.analysis.instruction_costs import (
    ANY_DTYPE,
    COSTS_FILE,
    InstructionCosts,
    NodeWork,
    cost_key,
    fit_line,
    generic_key,
    node_work,
)
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.flash import flash_breakdown
from opbridge.converter import AotConverter, ConvertArgs, PlannedModel, load_convert_args
from opbridge.frontends.models import load_model
from opbridge.ir import Graph
from opbridge.ops.builtin import build_builtin_registry
from opbridge.plugins import build_plugin_context
from opbridge.progress import Progress
from opbridge.registry import default_registry_context
from opbridge.registry_context import OperatorRegistry, RegistryContext

from tests.benchmarks.node_profile import FLOOR_MACS_PER_INSTRUCTION, kernel_forms, profile_lines, timed_nodes

RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
SHARED_MODELS = RUNFILES_ROOT.parent / "shared_models" / "models"
TIMEOUT_SECONDS = 600
NAME_WIDTH = 24  # the model column
# The fewest timed nodes of one kernel path for --write-costs to fit that path a line of its own.
MIN_PATH_NODES = 3
# model -> (TFLM + CMSIS-NN Helium on the M55, heliaAOT on the M55, TFLM + CMSIS-NN DSP on the M4),
# instructions, quoted from issues 3 and 15.
QUOTED = {
    "kws": (1815403, 1783777, 7697487),
    "resnet": (4911854, 4425270, 29859145),
    "ad01": (150150, 64094, 583086),
}
MODELS = {
    "kws": "mlperf_tiny/kws_ref_model.tflite",
    "resnet": "mlperf_tiny/pretrainedResnet_quant.tflite",
    "ad01": "mlperf_tiny/ad01_int8.tflite",
    "micro_speech": "tflm/micro_speech_quantized.tflite",
    "hello_world": "tflm/hello_world_int8.tflite",
}
# PyTorch programs (.pt2, PT2E int8) the build writes, under RUNFILES_ROOT: no .tflite, so no TFLite Micro
# figures ("n/a"); heliaAOT was not run on them. Not in --write-costs' fit, which is of the shared models.
TORCH_MODELS = {
    "kws_dscnn_int8": "examples/pytorch_custom_op/kws_dscnn_int8.pt2",
    "kws_dscnn_int8_pytorch": "examples/pytorch_custom_op/kws_dscnn_int8.pt2",  # torch's int8 arithmetic
    "resnet8_int8": "tests/torch/resnet8_int8.pt2",
    # The twins of resnet and kws from PyTorch (PT2E) and ONNX (torch.onnx + onnxruntime's quantize_static,
    # QDQ): tests/torch/twins.py, converted with tests/torch/parity.yaml (NHWC inputs, TFLite's arithmetic)
    # but one, the ONNX ResNet-8 as converted by default (NCHW, onnxruntime's float32 rescaling).
    "resnet8_int8_nhwc": "tests/torch/resnet8_int8.pt2",
    "resnet8_int8_qdq": "tests/torch/resnet8_int8_qdq.onnx",
    "resnet8_int8_qdq_onnx_arithmetic": "tests/torch/resnet8_int8_qdq.onnx",
    "dscnn_int8": "tests/torch/dscnn_int8.pt2",
    "dscnn_int8_qdq": "tests/torch/dscnn_int8_qdq.onnx",
}
# Each network's forms: LiteRT, ONNX QDQ, PyTorch PT2E (the parity table; docs/graph_passes.md, "Parity").
TWINS = {
    "ResNet-8": ("resnet", "resnet8_int8_qdq", "resnet8_int8_nhwc"),
    "DS-CNN": ("kws", "dscnn_int8_qdq", "dscnn_int8"),
}
# .tflite models the tests build, under RUNFILES_ROOT: TFLite Micro + CMSIS-NN was not measured on them
# (its figures are quoted from the issues), so their TFLite Micro columns are empty.
GENERATED_MODELS = {
    "svdf_keyword_int8": "tests/models/svdf_keyword_int8.tflite",
    "svdf_keyword_float32": "tests/models/svdf_keyword_float32.tflite",
    "lstm_sequence_int8": "tests/models/lstm_sequence_int8.tflite",
    "lstm_sequence_float32": "tests/models/lstm_sequence_float32.tflite",
}
# The converter-made suite (tests/models/converter_suite, under RUNFILES_ROOT): its manifest names the
# models; each converts with the suite's settings. No TFLite Micro figures were measured on them.
SUITE = pathlib.Path("tests/models/converter_suite")
SUITE_CONFIG = "tests/models/converter_suite.yaml"
# model -> its aot_model's YAML settings, under RUNFILES_ROOT (the suite's are SUITE_CONFIG).
CONFIGS = {
    "kws_dscnn_int8_pytorch": "examples/pytorch_custom_op/pytorch_arithmetic.yaml",
    **{
        model: "tests/torch/parity.yaml"
        for model in ("resnet8_int8_nhwc", "resnet8_int8_qdq", "dscnn_int8", "dscnn_int8_qdq")
    },
}
# model -> (plugin modules it converts with, symbol prefixes of their kernels: flash counts them as kernels).
PLUGINS = {
    "kws_dscnn_int8": (("channel_shuffle.plugin",), ("channel_shuffle_",)),
    "kws_dscnn_int8_pytorch": (("channel_shuffle.plugin",), ("channel_shuffle_",)),
}
# micro_speech's audio front end (its own table: it runs per 20 ms frame, on real speech).
FRONT_END_CLIP = RUNFILES_ROOT.parent / "shared_models" / "data" / "micro_speech" / "yes_1000ms.wav"
FRONT_END_SAMPLES = 16000
FRONT_END_FRAMES = 49
NO_TFLITE = ("n/a", "", "n/a")  # the QUOTED columns of a model with no .tflite
# Core -> (QEMU machine, CPU). The programs convert SysTick ticks to instructions
# (platforms/boards/common/opbridge_board_timer.h).
BOARDS = {
    "cortex_m55": ("mps3-an547", "cortex-m55"),
    "cortex_m4": ("mps2-an386", "cortex-m4"),
}


def run_program(program: pathlib.Path, core: str, directory: pathlib.Path | None = None) -> dict[str, object]:
    """Instructions of the run and of an empty timed region, and per node (index, op type, instructions).
    `directory` is the program's working folder (the files it opens by semihosting)."""
    machine, cpu = BOARDS[core]
    command = ["qemu-system-arm", "-M", machine, "-cpu", cpu, "-icount", "shift=5", "-nographic"]
    command += ["-monitor", "none", "-serial", "null", "-semihosting-config", "enable=on,target=native"]
    result = subprocess.run(
        [*command, "-kernel", str(program)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
        cwd=directory,
    )
    found = dict(re.findall(r"^instructions_(\w+)=(\d+)$", result.stdout, re.MULTILINE))
    if result.returncode != 0 or "run" not in found:
        raise RuntimeError(f"{program} failed ({result.returncode}): {result.stdout}{result.stderr}")
    nodes = [
        (int(index), op_type, int(instructions))
        for index, op_type, instructions in re.findall(r"^node=(\d+) (\S+) (\d+)$", result.stdout, re.MULTILINE)
    ]
    return {"run": int(found["run"]), "empty": int(found["empty"]), "nodes": nodes}


def multiply_accumulates(graph: Graph, operators: OperatorRegistry) -> int:
    """The model's MACs: each node's definition's (OperatorDefinition.macs; ops that multiply nothing count 0)."""
    return sum(node_work(graph, node, operators).macs for node in graph.nodes)


def program(model: str, core: str, portable: bool = False, timed: bool = False) -> pathlib.Path:
    name = f"{model}_{'node_' if timed else ''}{'portable_' if portable else ''}cycles_{core}"
    return RUNFILES_ROOT / "tests" / "benchmarks" / name


def suite_models() -> dict[str, pathlib.Path]:
    manifest = json.loads((RUNFILES_ROOT / SUITE / "suite.json").read_text())
    return {model: RUNFILES_ROOT / SUITE / f"{model}.tflite" for model in sorted(manifest["models"])}


def model_settings(model: str, path: pathlib.Path, directory: pathlib.Path) -> ConvertArgs:
    """The settings `model`'s aot_model converts with (the suite's, or its YAML file's), writing into `directory`."""
    config = SUITE_CONFIG if path.parent == RUNFILES_ROOT / SUITE else CONFIGS.get(model)
    return load_convert_args(
        None if config is None else RUNFILES_ROOT / config,
        {"model": path, "output_dir": directory / model, "prefix": model, "bundle_kernels": False},
    )


def planned_module(model: str, path: pathlib.Path, context: RegistryContext, directory: pathlib.Path) -> PlannedModel:
    """`path` planned as its aot_model converts it, nothing written: its module_graph's node order is the
    programs'."""
    return AotConverter(model_settings(model, path, directory), context).plan()


# The suite models --write-costs checks its fit on, not fits with: one or two of each family. Every
# operator, dtype and kernel path they use is also in a fitted model (the 16x8 autoencoder, the only
# int16 one, is fitted).
HELD_OUT = (
    "ds_cnn_l",
    "ds_cnn_s",
    "fc_autoencoder",
    "mobilenet_v1_025_128_per_tensor",
    "mobilenet_v1_025_96_rgb",
    "mobilenet_v2_035_128_rgb",
    "resnet10",
)


def write_costs(mode: str) -> int:
    """Times every node on both cores, fits the instruction lines on the shared models, half the suite and
    the models the tests build, prints the estimates' error on every model (the other half of the suite
    held out), and writes the lines into the checkout."""
    context = default_registry_context()
    suite = suite_models()
    # The shared models, the suite, and the models the tests build that need no plugin: the PyTorch and
    # ONNX programs (QUANTIZE, DEQUANTIZE, TRANSPOSE, float32 islands) and the float32 recurrent models;
    # not the ONNX model in onnxruntime's arithmetic, whose portable convolutions would pull the
    # CONV_2D line (which stands in for paths with no line of their own) up tenfold.
    built = {
        **{
            model: RUNFILES_ROOT / path
            for model, path in TORCH_MODELS.items()
            if model not in PLUGINS and model != "resnet8_int8_qdq_onnx_arithmetic"
        },
        **{model: RUNFILES_ROOT / path for model, path in GENERATED_MODELS.items()},
    }
    models = {**{model: SHARED_MODELS / path for model, path in MODELS.items()}, **suite, **built}
    checked = set(HELD_OUT)
    samples: dict[str, dict[str, list[tuple[int, ...]]]] = {core: collections.defaultdict(list) for core in BOARDS}
    measured: dict[tuple[str, str], tuple[int, list[tuple[str, NodeWork]]]] = {}
    progress = Progress.for_stream(sys.stderr)
    with tempfile.TemporaryDirectory() as directory:
        for done, (model, path) in enumerate(models.items()):
            progress.advance("fitting instruction costs: models", done, len(models))
            graph = planned_module(model, path, context, pathlib.Path(directory)).module_graph
            for core in BOARDS:
                timed = run_program(program(model, core, timed=True), core)
                assert isinstance(timed["nodes"], list) and isinstance(timed["empty"], int)
                nodes = timed_nodes(graph, context.operators, timed["nodes"], timed["empty"])
                works = [(node.op_type, node_work(graph, graph.nodes[node.index], context.operators)) for node in nodes]
                measured[model, core] = (sum(node.instructions for node in nodes), works)
                if model in checked:
                    continue
                for node, (_, work) in zip(nodes, works, strict=True):
                    point = (work.macs, work.output_elements, work.input_elements, work.row_blocks, node.instructions)
                    samples[core][cost_key(node.op_type, work.dtype)].append(point)
                    for dtype in (work.dtype, ANY_DTYPE):
                        samples[core][generic_key(dtype, work.macs > 0)].append(point)
                    if work.cost_class:
                        samples[core][cost_key(node.op_type, work.dtype, work.cost_class)].append(point)
    progress.advance("fitting instruction costs: models", len(models), len(models))
    progress.done()
    # A kernel path's own line needs a few nodes; with fewer, its operator's line stands in.
    lines = {
        core: {
            key: fit_line(points)
            for key, points in sorted(by_key.items())
            if key.count("/") == 1 or len(points) >= MIN_PATH_NODES
        }
        for core, by_key in samples.items()
    }
    fitted = [model for model in models if model not in checked]
    nodes = sum(
        len(points)
        for by_key in samples.values()
        for key, points in by_key.items()
        if key.count("/") == 1 and not key.startswith("*")  # each node once: its operator's line
    )
    from_suite = sum(model in suite for model in fitted)
    source = (
        f"cycles benchmark of {datetime.date.today()} (-c {mode}, {nodes} timed nodes of {len(fitted)} models: the "
        f"{len(MODELS)} shared ones, {from_suite} of the converter-made suite and the {len(built)} the tests build)"
    )
    costs = InstructionCosts(source, lines)
    print(f"{'model':<{NAME_WIDTH}}{'core':<12}{'':<10}{'measured':>11}{'estimated':>11}{'error':>8}")
    worst = dict.fromkeys(BOARDS, 0.0)
    for (model, core), (total, works) in measured.items():
        estimate = 0
        for op_type, work in works:
            estimate += costs.estimate_work(core, op_type, work) or 0
        error = 100 * (estimate / total - 1)
        if model in checked:
            worst[core] = max(worst[core], abs(error))
        role = "held out" if model in checked else "fitted"
        print(f"{model:<{NAME_WIDTH}}{core:<12}{role:<10}{total:>11}{estimate:>11}{error:>7.1f}%")
    print("(measured: the sum of the timed nodes; estimated: the fitted lines on the same nodes)")
    for core, error in worst.items():
        print(f"largest error on a held-out model, {core}: {error:.1f}%")
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    target = pathlib.Path(workspace) / "python/opbridge/analysis" / COSTS_FILE.name if workspace else COSTS_FILE
    target.write_text(json.dumps(costs.to_dict(), indent=2) + "\n")
    print(f"wrote {target}")
    return 0


def print_parity(measured: dict[str, tuple[int, int]]) -> None:
    """Each network's instructions from each frontend, and the ratio to its LiteRT form's."""
    print("\nthe same network from each frontend (instructions per inference; x: against the LiteRT form)")
    header = f"{'network':<10}{'form':<8}{'model':<{NAME_WIDTH}}{'M55':>10}{'x':>7}{'M4':>11}{'x':>7}"
    print(header)
    print("-" * len(header))
    for network, models in TWINS.items():
        litert = measured[models[0]]
        for form, model in zip(("LiteRT", "ONNX", "PyTorch"), models, strict=True):
            m55, m4 = measured[model]
            ratios = f"{m55:>10}{m55 / litert[0]:>7.3f}{m4:>11}{m4 / litert[1]:>7.3f}"
            print(f"{network:<10}{form:<8}{model:<{NAME_WIDTH}}{ratios}")


def front_end_lines() -> list[str]:
    """micro_speech's audio front end (examples/micro_speech:frontend) over one 1 s clip: 49 frames of
    FRONT_END_CLIP through frontend_run (frontend_cycles_main.c), on both cores with their own kernels and
    the portable ones, then each operator type's instructions per frame and share (nodes timed by SysTick)."""
    with wave.open(str(FRONT_END_CLIP), "rb") as clip:
        samples = clip.readframes(FRONT_END_SAMPLES)
    lines = [
        f"\nmicro_speech's audio front end: one 1 s clip ({FRONT_END_CLIP.name}, {FRONT_END_FRAMES} frames of 30 ms "
        "every 20 ms), instructions"
    ]
    header = f"{'core':<12}{'per clip':>10}{'per frame':>11}{'portable':>10}{'x portable':>12}"
    lines += [header, "-" * len(header)]
    shares: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as directory:
        folder = pathlib.Path(directory)
        (folder / "frontend_clip.raw").write_bytes(samples)
        for core in BOARDS:
            own = run_program(program("frontend", core), core, folder)
            portable = run_program(program("frontend", core, portable=True), core, folder)
            timed = run_program(program("frontend", core, timed=True), core, folder)
            assert isinstance(own["run"], int) and isinstance(portable["run"], int)
            assert isinstance(timed["nodes"], list) and isinstance(timed["empty"], int)
            per_type: dict[str, int] = collections.defaultdict(int)
            for _, op_type, instructions in timed["nodes"]:
                # Each node's sum over the frames includes the timer's own reads once a frame.
                per_type[op_type] += max(instructions - FRONT_END_FRAMES * timed["empty"], 0)
            shares[core] = per_type
            ratio = own["run"] / portable["run"]
            lines.append(
                f"{core:<12}{own['run']:>10}{own['run'] // FRONT_END_FRAMES:>11}{portable['run']:>10}{ratio:>12.2f}"
            )
    lines.append("\nper operator type, instructions per frame and share of the front end (nodes timed by SysTick)")
    header = f"{'operator':<38}" + "".join(f"{core:>12}{'share':>8}" for core in BOARDS)
    lines += [header, "-" * len(header)]
    totals = {core: sum(per_type.values()) for core, per_type in shares.items()}
    first = next(iter(BOARDS))
    for op_type in sorted(shares[first], key=lambda name: -shares[first][name]):
        cells = "".join(
            f"{shares[core][op_type] // FRONT_END_FRAMES:>12}{100 * shares[core][op_type] / totals[core]:>7.1f}%"
            for core in BOARDS
        )
        lines.append(f"{op_type:<38}{cells}")
    return lines


def main(argv: list[str]) -> int:
    mode = next((arg.split("=", 1)[1] for arg in argv if arg.startswith("--compilation-mode=")), "?")
    if "--write-costs" in argv:
        return write_costs(mode)
    if "--front-end" in argv:
        print(f"compilation mode: {mode} (fastbuild is -O1, opt is -O2)")
        print("\n".join(front_end_lines()))
        return 0
    print(__doc__.split("\n\n")[2].replace("\n", " "), "\n")
    print(f"compilation mode: {mode} (fastbuild is -O1, opt is -O2)\n")
    context = as_registry_context(build_builtin_registry())
    models = {
        **{model: SHARED_MODELS / path for model, path in MODELS.items()},
        **{model: RUNFILES_ROOT / path for model, path in TORCH_MODELS.items()},
        **{model: RUNFILES_ROOT / path for model, path in GENERATED_MODELS.items()},
        **suite_models(),
    }
    header = (
        f"{'model':<{NAME_WIDTH}}{'M55':>10}{'M55 portable':>14}{'TFLM+CMSIS-NN':>15}{'heliaAOT':>10}"
        f"{'M4':>11}{'M4 portable':>13}{'TFLM M4':>10}{'MACs':>10}{'MACs/16':>9}{'M55/MAC':>9}"
        f"{'x floor':>9}{'M4 x floor':>11}"
    )
    print("instructions per inference")
    print(header)
    print("-" * len(header))
    flashes = {}
    measured: dict[str, tuple[int, int]] = {}  # model -> (M55, M4) instructions
    profiles: list[str] = []
    empty = 0
    progress = Progress.for_stream(sys.stderr)
    scratch = tempfile.TemporaryDirectory()
    for done, (model, path) in enumerate(models.items()):
        progress.advance("cycles benchmark: models", done, len(models))
        plugins, kernel_prefixes = PLUGINS.get(model, ((), ()))
        model_context = build_plugin_context(plugins, entry_points=False) if plugins else context
        graph = load_model(path, model_context)
        macs = multiply_accumulates(graph, model_context.operators)
        m55 = run_program(program(model, "cortex_m55"), "cortex_m55")
        m55_portable = run_program(program(model, "cortex_m55", portable=True), "cortex_m55")
        m4 = run_program(program(model, "cortex_m4"), "cortex_m4")
        m4_portable = run_program(program(model, "cortex_m4", portable=True), "cortex_m4")
        empty = m55["empty"]
        tflm, heliaaot, tflm_m4 = QUOTED.get(model, NO_TFLITE if model in TORCH_MODELS else ("", "", ""))
        per_mac = f"{m55['run'] / macs:.3f}" if macs else "-"
        floors = {core: macs / rate for core, rate in FLOOR_MACS_PER_INSTRUCTION.items()}
        m55_floor = f"{m55['run'] / floors['cortex_m55']:.1f}" if macs else "-"
        m4_floor = f"{m4['run'] / floors['cortex_m4']:.1f}" if macs else "-"
        measured[model] = (m55["run"], m4["run"])
        progress.clear()  # the row on a line of its own
        print(
            f"{model:<{NAME_WIDTH}}{m55['run']:>10}{m55_portable['run']:>14}{tflm!s:>15}{heliaaot!s:>10}"
            f"{m4['run']:>11}{m4_portable['run']:>13}{tflm_m4!s:>10}{macs:>10}{macs // 16:>9}{per_mac:>9}"
            f"{m55_floor:>9}{m4_floor:>11}"
        )
        flashes[model] = flash_breakdown(program(model, "cortex_m55"), model, kernel_prefixes)
        planned = planned_module(model, path, model_context, pathlib.Path(scratch.name))
        graph_of_module, forms = planned.module_graph, kernel_forms(planned)
        for core in BOARDS:
            timed = run_program(program(model, core, timed=True), core)
            assert isinstance(timed["nodes"], list) and isinstance(timed["empty"], int)
            nodes = timed_nodes(graph_of_module, model_context.operators, timed["nodes"], timed["empty"])
            profiles.extend(profile_lines(model, core, graph_of_module, nodes, forms))
    progress.advance("cycles benchmark: models", len(models), len(models))
    progress.done()
    scratch.cleanup()
    print(f"\ninstructions include the timer reads around the call (an empty timed region: {empty})")
    print("n/a (no .tflite): a PyTorch program (.pt2) or an ONNX model, which TFLite Micro cannot run")
    print_parity(measured)
    print("\nflash on the M55 (bytes; a plugin's kernel, CHANNEL_SHUFFLE, counts with the kernels)")
    flash_header = f"{'model':<{NAME_WIDTH}}{'flash':>8} = {'kernels':>8} + {'module':>8} + {'constants':>10}"
    print(flash_header)
    print("-" * len(flash_header))
    for model, flash in flashes.items():
        parts = f"{flash.kernels:>8} + {flash.module_code:>8} + {flash.constants:>10}"
        print(f"{model:<{NAME_WIDTH}}{flash.total:>8} = {parts}")
    print("\nwhere the instructions go (nodes timed with SysTick, less the timer's own reads): per operator type")
    print("its nodes, instructions, share and ratio to its floor (MACs/16 on the M55, MACs/2 on the M4; - when it")
    print("multiplies nothing), then the nodes furthest above their floor")
    print("\n".join(profiles))
    print("\n".join(front_end_lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
