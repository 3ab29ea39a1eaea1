# SPDX-License-Identifier: Apache-2.0
"""The cc_toolchain_config rule shared by every pinned gcc toolchain.

Only the flags differ between x86_64, aarch64 and the Cortex-M cores; they
come from the `pinned_gcc_toolchain` calls in WORKSPACE. Bazel's legacy
features (include paths, defines, user copts, dependency files, PIC, ...)
are added automatically because this config does not set
`no_legacy_features`.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
)

_C_COMPILE = [ACTION_NAMES.c_compile]
_CXX_COMPILE = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]
_ALL_COMPILE = _C_COMPILE + _CXX_COMPILE + [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
]
_ALL_LINK = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

# Our own code is C99 (kernels, emitted modules) and C++17 (plugins,
# pybind11 modules), always with -Wall -Wextra -Werror.
_WARNINGS = ["-Wall", "-Wextra", "-Werror"]

# Same bytes from any checkout, user or day: needed for remote cache hits.
_REPRODUCIBLE = [
    "-no-canonical-prefixes",
    "-fno-canonical-system-headers",
    "-Wno-builtin-macro-redefined",
    "-D__DATE__=\"redacted\"",
    "-D__TIMESTAMP__=\"redacted\"",
    "-D__TIME__=\"redacted\"",
]

def _flags_feature(name, actions, flags):
    return feature(
        name = name,
        enabled = True,
        flag_sets = [flag_set(actions = actions, flag_groups = [flag_group(flags = flags)])] if flags else [],
    )

def _mode_feature(name, compile_flags):
    # Bazel enables the feature named after --compilation_mode.
    return feature(
        name = name,
        flag_sets = [flag_set(actions = _ALL_COMPILE, flag_groups = [flag_group(flags = compile_flags)])],
    )

def _gcc_toolchain_config_impl(ctx):
    features = [
        _flags_feature("opbridge_target_compile_flags", _ALL_COMPILE, ctx.attr.target_flags + _REPRODUCIBLE),
        _flags_feature("opbridge_section_flags", _ALL_COMPILE, ["-ffunction-sections", "-fdata-sections"]),
        _flags_feature("opbridge_warnings", _C_COMPILE + _CXX_COMPILE, _WARNINGS),
        # No fused multiply-adds: float32 kernels must round like the reference (docs/emitted_c_api.md).
        _flags_feature("opbridge_c_standard", _C_COMPILE, ["-std=c99", "-ffp-contract=off"]),
        _flags_feature("opbridge_cxx_standard", _CXX_COMPILE, ["-std=c++17"]),
        _flags_feature("opbridge_target_link_flags", _ALL_LINK, ctx.attr.target_flags + ["-no-canonical-prefixes", "-Wl,--gc-sections"]),
        feature(
            name = "opbridge_link_libs",
            enabled = True,
            flag_sets = [flag_set(
                actions = _ALL_LINK,
                flag_groups = [flag_group(flags = ctx.attr.link_libs)],
            )] if ctx.attr.link_libs else [],
        ),
        _mode_feature("fastbuild", ["-O1"]),
        _mode_feature("opt", ["-O2", "-DNDEBUG"]),
        _mode_feature("dbg", ["-O0", "-g3"]),
        feature(name = "supports_pic", enabled = ctx.attr.supports_shared),
        feature(name = "supports_dynamic_linker", enabled = ctx.attr.supports_shared),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = ctx.attr.toolchain_identifier,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = ctx.attr.toolchain_identifier,
        target_cpu = ctx.attr.toolchain_identifier,
        target_libc = "unknown",
        compiler = "gcc",
        abi_version = "unknown",
        abi_libc_version = "unknown",
        cc_target_os = None,
        builtin_sysroot = None,
        cxx_builtin_include_directories = ctx.attr.builtin_include_dirs,
        tool_paths = [tool_path(name = tool, path = "bin/" + tool) for tool in [
            "gcc",
            "cpp",
            "ar",
            "ld",
            "nm",
            "objcopy",
            "objdump",
            "strip",
            "gcov",
        ]] + [tool_path(name = "dwp", path = "/bin/false")],
        features = features,
    )

gcc_toolchain_config = rule(
    implementation = _gcc_toolchain_config_impl,
    attrs = {
        "toolchain_identifier": attr.string(mandatory = True),
        "compiler_version": attr.string(mandatory = True),
        "target_flags": attr.string_list(),
        "link_libs": attr.string_list(),
        "builtin_include_dirs": attr.string_list(),
        "supports_shared": attr.bool(default = False),
    },
    provides = [CcToolchainConfigInfo],
)
