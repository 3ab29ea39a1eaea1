# SPDX-License-Identifier: Apache-2.0
"""aot_model: a LiteRT (.tflite), ONNX (.onnx) or PyTorch (.pt2, torch.export.save) model compiled by opbridge
into a cc_library, plus its golden test.

    aot_model(
        name = "kws",
        model = "@shared_models//:models/mlperf_tiny/kws_ref_model.tflite",
        prefix = "kws",
    )

makes `:kws` (a cc_library of the emitted module: `#include "kws.h"`),
`:kws_plan` (its memory plan, JSON), and `:kws_golden_test` on every platform (toolchains/emulated_test.bzl): the
module run on seeded inputs against the NumPy reference's outputs. The host variant is tagged
"emitted_c": `bazel test --config=sanitize --test_tag_filters=emitted_c --build_tests_only //...` runs
every model's module under ASan + UBSan (docs/testing.md). `sanitized_test = True` adds
`:kws_golden_test_sanitized`, the host golden test under ASan + UBSan in every `bazel test`.

A model with custom operators names its plugin modules and a converter
binary that can import them (a host_py_binary of python/opbridge/cli.py
with the plugin's py_library in deps):

    aot_model(
        name = "frontend",
        model = ...,
        prefix = "frontend",
        plugins = ["opbridge_signal.plugin"],
        converter = ":opbridge_with_signal",
        kernel_deps = [":signal_kernels"],  # the plugin's C kernels
    )
"""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//toolchains:emulated_test.bzl", "EMITTED_C_TAG", "cc_multiplatform_test")
load("//toolchains:shared_outputs.bzl", "platform_shared_outputs")

def _aot_module_impl(ctx):
    module = ctx.actions.declare_directory(ctx.attr.name)
    golden = ctx.actions.declare_file(ctx.attr.name + "_golden_test.c")
    plan = ctx.actions.declare_file(ctx.attr.name + "_plan.json")
    arguments = ctx.actions.args()
    # In a file, one per line: what a persistent worker is sent (python/opbridge/bazel_worker.py).
    arguments.use_param_file("@%s", use_always = True)
    arguments.set_param_file_format("multiline")
    arguments.add("convert", ctx.file.model)
    arguments.add("--output-dir", module.path)
    arguments.add("--prefix", ctx.attr.prefix)
    arguments.add("--golden-test", golden)
    arguments.add("--plan-json", plan)
    # The library links //cc/kernels itself.
    arguments.add("--no-bundle-kernels")
    # The stack bound compiles every kernel twice more (arm-none-eabi-gcc); tests/stack checks it.
    arguments.add("--no-stack-bound")
    # A cc_library takes the folder as sources: a CMakeLists.txt is neither source nor header.
    arguments.add("--no-cmake-lists")
    arguments.add("--golden-cases", str(ctx.attr.golden_cases))
    # Only the plugins named here: a build must not depend on what is installed.
    arguments.add("--no-entry-points")
    for plugin in ctx.attr.plugins:
        arguments.add("--plugin", plugin)
    inputs = [ctx.file.model]
    if ctx.file.config:
        arguments.add("--config", ctx.file.config)
        inputs.append(ctx.file.config)
    ctx.actions.run(
        executable = ctx.executable.converter,
        arguments = [arguments],
        inputs = inputs,
        outputs = [module, golden, plan],
        mnemonic = "OpbridgeConvert",
        progress_message = "Converting %s with opbridge" % ctx.file.model.short_path,
        use_default_shell_env = True,
        # One converter process per build converts every model (python/opbridge/bazel_worker.py):
        # Python, numpy, the operators and torch are imported once, not once per model.
        execution_requirements = {"supports-workers": "1"},
    )
    return [
        DefaultInfo(files = depset([module])),
        OutputGroupInfo(module = depset([module]), golden_test = depset([golden]), plan = depset([plan])),
    ]

_aot_module = rule(
    implementation = _aot_module_impl,
    attrs = {
        "model": attr.label(mandatory = True, allow_single_file = [".tflite", ".onnx", ".pt2"]),
        "prefix": attr.string(mandatory = True),
        "config": attr.label(allow_single_file = [".yaml", ".yml"]),
        "golden_cases": attr.int(default = 20),
        "plugins": attr.string_list(),
        "converter": attr.label(default = "//python/opbridge:opbridge_cli", executable = True, cfg = "exec"),
    },
)

def aot_model(
        name,
        model,
        prefix,
        config = None,
        golden_cases = 20,
        plugins = [],
        converter = None,
        visibility = None,
        tags = [],
        kernel_deps = [],
        sanitized_test = False,
        **kwargs):
    """The emitted module of `model` as cc_library `name`, and `name_golden_test` on every platform.

    converter: the opbridge command line that converts (default: //python/opbridge:opbridge_cli, or for
    a .pt2 program //python/opbridge:opbridge_cli_torch, the one with torch in its runfiles).
    sanitized_test: also `name_golden_test_sanitized`, the host golden test with the module, the
    kernels and the test program built under ASan + UBSan (a second compile of them all).
    """
    if converter == None:
        torch_program = model.endswith(".pt2")
        converter = "//python/opbridge:opbridge_cli_torch" if torch_program else "//python/opbridge:opbridge_cli"
    module = name + "_module"
    # The conversion runs once, not once per platform the golden test is built for (toolchains/shared_outputs.bzl).
    _aot_module(
        name = name + "_conversion",
        model = model,
        prefix = prefix,
        config = config,
        golden_cases = golden_cases,
        plugins = plugins,
        converter = converter,
        tags = tags + ["manual"],
        visibility = ["//visibility:private"],
    )
    platform_shared_outputs(
        name = module,
        src = ":" + name + "_conversion",
        output_groups = ["module", "golden_test", "plan"],
        tags = tags,
        visibility = ["//visibility:private"],
    )
    native.filegroup(
        name = name + "_plan",
        srcs = [":" + module],
        output_group = "plan",
        tags = tags,
        visibility = visibility,
    )
    native.filegroup(
        name = name + "_golden_test_source",
        srcs = [":" + module],
        output_group = "golden_test",
        tags = tags,
        visibility = ["//visibility:private"],
    )
    cc_library(
        name = name,
        # The module is a folder whose files depend on the model; Bazel
        # compiles every .c in it. Tree-artifact objects must be linked as a
        # whole archive (alwayslink) and statically (GNU ld lacks --start-lib).
        srcs = [":" + module],
        hdrs = [":" + module],
        includes = [module + "/includes-api", module + "/src"],
        # Plugins' kernels (kernel_deps) are linked like opbridge's own.
        deps = ["//cc/kernels:kernels"] + kernel_deps,
        alwayslink = True,
        linkstatic = True,
        tags = tags,
        visibility = visibility,
        **kwargs
    )
    # The same module with per-node timing hooks (OPBRIDGE_TIME_NODES), for benchmarks only.
    cc_library(
        name = name + "_timed",
        srcs = [":" + module],
        hdrs = [":" + module],
        includes = [module + "/includes-api", module + "/src"],
        copts = ["-DOPBRIDGE_TIME_NODES"],
        deps = ["//cc/kernels:kernels"] + kernel_deps,
        alwayslink = True,
        linkstatic = True,
        tags = tags + ["manual"],
        visibility = visibility,
        **kwargs
    )
    cc_multiplatform_test(
        name = name + "_golden_test",
        srcs = [":" + name + "_golden_test_source"],
        deps = [":" + name],
        size = "medium",
        tags = tags,
        host_tags = [EMITTED_C_TAG],
        sanitized = sanitized_test,
    )
