# SPDX-License-Identifier: Apache-2.0
"""kernel_golden_tests: one golden test per operator kernel, on every platform.

    kernel_golden_tests(
        name = "kernel_golden",
        operators = KERNEL_TEST_OPERATORS,  # ["add", "conv_2d", ...]
        generator = ":kernel_golden_generator",
    )

runs `generator --output-dir DIR --operators add,conv_2d,...` once (one
action for every operator: the interpreter and opbridge start once), which
writes DIR/<op>_module/ (an emitted C module of that operator's seeded
graph, kernels not bundled) and DIR/<op>_golden_test.c (its golden test:
seeded inputs and the NumPy reference's outputs). For each operator it makes
`<op>_kernel_module` (a cc_library of the module, linked with
//cc/kernels:kernels) and `<op>_kernel_test` on every platform
(toolchains/emulated_test.bzl: x86_64, aarch64, Cortex-M55, Cortex-M4), and
`name` is a test_suite of them all. aot_model does the same for whole models. The host tests are
tagged "emitted_c", as aot_model's are: `--config=sanitize` runs them under ASan + UBSan.

The folded kernel forms' differential tests use the same macro with
`flag = "--forms"` and `kind = "form"`: the generator gets
`--forms conv_2d_folded,...` and the targets are `<form>_form_module` and
`<form>_form_test` (on each platform).
"""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//toolchains:emulated_test.bzl", "EMITTED_C_TAG", "cc_multiplatform_test")
load("//toolchains:shared_outputs.bzl", "platform_shared_outputs")

def _kernel_golden_sources_impl(ctx):
    modules = {}
    goldens = {}
    for operator in ctx.attr.operators:
        modules[operator] = ctx.actions.declare_directory("%s/%s_module" % (ctx.attr.name, operator))
        goldens[operator] = ctx.actions.declare_file("%s/%s_golden_test.c" % (ctx.attr.name, operator))
    output_dir = goldens[ctx.attr.operators[0]].dirname
    arguments = ctx.actions.args()
    arguments.add("--output-dir", output_dir)
    arguments.add_joined(ctx.attr.flag, ctx.attr.operators, join_with = ",")
    outputs = modules.values() + goldens.values()
    ctx.actions.run(
        executable = ctx.executable.generator,
        arguments = [arguments],
        outputs = outputs,
        mnemonic = "OpbridgeKernelGoldens",
        progress_message = "Generating the golden tests of %d kernels (%s)" % (len(ctx.attr.operators), ctx.attr.flag),
        use_default_shell_env = True,
    )
    groups = {}
    for operator in ctx.attr.operators:
        groups[operator + "_module"] = depset([modules[operator]])
        groups[operator + "_golden_test"] = depset([goldens[operator]])
    return [DefaultInfo(files = depset(outputs)), OutputGroupInfo(**groups)]

_kernel_golden_sources = rule(
    implementation = _kernel_golden_sources_impl,
    attrs = {
        "operators": attr.string_list(mandatory = True, allow_empty = False),
        "generator": attr.label(mandatory = True, executable = True, cfg = "exec"),
        "flag": attr.string(default = "--operators"),
    },
)

def kernel_golden_tests(
        name,
        operators,
        generator,
        kernels = "//cc/kernels:kernels",
        platforms = ["x86_64_linux", "aarch64_linux", "cortex_m55", "cortex_m4"],
        flag = "--operators",
        kind = "kernel",
        tags = [],
        **kwargs):
    """`<op>_<kind>_test` (on each of `platforms`) for each of `operators`, and test_suite `name` of them all.

    `flag` is the generator's option that takes the comma-separated `operators`."""
    sources = name + "_sources"
    # Generated once, not once per platform the tests are built for (toolchains/shared_outputs.bzl).
    _kernel_golden_sources(
        name = name + "_generated",
        operators = operators,
        generator = generator,
        flag = flag,
        testonly = True,
        tags = tags + ["manual"],
        visibility = ["//visibility:private"],
    )
    platform_shared_outputs(
        name = sources,
        src = ":" + name + "_generated",
        output_groups = [operator + suffix for operator in operators for suffix in ("_module", "_golden_test")],
        testonly = True,
        tags = tags,
        visibility = ["//visibility:private"],
    )
    for operator in operators:
        native.filegroup(
            name = "%s_%s_module_files" % (operator, kind),
            srcs = [":" + sources],
            output_group = operator + "_module",
            testonly = True,
            tags = tags,
            visibility = ["//visibility:private"],
        )
        native.filegroup(
            name = "%s_%s_test_source" % (operator, kind),
            srcs = [":" + sources],
            output_group = operator + "_golden_test",
            testonly = True,
            tags = tags,
            visibility = ["//visibility:private"],
        )
        module = "%s/%s_module" % (sources, operator)
        cc_library(
            name = "%s_%s_module" % (operator, kind),
            # As in aot_model: a tree artifact's objects are linked whole and statically.
            srcs = [":%s_%s_module_files" % (operator, kind)],
            hdrs = [":%s_%s_module_files" % (operator, kind)],
            includes = [module + "/includes-api", module + "/src"],
            deps = [kernels],
            alwayslink = True,
            linkstatic = True,
            testonly = True,
            tags = tags,
            visibility = ["//visibility:private"],
        )
        cc_multiplatform_test(
            name = "%s_%s_test" % (operator, kind),
            srcs = [":%s_%s_test_source" % (operator, kind)],
            deps = [":%s_%s_module" % (operator, kind)],
            platforms = platforms,
            tags = tags,
            # The host test runs under --config=sanitize (toolchains/emulated_test.bzl).
            host_tags = [EMITTED_C_TAG] if "x86_64_linux" in platforms else [],
            **kwargs
        )
    native.test_suite(
        name = name,
        # cc_multiplatform_test's names: the host test bare, the others with their platform.
        tests = [
            ":%s_%s_test%s" % (operator, kind, "" if platform == "x86_64_linux" else "_" + platform)
            for operator in operators
            for platform in platforms
        ],
        tags = tags,
    )
