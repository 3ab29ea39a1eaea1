# SPDX-License-Identifier: Apache-2.0
"""Build a program for another platform and run it as a test under QEMU.

  platform_binary      a cc_binary built for a given platform (a 1:1
                       transition on --platforms), e.g. an ELF for the M55.
  emulated_test        runs a platform_binary under qemu-aarch64 or
                       qemu-system-arm; the program's exit status decides.
  cc_multiplatform_test
                       from one set of sources: a host cc_test plus emulated
                       tests on aarch64, Cortex-M55 and Cortex-M4.
  sanitized_test       runs a host program built, with everything it links,
                       under AddressSanitizer + UndefinedBehaviorSanitizer.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//toolchains:defs.bzl", "HOST_ONLY")

# Which emulator runs programs of each platform.
EMULATORS = {
    "aarch64_linux": "qemu-aarch64",
    "cortex_m55": "mps3-an547",
    "cortex_m4": "mps2-an386",
}

def _platform_transition_impl(settings, attr):
    # kernels = "portable" sets --//cc/kernels:portable (docs/kernels.md); otherwise the flag
    # keeps its value, and the configuration stays the same.
    portable = settings["//cc/kernels:portable"]
    if getattr(attr, "kernels", "") == "portable":
        portable = True
    return {
        "//command_line_option:platforms": [str(attr.platform)],
        "//cc/kernels:portable": portable,
    }

_platform_transition = transition(
    implementation = _platform_transition_impl,
    inputs = ["//cc/kernels:portable"],
    outputs = [
        "//command_line_option:platforms",
        "//cc/kernels:portable",
    ],
)

def _platform_binary_impl(ctx):
    # With a transition on the attribute, Bazel 4.2.3 gives a list.
    binary = ctx.attr.binary[0][DefaultInfo].files_to_run.executable
    output = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = output, target_file = binary, is_executable = True)
    # The program's own runfiles (its `data`, built for the same platform)
    # come along, at the same paths as for a host test.
    runfiles = ctx.runfiles(files = [output]).merge(ctx.attr.binary[0][DefaultInfo].default_runfiles)
    return [DefaultInfo(
        executable = output,
        files = depset([output]),
        runfiles = runfiles,
    )]

platform_binary = rule(
    implementation = _platform_binary_impl,
    doc = "The executable `binary`, built for `platform`.",
    executable = True,
    attrs = {
        "binary": attr.label(mandatory = True, cfg = _platform_transition, executable = True),
        "platform": attr.label(mandatory = True),
        "kernels": attr.string(
            default = "",
            values = ["", "portable"],
            doc = "\"portable\": build with the portable kernel variant (docs/kernels.md).",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

# The flags of `--config=sanitize` (.bazelrc; keep the two the same): AddressSanitizer and
# UndefinedBehaviorSanitizer (with float-to-integer conversions out of range), the first report fatal.
SANITIZER_COPTS = [
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
]
SANITIZER_LINKOPTS = ["-fsanitize=address,undefined,float-cast-overflow"]
SANITIZER_ENV = {
    "ASAN_OPTIONS": "halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}

# The tag of the host variants of the tests that run emitted C: every aot_model's golden test, the
# kernels' golden and form tests, the kernels' own tests. `bazel test --config=sanitize
# --test_tag_filters=emitted_c --build_tests_only //...` runs exactly these, on the host only.
EMITTED_C_TAG = "emitted_c"

def _with(options, extra):
    return options + [option for option in extra if option not in options]

def _sanitize_transition_impl(settings, attr):
    # Added to the command line's own flags (nothing changes under --config=sanitize).
    return {
        "//command_line_option:copt": _with(settings["//command_line_option:copt"], SANITIZER_COPTS),
        "//command_line_option:linkopt": _with(settings["//command_line_option:linkopt"], SANITIZER_LINKOPTS),
    }

_sanitize_transition = transition(
    implementation = _sanitize_transition_impl,
    inputs = ["//command_line_option:copt", "//command_line_option:linkopt"],
    outputs = ["//command_line_option:copt", "//command_line_option:linkopt"],
)

def _sanitized_test_impl(ctx):
    # With a transition on the attribute, Bazel 4.2.3 gives a list.
    program = ctx.attr.program[0][DefaultInfo]
    output = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = output, target_file = program.files_to_run.executable, is_executable = True)
    return [
        DefaultInfo(
            executable = output,
            runfiles = ctx.runfiles(files = [output]).merge(program.default_runfiles),
        ),
        testing.TestEnvironment(SANITIZER_ENV),
    ]

sanitized_test = rule(
    implementation = _sanitized_test_impl,
    doc = """Runs the host program `program`, built with everything it links (C/C++ deps, kernels,
emitted modules) under AddressSanitizer + UndefinedBehaviorSanitizer (SANITIZER_COPTS, through a
transition on --copt and --linkopt); any report fails the test. A configuration of its own: the
program's dependencies are compiled a second time.""",
    test = True,
    attrs = {
        "program": attr.label(mandatory = True, executable = True, cfg = _sanitize_transition),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _emulated_test_impl(ctx):
    program = ctx.executable.program
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "#!/usr/bin/env bash\nexec %s %s %d %s\n" % (
            ctx.file._runner.short_path,
            ctx.attr.emulator,
            ctx.attr.timeout_seconds,
            program.short_path,
        ),
    )
    runfiles = ctx.runfiles(files = [program, ctx.file._runner]).merge(ctx.attr.program[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

emulated_test = rule(
    implementation = _emulated_test_impl,
    doc = "Runs `program` under `emulator`; passes when it exits 0 within `timeout_seconds`.",
    test = True,
    attrs = {
        "program": attr.label(mandatory = True, executable = True, cfg = "target"),
        "emulator": attr.string(mandatory = True, values = ["qemu-aarch64", "mps3-an547", "mps2-an386"]),
        "timeout_seconds": attr.int(default = 60),
        "_runner": attr.label(default = "//toolchains:run_emulated.sh", allow_single_file = True),
    },
)

def cc_multiplatform_test(
        name,
        srcs,
        deps = [],
        copts = [],
        platforms = ["x86_64_linux", "aarch64_linux", "cortex_m55", "cortex_m4"],
        timeout_seconds = 60,
        tags = [],
        host_tags = [],
        sanitized = False,
        size = "small",
        **kwargs):
    """One C/C++ test program, run on the host and under emulation.

    Makes, for each of `platforms`:
      x86_64_linux   `name`: a host cc_test
      aarch64_linux  `name_aarch64_linux`: under qemu-aarch64
      cortex_m55     `name_cortex_m55`: under qemu-system-arm -M mps3-an547
      cortex_m4      `name_cortex_m4`: under qemu-system-arm -M mps2-an386
    and `name_bin` (the program as a plain cc_binary, linked with the board
    support of whatever platform it is built for) plus `name_<platform>_elf`.
    The program's exit status decides; faults and hangs fail the test.

    host_tags: tags of the host cc_test only (e.g. EMITTED_C_TAG: its runs under --config=sanitize).
    sanitized: also `name_sanitized`, the host program under ASan + UBSan in every
    `bazel test` (sanitized_test; its dependencies are compiled a second time).
    """
    if "x86_64_linux" in platforms:
        cc_test(
            name = name,
            srcs = srcs,
            deps = deps,
            copts = copts,
            tags = tags + host_tags,
            size = size,
            target_compatible_with = HOST_ONLY,
            **kwargs
        )
    elif host_tags or sanitized:
        fail("cc_multiplatform_test(%s): host_tags and sanitized need x86_64_linux in platforms" % name)
    cc_binary(
        name = name + "_bin",
        srcs = srcs,
        deps = deps + ["//platforms/boards:board"],
        copts = copts,
        tags = tags,
        testonly = True,
        **kwargs
    )
    if sanitized:
        sanitized_test(
            name = name + "_sanitized",
            program = ":" + name + "_bin",
            tags = tags,
            size = size,
            target_compatible_with = HOST_ONLY,
        )
    for platform in platforms:
        if platform == "x86_64_linux":
            continue
        if platform not in EMULATORS:
            fail("cc_multiplatform_test(%s): unknown platform '%s'; expected one of %s" % (
                name,
                platform,
                ["x86_64_linux"] + EMULATORS.keys(),
            ))
        platform_binary(
            name = "%s_%s_elf" % (name, platform),
            binary = ":" + name + "_bin",
            platform = "//platforms:" + platform,
            tags = tags,
            testonly = True,
            target_compatible_with = HOST_ONLY,
        )
        emulated_test(
            name = "%s_%s" % (name, platform),
            program = ":%s_%s_elf" % (name, platform),
            emulator = EMULATORS[platform],
            timeout_seconds = timeout_seconds,
            tags = tags,
            size = size,
            target_compatible_with = HOST_ONLY,
        )
