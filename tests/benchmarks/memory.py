# SPDX-License-Identifier: Apache-2.0
"""Memory benchmark: opbridge's arena and flash per model, against TFLite Micro.

    bazel run -c opt //tests/benchmarks:memory

For each shared model (and the MobileNet-v1 the tests build, the int8
PyTorch programs of examples/pytorch_custom_op and tests/torch, and the
converter-made suite of tests/models/converter_suite): opbridge's
planned arena, the liveness lower bound (no plan can use less), the arena
of TFLite Micro's greedy placement (largest first) on the same lifetimes,
the smallest arena TFLite Micro (the `tflite-micro` package) runs the model
in, found by bisection in this run (n/a for the PyTorch programs: no
.tflite), and the flash opbridge's module takes on
the Cortex-M55 (kernels, module code, constants), from the symbol table of
the model's golden-test ELF; then which placement won, how long a whole
conversion took and how long `opbridge analyze` took (its arena checked
against plan.json); the arena with patch-based inference at its default
settings (patch_based), and, for the MobileNet, the instructions of one
run on the emulated Cortex-M55 whole and patch-based (as the cycles
benchmark counts them, hence -c opt). heliaAOT's figures are quoted from issues 3 and 18, where
they were measured on this machine kind.
"""

import dataclasses
import json
import pathlib
import sys
import tempfile
import time

import numpy as np
from opbridge.analysis import analyze_model
from opbridge.analysis.tflm import run_probe
from opbridge.backends.c.flash import flash_breakdown
from opbridge.converter import AotConverter, ConvertArgs, load_convert_args
from opbridge.frontends.models import load_model
from opbridge.plugins import build_plugin_context
from opbridge.progress import Progress
from opbridge.registry import default_registry_context
from opbridge.registry_context import RegistryContext

from tests.benchmarks.cycles import run_program

RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
MODELS = RUNFILES_ROOT.parent / "shared_models" / "models"
NAME_WIDTH = 24  # the model column


@dataclasses.dataclass(frozen=True)
class Model:
    name: str  # aot_model name in //tests/models
    path: str  # under the shared models folder
    heliaaot_arena: int | None  # heliaAOT 1.1.0 scratch arena, quoted from issue 3 (None: cannot convert)
    package: str = "tests/models"  # where its aot_model is
    generated: bool = False  # built by the tests (path is under RUNFILES_ROOT), not a shared file
    has_plugin: bool = False  # needs a plugin to convert: conversion not timed here
    plugins: tuple[str, ...] = ()  # plugin modules it converts with (as its aot_model), timed here
    kernel_prefixes: tuple[str, ...] = ()  # symbol prefixes of those plugins' kernels (flash_breakdown)
    config: str | None = None  # its aot_model's YAML settings, under RUNFILES_ROOT

    def file(self) -> pathlib.Path:
        return RUNFILES_ROOT / self.path if self.generated else MODELS / self.path

    @property
    def tflite(self) -> bool:
        """TFLite Micro runs .tflite files only: a PyTorch program (.pt2) has no TFLite Micro figures."""
        return self.path.endswith(".tflite")

    def settings(self, output_dir: pathlib.Path, **overrides: object) -> ConvertArgs:
        """Its aot_model's settings (the YAML file's, if any), with `overrides` on top."""
        config = None if self.config is None else RUNFILES_ROOT / self.config
        return load_convert_args(config, {"model": self.file(), "output_dir": output_dir, **overrides})

    def registry_context(self) -> RegistryContext:
        """The built-ins, and its plugins' operators."""
        return build_plugin_context(self.plugins, entry_points=False) if self.plugins else default_registry_context()


MODEL_LIST = [
    Model("kws", "mlperf_tiny/kws_ref_model.tflite", 19344),
    Model("resnet", "mlperf_tiny/pretrainedResnet_quant.tflite", 49728),
    Model("ad01", "mlperf_tiny/ad01_int8.tflite", 768),
    Model("micro_speech", "tflm/micro_speech_quantized.tflite", 6280),
    Model("hello_world", "tflm/hello_world_int8.tflite", 32),
    # TFLM's audio front end: nine Signal custom operators (the opbridge_signal plugin);
    # heliaAOT has no Signal operators, so it cannot convert this model (issue 4).
    Model("frontend", "tflm/audio_preprocessor_int8.tflite", None, package="examples/micro_speech", has_plugin=True),
    # heliaAOT's figure for a MobileNet-v1 0.25 96x96 int8 (person-detection shape) is quoted from issue 18.
    Model("mobilenet", "tests/models/mobilenet_v1_025_96.tflite", 55296, generated=True),
    # Two branches listed convolution-first (opbridge_testing.branches): the schedule search's case.
    Model("two_branches", "tests/models/two_branches.tflite", None, generated=True),
    # A MobileNet-v2 inverted residual block (opbridge_testing.inverted_residual): in-place depthwise's case.
    Model("inverted_residual", "tests/models/inverted_residual.tflite", None, generated=True),
    # PyTorch programs (.pt2, PT2E int8) the build writes, with no .tflite: TFLite Micro has no figures
    # for them and heliaAOT was not run on them. A keyword-spotting DS-CNN with a custom operator
    # (CHANNEL_SHUFFLE, its plugin's kernel counted with the kernels), rescaled as TFLite Micro (the
    # default) and as torch (pytorch_arithmetic.yaml), and a ResNet-8 like MLPerf Tiny's.
    Model(
        "kws_dscnn_int8",
        "examples/pytorch_custom_op/kws_dscnn_int8.pt2",
        None,
        package="examples/pytorch_custom_op",
        generated=True,
        plugins=("channel_shuffle.plugin",),
        kernel_prefixes=("channel_shuffle_",),
    ),
    Model(
        "kws_dscnn_int8_pytorch",
        "examples/pytorch_custom_op/kws_dscnn_int8.pt2",
        None,
        package="examples/pytorch_custom_op",
        generated=True,
        plugins=("channel_shuffle.plugin",),
        kernel_prefixes=("channel_shuffle_",),
        config="examples/pytorch_custom_op/pytorch_arithmetic.yaml",
    ),
    Model("resnet8_int8", "tests/torch/resnet8_int8.pt2", None, package="tests/torch", generated=True),
    # The twins of resnet and kws from PyTorch and ONNX QDQ (tests/torch/twins.py; parity.yaml: NHWC inputs,
    # TFLite's arithmetic), and the ONNX ResNet-8 as converted by default.
    *(
        Model(name, f"tests/torch/{file}", None, package="tests/torch", generated=True, config=config)
        for name, file, config in (
            ("resnet8_int8_nhwc", "resnet8_int8.pt2", "tests/torch/parity.yaml"),
            ("resnet8_int8_qdq", "resnet8_int8_qdq.onnx", "tests/torch/parity.yaml"),
            ("resnet8_int8_qdq_onnx_arithmetic", "resnet8_int8_qdq.onnx", None),
            ("dscnn_int8", "dscnn_int8.pt2", "tests/torch/parity.yaml"),
            ("dscnn_int8_qdq", "dscnn_int8_qdq.onnx", "tests/torch/parity.yaml"),
        )
    ),
    # A streaming keyword model of three SVDF layers (opbridge_testing.svdf_keyword): the arena holds the
    # activations and the SVDF states (kept from run to run); heliaAOT has no SVDF (issue 20).
    Model("svdf_keyword_int8", "tests/models/svdf_keyword_int8.tflite", None, generated=True),
    Model("svdf_keyword_float32", "tests/models/svdf_keyword_float32.tflite", None, generated=True),
    # An LSTM sequence classifier (opbridge_testing.lstm_sequence): the LSTM's hidden and cell states too.
    Model("lstm_sequence_int8", "tests/models/lstm_sequence_int8.tflite", None, generated=True),
    Model("lstm_sequence_float32", "tests/models/lstm_sequence_float32.tflite", None, generated=True),
]
# The converter-made suite (tests/models/converter_suite): its manifest names the models; each converts
# with the suite's settings (constants in .weights). heliaAOT was not run on them.
SUITE = RUNFILES_ROOT / "tests/models/converter_suite"
MODEL_LIST += [
    Model(
        name,
        f"tests/models/converter_suite/{name}.tflite",
        None,
        generated=True,
        config="tests/models/converter_suite.yaml",
    )
    for name in sorted(json.loads((SUITE / "suite.json").read_text())["models"])
]


def tflm_runs_with(model: pathlib.Path, arena_bytes: int) -> bool:
    # One probe per process: TFLite Micro can abort the process on a tiny arena.
    return run_probe(model, arena_bytes, input_count=1, timeout=120).returncode == 0


def tflm_minimum_arena(model: pathlib.Path) -> int:
    """The smallest arena (in bytes) TFLite Micro runs the model in, by bisection."""
    high = 1024
    while not tflm_runs_with(model, high):
        high *= 2
        if high > 64 * 1024 * 1024:
            raise RuntimeError(f"TFLite Micro does not run {model} even with 64 MiB")
    low = 0  # invariant: fails at low (or low == 0), runs at high
    while high - low > 1:
        middle = (low + high) // 2
        if tflm_runs_with(model, middle):
            high = middle
        else:
            low = middle
    return high


def warm_up(model: Model, context: RegistryContext) -> None:
    """Reads a PyTorch program once, untimed: the first one would otherwise time torch's import."""
    if not model.tflite:
        load_model(model.file(), context)


def conversion_seconds(model: Model, context: RegistryContext) -> float:
    """Wall time of one whole conversion (load, check, plan, emit), default settings (its aot_model's)."""
    with tempfile.TemporaryDirectory() as directory:
        settings = model.settings(pathlib.Path(directory) / "out")
        started = time.perf_counter()
        AotConverter(settings, context).convert()
        return time.perf_counter() - started


def analyze_seconds(model: Model, context: RegistryContext) -> tuple[float, int]:
    """Wall time of `opbridge analyze` (TFLite Micro's arena included) and the arena it reports."""
    settings = model.settings(pathlib.Path("unused"), prefix=model.name)
    started = time.perf_counter()
    report = analyze_model(settings, context)
    return time.perf_counter() - started, report.arena_bytes


def patch_based_arena(model: Model, context: RegistryContext) -> tuple[str, float]:
    """The arena with patch_based at its defaults ('-' when no stage shrinks it) and the conversion's seconds."""
    with tempfile.TemporaryDirectory() as directory:
        settings = model.settings(pathlib.Path(directory) / "out", patch_based={})
        started = time.perf_counter()
        result = AotConverter(settings, context).convert()
        seconds = time.perf_counter() - started
        return (str(result.plan.arena_bytes) if result.plan.patch_stage else "-"), seconds


# The patch-based MobileNets the benchmark runs: at the defaults, and with the stage of smallest arena given.
PATCH_VARIANTS = (("mobilenet_patch", "patch-based"), ("mobilenet_patch_4x4", "4x4 tiles, given"))


def patch_based_instructions() -> None:
    """The MobileNet's run on the emulated M55 (Helium kernels), whole and patch-based."""
    plain = json.loads((RUNFILES_ROOT / "tests/models/mobilenet_module_plan.json").read_text())
    whole = run_program(RUNFILES_ROOT / "tests" / "benchmarks" / "mobilenet_cycles_cortex_m55", "cortex_m55")["run"]
    print("\nPatch-based inference, MobileNet-v1 0.25 96x96 int8 (patch_based at its defaults, and 4x4 tiles given):")
    print(f"{'variant':<18}{'arena':>9}{'bound':>9}{'MACs':>10}{'MACs/16':>9}{'M55 instructions':>18}")
    notes = []
    for name, label in PATCH_VARIANTS:
        patched = json.loads((RUNFILES_ROOT / f"tests/models/{name}_module_plan.json").read_text())
        stage = patched["patch_stage"]
        macs = stage["model_macs"]
        if not notes:
            bound = plain["lower_bound_bytes"]
            print(f"{'whole':<18}{plain['arena_bytes']:>9}{bound:>9}{macs:>10}{macs // 16:>9}{whole:>18}")
        tiled = run_program(RUNFILES_ROOT / "tests" / "benchmarks" / f"{name}_cycles_cortex_m55", "cortex_m55")["run"]
        tiled_macs = macs + stage["tiled_macs"] - stage["macs"]
        print(
            f"{label:<18}{patched['arena_bytes']:>9}{patched['lower_bound_bytes']:>9}{tiled_macs:>10}"
            f"{tiled_macs // 16:>9}{tiled:>18}"
        )
        estimate = stage["instruction_overhead"]
        notes.append(
            f"{label}: nodes {stage['layers'][0]}-{stage['layers'][-1]} as {stage['grid'][0]}x{stage['grid'][1]} "
            f"tiles; RAM saved {plain['arena_bytes'] - patched['arena_bytes']} bytes "
            f"({100 * (1 - patched['arena_bytes'] / plain['arena_bytes']):.1f}%), extra MACs "
            f"{100 * stage['overhead']:.1f}%, extra instructions {tiled - whole} ({100 * (tiled / whole - 1):.1f}%; "
            + ("no estimate" if estimate is None else f"estimated {100 * estimate:.1f}%")
            + ")"
        )
    print("\n".join(notes))


def main() -> int:
    header = (
        f"{'model':<{NAME_WIDTH}}{'arena':>9}{'bound':>9}{'greedy':>9}{'patch':>9}{'TFLM':>9}{'heliaAOT':>10}   "
        f"{'flash (M55)':>11} = {'kernels':>7} + {'module':>7} + {'constants':>9}"
    )
    print(__doc__.split("\n\n")[2].replace("\n", " "), "\n")
    print(header)
    print("-" * len(header))
    worst = []
    placements = []
    progress = Progress.for_stream(sys.stderr)
    for done, model in enumerate(MODEL_LIST):
        progress.advance("memory benchmark: models", done, len(MODEL_LIST))
        plan = json.loads((RUNFILES_ROOT / model.package / f"{model.name}_module_plan.json").read_text())
        elf = RUNFILES_ROOT / model.package / f"{model.name}_golden_test_cortex_m55_elf"
        flash = flash_breakdown(elf, model.name, model.kernel_prefixes)
        tflm = str(tflm_minimum_arena(model.file())) if model.tflite else "n/a"
        heliaaot = "n/a" if model.heliaaot_arena is None else str(model.heliaaot_arena)
        context = model.registry_context()
        if not model.has_plugin:
            warm_up(model, context)
        patched, patch_seconds = ("(plugin)", None) if model.has_plugin else patch_based_arena(model, context)
        progress.clear()  # the row on a line of its own
        print(
            f"{model.name:<{NAME_WIDTH}}{plan['arena_bytes']:>9}{plan['lower_bound_bytes']:>9}"
            f"{plan['largest_first_arena_bytes']:>9}{patched:>9}{tflm:>9}{heliaaot:>10}   "
            f"{flash.total:>11} = {flash.kernels:>7} + {flash.module_code:>7} + {flash.constants:>9}"
        )
        worst.append(plan["arena_bytes"] - plan["lower_bound_bytes"])
        seconds = "(plugin)" if model.has_plugin else f"{conversion_seconds(model, context):.2f} s"
        analyzed = "(plugin)"
        if not model.has_plugin:
            analyze_time, analyzed_arena = analyze_seconds(model, context)
            if analyzed_arena != plan["arena_bytes"]:
                raise RuntimeError(
                    f"{model.name}: analyze reports {analyzed_arena} B, plan.json {plan['arena_bytes']} B"
                )
            analyzed = f"{analyze_time:.2f} s"
        proof = "optimal" if plan["optimal"] else "not proven optimal"
        with_patches = "" if patch_seconds is None else f"{patch_seconds:.2f} s"
        placements.append(
            f"{model.name:<{NAME_WIDTH}}{seconds:>10}{with_patches:>10}{analyzed:>10}   {plan['strategy']} ({proof})"
        )
    progress.advance("memory benchmark: models", len(MODEL_LIST), len(MODEL_LIST))
    progress.done()
    print("\narena and bound in bytes; greedy: TFLite Micro's placement (largest first, lowest offset) of the same")
    print("buffers; patch: the arena with patch_based at its defaults (-: no stage of int8 convolutions shrinks it);")
    print("TFLM: minimum arena of tflite-micro", _tflm_version(), "measured now; n/a (no .tflite): a PyTorch program")
    print("(.pt2), which TFLite Micro cannot run; flash: a plugin's kernel (CHANNEL_SHUFFLE) counts with the kernels")
    print("frontend: the arena includes the front end's persistent state (the noise estimate); n/a: heliaAOT cannot")
    print("convert the model (it has no Signal operators), or was not run on it (two_branches, inverted_residual, the")
    print("PyTorch programs and the converter-made suite)")
    print(f"largest arena above the liveness lower bound: {max(worst)} bytes")
    print(
        f"\n{'model':<{NAME_WIDTH}}{'convert':>10}{'patch':>10}{'analyze':>10}   placement (convert: default "
        "settings; patch: patch_based; analyze: opbridge analyze, TFLite Micro's arena included for a .tflite)"
    )
    print("\n".join(placements))
    patch_based_instructions()
    return 0


def _tflm_version() -> str:
    from importlib import metadata

    return metadata.version("tflite-micro")


if __name__ == "__main__":
    np.seterr(all="raise")
    sys.exit(main())
