# SPDX-License-Identifier: Apache-2.0
"""The `opbridge` command line.

opbridge convert MODEL -o DIR [--prefix P] [--config convert.yaml] [--plugin my_pkg.module ...] [--report]
opbridge analyze MODEL [--format table|json|html] [-o FILE] [--config convert.yaml] [--plugin ...]
opbridge run MODEL --input in.npy [--input ...] [--steps N] --output out.npy [--output ...] [--plugin ...]
opbridge new-op NAME --format litert|onnx [--dtype int8|float32] [--torch [NS::NAME]] [-o DIR]
opbridge kernel-adapters KEY --plugin MODULE [--opbridge-abi FILE.cc] [--ort-abi FILE.cc]
                         [--openvino-extension FILE.cpp]
opbridge plugins list [--plugin ...]

Plugins (docs/custom_ops.md) come from the `opbridge.plugins` entry point
group of installed packages and from each --plugin module.

`opbridge @FILE` reads the arguments from FILE, one per line (how Bazel passes
them), and `--persistent_worker` serves Bazel's conversion actions from one
process (opbridge.bazel_worker).
"""

import argparse
import os
import pathlib
import sys

import numpy as np

from opbridge.analysis import analyze_model, build_report, render_html, write_report
from opbridge.aot.kernel_adapters import write_adapters
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.backends.reference.interpreter import check_input
from opbridge.bazel_worker import WORKER_FLAG, expand_parameter_files, serve
from opbridge.converter import AotConverter, load_convert_args
from opbridge.data_files import check_npy_output, npy_path, read_npy, write_npy
from opbridge.errors import InvalidInputError, OpbridgeError
from opbridge.frontends.models import load_model
from opbridge.ir import Tensor
from opbridge.ops.operation import validate_graph
from opbridge.output_paths import check_output_file, writing_to
from opbridge.passes.pipeline import passes_note
from opbridge.plugins import build_plugin_context, stale_runfiles_hint
from opbridge.progress import Progress
from opbridge.registry_context import RegistryContext
from opbridge.scaffold import OpNames, bazel_package, scaffold_files, write_scaffold


def _context(arguments: argparse.Namespace) -> RegistryContext:
    return build_plugin_context(
        arguments.plugin, entry_points=arguments.entry_points, allow_override=arguments.allow_override
    )


def _user_path(text: str) -> pathlib.Path:
    """A path as the user meant it: `bazel run` starts us elsewhere, so resolve against their folder."""
    path = pathlib.Path(text)
    base = os.environ.get("BUILD_WORKING_DIRECTORY")
    return path if path.is_absolute() or not base else pathlib.Path(base) / path


def _convert(arguments: argparse.Namespace) -> int:
    config = load_convert_args(
        arguments.config,
        {
            "model": arguments.model,
            "output_dir": arguments.output_dir,
            "prefix": arguments.prefix,
            "golden_test": arguments.golden_test,
            "plan_json": arguments.plan_json,
            "bundle_kernels": arguments.bundle_kernels,
            "cmake_lists": arguments.cmake_lists,
            "stack_bound": arguments.stack_bound is not False,  # on unless --no-stack-bound
            "golden_cases": arguments.golden_cases,
            "max_arena_bytes": arguments.max_arena_bytes,
            "torch_int8_arithmetic": arguments.torch_int8_arithmetic,
            "input_layout": arguments.input_layout,
            "onnx_int8_arithmetic": arguments.onnx_int8_arithmetic,
            "onnx_max_folded_bytes": arguments.onnx_max_folded_bytes,
            # --patch-based: the config's patch_based settings, or the defaults.
            "patch_based": {} if arguments.patch_based else None,
        },
    )
    if arguments.plot is not None:  # checked first: a bad path must not follow a finished conversion
        check_output_file(arguments.plot, "plot", "--plot", "arena.svg")
    if arguments.report:
        for name in ("report.json", "report.html"):
            check_output_file(config.output_dir / name, "report", "--report", name)
    progress = Progress.for_stream(sys.stderr, quiet=arguments.quiet)
    try:  # the progress line is erased on errors too, so the error reads on a line of its own
        context = _context(arguments)
        result = AotConverter(config, registry_context=context, progress=progress).convert()
        report = None
        if arguments.report:
            progress.stage("measuring the report (TFLite Micro's arena too, when installed)")
            notes = (passes_note(result.pass_effects), result.schedule_note, result.patch_note)
            report = build_report(result.graph, result.plan, config, notes, operators=context.operators)
    finally:
        progress.done()
    if not arguments.quiet:
        print(result.summary())
    if arguments.verbose:
        print(result.plan.to_table(result.graph))
    if report is not None:
        paths = write_report(report, config.output_dir)
        if not arguments.quiet:
            print(f"report: {paths[0]}, {paths[1]}")
    if arguments.plot is not None:
        with writing_to(arguments.plot, "plot", "--plot"):
            plan = result.plan
            title = f"{config.model_name}: arena {plan.arena_bytes} B, liveness bound {plan.lower_bound_bytes} B"
            arguments.plot.write_text(plan.to_svg(result.graph, title))
        if not arguments.quiet:
            print(f"arena over time drawn in {arguments.plot}")
    return 0


def _add_onnx_max_folded_bytes_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--onnx-max-folded-bytes", type=int, dest="onnx_max_folded_bytes",
        help="ONNX models: fold constant subgraphs into values of up to this many bytes (default 64 MiB)",
    )  # fmt: skip


def _add_stack_bound_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-stack-bound", dest="stack_bound", action="store_false", default=None,
        help="do not compute the module's worst-case stack on the Cortex-M55 and M4 (arm-none-eabi-gcc "
        "-fstack-usage; docs/kernels.md, \"Stack\")",
    )  # fmt: skip


def _add_input_layout_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--input-layout", choices=("as-model", "nhwc"), dest="input_layout",
        help="the module's 3-D and 4-D inputs: as the model has them (default) or channels last (NHWC, NWC), "
        "as sensors give them; ONNX and PyTorch models then start without a transpose",
    )  # fmt: skip


def _analyze(arguments: argparse.Namespace) -> int:
    config = load_convert_args(
        arguments.config,
        {
            "model": arguments.model,
            # Required by ConvertArgs; analyze plans as convert would but writes nothing there.
            "output_dir": ".",
            "prefix": arguments.prefix,
            "max_arena_bytes": arguments.max_arena_bytes,
            "input_layout": arguments.input_layout,
            "onnx_max_folded_bytes": arguments.onnx_max_folded_bytes,
            "patch_based": {} if arguments.patch_based else None,
            "stack_bound": arguments.stack_bound is not False,  # on unless --no-stack-bound
        },
    )
    if arguments.output is not None:
        check_output_file(arguments.output, "output", "-o", f"report.{arguments.format}")
    progress = Progress.for_stream(sys.stderr, quiet=arguments.quiet)
    try:
        report = analyze_model(config, _context(arguments), progress=progress, with_tflm=arguments.tflm)
    finally:
        progress.done()
    text = {"table": report.to_table, "json": report.to_json, "html": lambda: render_html(report)}[arguments.format]()
    if arguments.output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        with writing_to(arguments.output, "output", "-o"):
            arguments.output.write_text(text)
        if not arguments.quiet:
            print(f"wrote the {arguments.format} report of {config.model_name} to {arguments.output}")
    return 0


def _run(arguments: argparse.Namespace) -> int:
    registry = _context(arguments)
    graph = load_model(arguments.model, registry, onnx_max_folded_bytes=arguments.onnx_max_folded_bytes)
    validate_graph(graph, registry.operators)  # every node against its schema, as convert does
    output_count = len(graph.outputs)
    if len(arguments.output) != output_count:
        raise OpbridgeError(
            f"the model has {output_count} output(s), got {len(arguments.output)} --output",
            hint="pass one --output per model output, in model order",
        )
    for path in arguments.output:  # every output path checked before the run, not after it
        check_npy_output(path, role="--output")
    calls = _calls(arguments, graph.input_tensors())
    # One call without --steps writes the --output paths; a sequence writes each call's outputs beside them.
    sequence = arguments.steps is not None or len(calls) > 1
    interpreter = ReferenceInterpreter(graph, registry)  # one interpreter: the state carries from call to call
    if len(calls) > 1:  # said first: 2xN files for an N-input model by mistake would run two calls
        print(f"running {len(calls)} calls, the state carried from call to call")
    for step, inputs in enumerate(calls):
        outputs = interpreter.run(inputs)
        for path, value in zip(arguments.output, outputs, strict=True):
            # Written whole or not at all; the path printed is the file written (.npy added when missing).
            written = write_npy(_step_path(path, step) if sequence else path, value, role="--output")
            print(f"wrote {written}: {value.dtype}{list(value.shape)}")
    return 0


def _step_path(path: pathlib.Path, step: int) -> pathlib.Path:
    """Call `step`'s output file of --output `path`: out.npy -> out_step0.npy, out_step1.npy, ..."""
    npy = npy_path(path)
    return npy.with_name(f"{npy.stem}_step{step}.npy")


def _read_input(path: pathlib.Path) -> np.ndarray:
    return read_npy(path, role="--input")


def _calls(arguments: argparse.Namespace, tensors: list[Tensor]) -> list[list[np.ndarray]]:
    """Each call's inputs, in model order: one call per `len(tensors)` --input files, in call order; or, with
    --steps N, one file per model input whose leading axis holds the N calls. Checked whole before any call."""
    files, count, steps = arguments.input, len(tensors), arguments.steps
    names = ", ".join(f'"{tensor.name}"' for tensor in tensors)
    if steps is not None:
        if steps < 1:
            raise InvalidInputError(f"--steps {steps}: no call to make", hint="pass --steps N with N >= 1")
        if len(files) != count:
            raise InvalidInputError(
                f"--steps {steps} takes one stacked .npy per model input: the model has {count} ({names}), "
                f"got {len(files)} --input",
                hint=f"save each input's {steps} calls stacked along a new first axis (numpy.stack) and pass one "
                "--input per model input, in model order; or drop --steps and pass each call's files in call order",
            )
        stacks = [_read_input(path) for path in files]
        for path, stack, tensor in zip(files, stacks, tensors, strict=True):
            expected = f"{tensor.dtype.value}{[steps, *tensor.shape]}"
            if stack.dtype != tensor.dtype.numpy or stack.shape != (steps, *tensor.shape):
                other_count = stack.ndim > 0 and stack.shape[1:] == tensor.shape and stack.dtype == tensor.dtype.numpy
                fix = f", or pass --steps {stack.shape[0]}" if other_count else ""
                raise InvalidInputError(
                    f"--input {path}: got {stack.dtype}{list(stack.shape)}; with --steps {steps}, model input "
                    f"{tensor.describe()} takes {expected} (the calls along the first axis)",
                    hint=f"save numpy.stack of the {steps} calls' {tensor.dtype.value}{list(tensor.shape)} arrays{fix}",
                )
        return [[stack[step] for stack in stacks] for step in range(steps)]
    if count == 0:
        if files:
            raise InvalidInputError(f"the model has no inputs, got {len(files)} --input", hint="drop --input")
        return [[]]
    if not files or len(files) % count:
        raise InvalidInputError(
            f"the model has {count} input(s) ({names}), got {len(files)} --input: not a whole number of calls",
            hint=f"pass {count} --input per call, the calls in order (call 0's inputs in model order, then call "
            "1's, ...), or one stacked .npy per model input with --steps N",
        )
    calls: list[list[np.ndarray]] = []
    for first in range(0, len(files), count):
        paths = files[first : first + count]
        calls.append(
            [
                check_input(tensor, _read_input(path), where=f"--input {path} (call {first // count})")
                for path, tensor in zip(paths, tensors, strict=True)
            ]
        )
    return calls


def _kernel_adapters(arguments: argparse.Namespace) -> int:
    targets = (arguments.opbridge_abi, arguments.ort_abi, arguments.openvino_extension)
    if all(path is None for path in targets):
        raise OpbridgeError(
            "nothing to write",
            hint="pass one or more of --opbridge-abi FILE.cc, --ort-abi FILE.cc, --openvino-extension FILE.cpp",
        )
    for path in write_adapters(_context(arguments), arguments.key, *targets):
        print(f"wrote {path}")
    return 0


def _new_op(arguments: argparse.Namespace) -> int:
    files = scaffold_files(
        arguments.name,
        arguments.format,
        arguments.dtype,
        arguments.domain,
        arguments.custom_code,
        torch=arguments.torch,
    )
    directory = arguments.output_dir or _user_path(OpNames.of(arguments.name).snake)
    write_scaffold(directory, files)
    print(f"wrote {len(files)} files to {directory}")
    package = bazel_package(directory)
    if package is None:
        print("next: move it into a Bazel workspace that has opbridge's toolchains/, then bazel test it")
    else:
        print(f"next: bazel test {package}/...   then edit the math (docs/custom_ops.md)")
    return 0


def _plugins_list(arguments: argparse.Namespace) -> int:
    print(_context(arguments).describe())
    return 0


def _add_plugin_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin", action="append", default=[], metavar="MODULE",
        help="import MODULE and call its customize_registry(context) (or MODULE:function); repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--no-entry-points", dest="entry_points", action="store_false",
        help="ignore plugins installed under the opbridge.plugins entry point group",
    )  # fmt: skip
    parser.add_argument("--allow-override", action="store_true", help="let plugins replace built-in operators")


def _add_quiet_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary; errors only")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="opbridge", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    convert = commands.add_parser("convert", help="compile a .tflite, .onnx or .pt2 model into a C module")
    convert.add_argument("model", type=_user_path)
    convert.add_argument("-o", "--output-dir", type=_user_path, dest="output_dir")
    convert.add_argument("--prefix")
    convert.add_argument("--config", type=_user_path, help="YAML file with ConvertArgs keys")
    convert.add_argument(
        "--golden-test",
        type=_user_path,
        dest="golden_test",
        help="also write a C test program with reference outputs here",
    )
    convert.add_argument("--golden-cases", type=int, dest="golden_cases")
    convert.add_argument("--plan-json", type=_user_path, dest="plan_json", help="default: OUTPUT_DIR/plan.json")
    convert.add_argument(
        "--no-bundle-kernels", dest="bundle_kernels", action="store_false", default=None,
        help="do not copy the kernels into OUTPUT_DIR/kernels (when the build links cc/kernels itself)",
    )  # fmt: skip
    _add_stack_bound_argument(convert)
    convert.add_argument(
        "--no-cmake-lists", dest="cmake_lists", action="store_false", default=None,
        help="do not write OUTPUT_DIR/CMakeLists.txt (when a Bazel cc_library takes the folder as sources)",
    )  # fmt: skip
    convert.add_argument(
        "--max-arena-bytes", type=int, dest="max_arena_bytes",
        help="fail, naming the peak step and its tensors, when the arena needs more",
    )  # fmt: skip
    convert.add_argument(
        "--torch-int8-arithmetic", choices=("tflite", "pytorch"), dest="torch_int8_arithmetic",
        help="PT2E .pt2 programs: rescale int8 convolutions as TFLite Micro (default) or as torch's convert_pt2e model",
    )  # fmt: skip
    _add_input_layout_argument(convert)
    convert.add_argument(
        "--onnx-int8-arithmetic", choices=("onnx", "tflite"), dest="onnx_int8_arithmetic",
        help="ONNX models: rescale int8 convolutions as onnxruntime (default, bit-exact) or as TFLite Micro "
        "(the Helium and DSP kernels, within one int8 step)",
    )  # fmt: skip
    _add_onnx_max_folded_bytes_argument(convert)
    convert.add_argument(
        "--patch-based", action="store_true",
        help="run the first convolution layers tile by tile (patch_based; docs/memory_planner.md)",
    )  # fmt: skip
    convert.add_argument("-v", "--verbose", action="store_true", help="print the memory plan")
    convert.add_argument(
        "--report", action="store_true",
        help="also write report.json and report.html (opbridge analyze's per-node report) into OUTPUT_DIR",
    )  # fmt: skip
    _add_quiet_argument(convert)
    convert.add_argument(
        "--plot", type=_user_path, help="also draw the arena over time into this SVG file (docs/memory_planner.md)"
    )
    _add_plugin_arguments(convert)
    convert.set_defaults(handler=_convert)
    analyze = commands.add_parser(
        "analyze", help="per-node MACs, bytes, arena and estimated instructions of a model, without writing C"
    )
    analyze.add_argument("model", type=_user_path)
    analyze.add_argument("--format", choices=("table", "json", "html"), default="table")
    analyze.add_argument("-o", "--output", type=_user_path, help="write the report here (default: stdout)")
    analyze.add_argument("--prefix")
    analyze.add_argument("--config", type=_user_path, help="YAML file with ConvertArgs keys (as for convert)")
    analyze.add_argument("--patch-based", action="store_true", help="plan as convert --patch-based would")
    _add_input_layout_argument(analyze)
    _add_stack_bound_argument(analyze)
    _add_onnx_max_folded_bytes_argument(analyze)
    analyze.add_argument(
        "--max-arena-bytes", type=int, dest="max_arena_bytes",
        help="report how the arena stands against this RAM budget (convert would fail above it)",
    )  # fmt: skip
    analyze.add_argument(
        "--no-tflm", dest="tflm", action="store_false",
        help="skip TFLite Micro's arena (measured by running the model once when tflite-micro is installed)",
    )  # fmt: skip
    _add_quiet_argument(analyze)
    _add_plugin_arguments(analyze)
    analyze.set_defaults(handler=_analyze)
    run = commands.add_parser("run", help="run a model with the NumPy reference interpreter")
    run.add_argument("model", type=_user_path)
    run.add_argument(
        "--input", type=_user_path, action="append", default=[],
        help="one .npy per model input, in model order; repeat for more calls, in call order (the state carries)",
    )  # fmt: skip
    run.add_argument(
        "--steps", type=int, metavar="N",
        help="N calls in one process: each --input holds a model input's N calls stacked along its first axis",
    )  # fmt: skip
    run.add_argument(
        "--output", type=_user_path, action="append", default=[],
        help="one .npy per model output; a sequence of calls writes OUT_step0.npy, OUT_step1.npy, ... beside it",
    )  # fmt: skip
    _add_onnx_max_folded_bytes_argument(run)
    _add_plugin_arguments(run)
    run.set_defaults(handler=_run)
    adapters = commands.add_parser(
        "kernel-adapters", help="generate the host adapters of a custom operator's portable C kernel"
    )
    adapters.add_argument("key", help="the operator key, e.g. SOFT_CLIP")
    adapters.add_argument("--opbridge-abi", type=_user_path, help="write the native-host plugin source here")
    adapters.add_argument("--ort-abi", type=_user_path, help="write the ONNX Runtime custom-op library source here")
    adapters.add_argument(
        "--openvino-extension", type=_user_path, help="write the OpenVINO extension library source here"
    )
    _add_plugin_arguments(adapters)
    adapters.set_defaults(handler=_kernel_adapters)
    new_op = commands.add_parser(
        "new-op", help="write a custom-operator package (plugin, C kernel, tests, BUILD) that passes its own tests"
    )
    new_op.add_argument("name", help="the operator's name: SoftClip, soft_clip or SOFT_CLIP")
    new_op.add_argument("--format", choices=("litert", "onnx"), required=True, help="the models it comes in")
    new_op.add_argument(
        "--dtype", choices=("int8", "float32"), help="its tensors' type (default: int8 for litert, float32 for onnx)"
    )
    new_op.add_argument("--domain", help="the operator's opset domain (default: com.example.<name>)")
    new_op.add_argument(
        "--custom-code", dest="custom_code", help="LiteRT: the models' customCode (default: the name as a key)"
    )
    new_op.add_argument(
        "--torch",
        nargs="?",
        const="",
        metavar="NAMESPACE::NAME",
        help="also a PyTorch op (ONNX format): its torch.library name, default <domain's last part>::<name>; "
        "a torch.library op of yours of that name is adopted",
    )
    new_op.add_argument(
        "-o", "--output-dir", type=_user_path, dest="output_dir", help="default: ./<name in snake_case>"
    )
    new_op.set_defaults(handler=_new_op)
    plugins = commands.add_parser("plugins", help="what plugins register")
    plugin_commands = plugins.add_subparsers(dest="plugins_command", required=True)
    plugins_list = plugin_commands.add_parser("list", help="every registry's keys, and who registered them")
    _add_plugin_arguments(plugins_list)
    plugins_list.set_defaults(handler=_plugins_list)
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    try:
        return arguments.handler(arguments)
    except OpbridgeError as error:
        print(f"opbridge: error: {error}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as error:  # a module imported late, missing from a stale Bazel runfiles tree
        stale = stale_runfiles_hint(error.name or "")
        if not stale:
            raise
        print(f"opbridge: error: {error}\n  hint: {stale}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    if WORKER_FLAG in sys.argv[1:]:
        # Started by Bazel as a persistent worker (toolchains/aot_model.bzl): one process, many conversions.
        sys.exit(serve(main))
    sys.exit(main(expand_parameter_files(sys.argv[1:])))
