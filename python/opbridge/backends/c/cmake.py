# SPDX-License-Identifier: Apache-2.0
"""The CMakeLists.txt of an emitted module (docs/integration.md).

It defines a static library named after the prefix from the files the
emitter wrote (listed one by one: the library is exactly the module), and
opbridge's kernels as `opbridge_kernels`, one target shared by every module
of a project. Both compile with the flags of opbridge's own toolchains
(toolchains/cc_toolchain_config.bzl): C99, -ffp-contract=off, function and
data sections, -Wall -Wextra. The target's -mcpu chooses the kernel variant
(cc/kernels/opbridge_kernel_variant.h); the user's toolchain file normally
sets it, and the file adds the flags of opbridge's Bazel toolchains only for
a known CMAKE_SYSTEM_PROCESSOR whose C flags name no -mcpu.
"""

from collections.abc import Sequence

from opbridge.backends.c.emit_context import GENERATED_NOTICE

CMAKE_LISTS = "CMakeLists.txt"
# The first line of every CMakeLists.txt opbridge writes: a folder's file without it is the user's.
CMAKE_LISTS_FIRST_LINE = f"# {GENERATED_NOTICE}"

# The target flags of the pinned_gcc_toolchain calls in WORKSPACE, by CMAKE_SYSTEM_PROCESSOR.
CPU_FLAGS = {
    "cortex-m55": ("-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb"),
    "cortex-m4": ("-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "-mthumb"),
}

_HEADER = """\
{first_line}
#
# The opbridge module "{p}" as a static library, `{p}`; opbridge's kernels are
# `opbridge_kernels`, one target shared by every module of a project (the first
# module added defines it). In your project (docs/integration.md):
#
#   add_subdirectory(path/to/this/folder)
#   target_link_libraries(your_program PRIVATE {p})   # #include "{p}.h"
#
# or on its own: cmake -S path/to/this/folder -B build && cmake --build build
#
# Cache variables, shared by every opbridge module of a project:
#   OPBRIDGE_KERNELS    auto (default): the target's compiler macros choose the Helium
#                       (Cortex-M55), DSP (Cortex-M4) or portable kernels; portable: the
#                       portable C99 kernels on any core
#   OPBRIDGE_CPU_FLAGS  ON (default): when CMAKE_SYSTEM_PROCESSOR is {cpus} and
#                       the C flags name no -mcpu, compile and link with opbridge's toolchain
#                       flags for that core; your toolchain file's -mcpu always wins
#   OPBRIDGE_WERROR     OFF (default): ON makes warnings errors, as opbridge's own builds do
{kernels_dir_doc}
cmake_minimum_required(VERSION 3.13...3.31)
project({p} LANGUAGES C)

set(OPBRIDGE_KERNELS "auto" CACHE STRING "opbridge kernel variant: auto (from the target's flags) or portable")
set_property(CACHE OPBRIDGE_KERNELS PROPERTY STRINGS auto portable)
option(OPBRIDGE_CPU_FLAGS "add opbridge's -mcpu flags for a known CMAKE_SYSTEM_PROCESSOR if the C flags have none" ON)
option(OPBRIDGE_WERROR "compile opbridge modules and kernels with -Werror" OFF)
if(NOT OPBRIDGE_KERNELS MATCHES "^(auto|portable)$")
  message(FATAL_ERROR "OPBRIDGE_KERNELS is '${{OPBRIDGE_KERNELS}}': expected auto or portable")
endif()
# The flags the toolchain and the project already give (a -mcpu, a -O).
get_directory_property(_opbridge_directory_options COMPILE_OPTIONS)
string(TOUPPER "${{CMAKE_BUILD_TYPE}}" _opbridge_build_type)
set(_opbridge_c_flags
  "${{CMAKE_C_FLAGS}} ${{CMAKE_C_FLAGS_${{_opbridge_build_type}}}} ${{_opbridge_directory_options}}")
"""

_KERNELS_DIR_DOC = """\
#   OPBRIDGE_KERNELS_DIR
#                       the folder holding cc/kernels/ (opbridge's checkout): this module
#                       was converted with --no-bundle-kernels, so its kernels are not here
"""

_BUNDLED_ROOT = """\
  # The kernels bundled in this folder.
  set(_opbridge_kernel_root "${CMAKE_CURRENT_SOURCE_DIR}/kernels")
"""

_EXTERNAL_ROOT = """\
  # Converted with --no-bundle-kernels: the kernels are opbridge's own, from OPBRIDGE_KERNELS_DIR.
  if(NOT EXISTS "${{OPBRIDGE_KERNELS_DIR}}/cc/kernels/opbridge_kernel_variant.h")
    message(FATAL_ERROR
      "The opbridge module {p} (${{CMAKE_CURRENT_SOURCE_DIR}}) was converted with --no-bundle-kernels: "
      "its kernels are not in its folder, and OPBRIDGE_KERNELS_DIR ('${{OPBRIDGE_KERNELS_DIR}}') holds no "
      "cc/kernels/opbridge_kernel_variant.h. Set OPBRIDGE_KERNELS_DIR to the folder that holds cc/kernels/ "
      "(opbridge's checkout, e.g. -DOPBRIDGE_KERNELS_DIR=/path/to/opbridge), or convert without --no-bundle-kernels.")
  endif()
  set(_opbridge_kernel_root "${{OPBRIDGE_KERNELS_DIR}}")
"""

_GLOBBED_KERNELS = """\
  # The converter did not have opbridge's kernel sources to list: take those of OPBRIDGE_KERNELS_DIR.
  file(GLOB _opbridge_kernel_sources CONFIGURE_DEPENDS
    "${_opbridge_kernel_root}/cc/kernels/opbridge_*.c" "${_opbridge_kernel_root}/cc/kernels/opbridge_*.h")
  list(FILTER _opbridge_kernel_sources EXCLUDE REGEX "_test\\\\.c$")
  add_library(opbridge_kernels STATIC ${_opbridge_kernel_sources})
"""

_SETTINGS = """
  target_include_directories(opbridge_kernels PUBLIC "${{_opbridge_kernel_root}}")
  if(OPBRIDGE_KERNELS STREQUAL "portable")
    # PUBLIC: plugins' kernels in the modules' src/ follow the same switch.
    target_compile_definitions(opbridge_kernels PUBLIC OPBRIDGE_FORCE_PORTABLE_KERNELS)
  endif()
  if(NOT WIN32)
    target_link_libraries(opbridge_kernels PUBLIC m)  # expf, tanhf (float32 kernels)
  endif()
  # opbridge's Bazel toolchain flags for the core, unless the user's toolchain chose a -mcpu.
  # PUBLIC, compile and link: every object of a program and the C library must agree on the ABI.
  string(TOLOWER "${{CMAKE_SYSTEM_PROCESSOR}}" _opbridge_processor)
  string(REPLACE "_" "-" _opbridge_processor "${{_opbridge_processor}}")
  set(_opbridge_cpu_flags "")
{cpu_cases}  if(OPBRIDGE_CPU_FLAGS AND _opbridge_cpu_flags AND NOT _opbridge_c_flags MATCHES "-mcpu=")
    target_compile_options(opbridge_kernels PUBLIC ${{_opbridge_cpu_flags}})
    target_link_options(opbridge_kernels PUBLIC ${{_opbridge_cpu_flags}})
    string(REPLACE ";" " " _opbridge_shown "${{_opbridge_cpu_flags}}")
    message(STATUS "opbridge: CMAKE_SYSTEM_PROCESSOR ${{CMAKE_SYSTEM_PROCESSOR}} and no -mcpu in the C flags: "
      "compiling with ${{_opbridge_shown}}")
  endif()
  message(STATUS "opbridge kernels: ${{OPBRIDGE_KERNELS}} (OPBRIDGE_KERNELS; auto: Helium with -mcpu=cortex-m55, "
    "DSP with cortex-m4, portable otherwise)")
  set(_opbridge_targets {p} opbridge_kernels)
else()
  set(_opbridge_targets {p})
endif()

target_include_directories({p}
  PUBLIC "${{CMAKE_CURRENT_SOURCE_DIR}}/includes-api" PRIVATE "${{CMAKE_CURRENT_SOURCE_DIR}}/src")
target_link_libraries({p} PUBLIC opbridge_kernels)

# The flags of opbridge's toolchains (toolchains/cc_toolchain_config.bzl); the optimisation level is
# the build type's. -ffp-contract=off: no fused multiply-adds, so float32 rounds as the reference does.
foreach(_opbridge_target IN LISTS _opbridge_targets)
  set_target_properties(${{_opbridge_target}} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  if(CMAKE_C_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang|ARMClang|IntelLLVM)$")
    target_compile_options(${{_opbridge_target}} PRIVATE
      -ffp-contract=off -ffunction-sections -fdata-sections -Wall -Wextra)
    if(OPBRIDGE_WERROR)
      target_compile_options(${{_opbridge_target}} PRIVATE -Werror)
    endif()
  else()
    message(WARNING "opbridge module {p}: ${{CMAKE_C_COMPILER_ID}} is not a GCC-like compiler: give it the "
      "equivalent of -ffp-contract=off (no fused multiply-adds), or float32 outputs may differ from the reference")
  endif()
endforeach()

get_property(_opbridge_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(NOT _opbridge_multi_config AND NOT CMAKE_BUILD_TYPE AND NOT _opbridge_c_flags MATCHES "(^| )-O")
  message(STATUS "opbridge module {p}: no CMAKE_BUILD_TYPE and no -O flag: built without optimisation "
    "(set CMAKE_BUILD_TYPE=Release or MinSizeRel)")
endif()
"""


def _cmake_list(paths: Sequence[str], indent: str) -> str:
    return "".join(f"{indent}{path}\n" for path in paths)


def _cpu_cases() -> str:
    lines = []
    for position, (processor, flags) in enumerate(CPU_FLAGS.items()):
        keyword = "if" if position == 0 else "elseif"
        lines.append(f'  {keyword}(_opbridge_processor STREQUAL "{processor}")\n')
        lines.append(f"    set(_opbridge_cpu_flags {' '.join(flags)})\n")
    lines.append("  endif()\n")
    return "".join(lines)


def cmake_lists(
    prefix: str,
    module_files: Sequence[str],
    kernel_files: Sequence[str] | None,
    bundled: bool,
    unbundled_plugin_kernels: Sequence[str] = (),
) -> str:
    """The module's CMakeLists.txt.

    `module_files`: the module's files relative to its folder (those under src/
    and includes-api/ are the library's). `kernel_files`: opbridge's kernel
    files relative to the folder that holds cc/kernels/ (the module's
    kernels/ when `bundled`); None when unknown, and then the CMakeLists
    takes those of OPBRIDGE_KERNELS_DIR. `unbundled_plugin_kernels`: plugin
    kernels a module converted without bundling leaves to the user.
    """
    p = prefix
    library_files = sorted(
        f for f in module_files if f.startswith(("src/", "includes-api/")) and f.endswith((".c", ".h"))
    )
    text = _HEADER.format(
        first_line=CMAKE_LISTS_FIRST_LINE,
        p=p,
        cpus=" or ".join(CPU_FLAGS),
        kernels_dir_doc="" if bundled else _KERNELS_DIR_DOC,
    )
    if not bundled:
        text += (
            'set(OPBRIDGE_KERNELS_DIR "" CACHE PATH "the folder holding opbridge\'s cc/kernels/ '
            '(modules converted with --no-bundle-kernels)")\n'
        )
    text += f"\nadd_library({p} STATIC\n{_cmake_list(library_files, '  ')})\n"
    if unbundled_plugin_kernels:
        names = ", ".join(unbundled_plugin_kernels)
        text += (
            "# Converted with --no-bundle-kernels: plugin operators' kernels are not in src/ either;\n"
            f"# add them to the target: {names}\n"
        )
    text += "\nif(NOT TARGET opbridge_kernels)\n"
    text += _BUNDLED_ROOT if bundled else _EXTERNAL_ROOT.format(p=p)
    if kernel_files is None:
        text += _GLOBBED_KERNELS
    else:
        listed = _cmake_list([f'"${{_opbridge_kernel_root}}/{f}"' for f in sorted(kernel_files)], "    ")
        text += f"  add_library(opbridge_kernels STATIC\n{listed}  )\n"
    text += _SETTINGS.format(p=p, cpu_cases=_cpu_cases())
    return text
