# SPDX-License-Identifier: Apache-2.0
"""An emitted module's CMakeLists.txt and cmake/opbridge.cmake, configured and built by Debian's cmake.

On the host (gcc) the golden program is built and run; for the Cortex-M55
the shipped example project (cmake/examples/mps3_an547, with the shipped
toolchain file) converts the model through opbridge_add_model, its archives
are checked for Helium, and its program is run under qemu-system-arm. The
blocks docs/integration.md quotes are the files, and its Makefile builds.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import pytest
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import OpbridgeError

# A py_test runs in its runfiles tree's workspace folder.
ROOT = pathlib.Path.cwd()
MODELS = (ROOT / "../shared_models/models").resolve()
KWS = MODELS / "mlperf_tiny/kws_ref_model.tflite"
HELLO_WORLD = MODELS / "tflm/hello_world_int8.tflite"
FRONTEND = MODELS / "tflm/audio_preprocessor_int8.tflite"
M55_TOOLCHAIN = ROOT / "cmake/toolchains/arm-none-eabi-cortex-m55.cmake"
M55_EXAMPLE = ROOT / "cmake/examples/mps3_an547"
OPBRIDGE_CMAKE = ROOT / "cmake/opbridge.cmake"
PAGE = ROOT / "docs/integration.md"
HOST_GCC = "x86_64-linux-gnu-gcc"  # the pinned host compiler (WORKSPACE, gcc_x86_64_linux)
JOBS = str(os.cpu_count() or 2)
# The flags every module and kernel source compiles with (those of toolchains/cc_toolchain_config.bzl).
TOOLCHAIN_FLAGS = ["-std=c99", "-ffp-contract=off", "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra"]


def golden_line(prefix: str, module: pathlib.Path, cases: int = 20) -> str:
    """What the golden program of the module in `module` prints when every case matches (backends/c/golden.py)."""
    arena_bytes = json.loads((module / "plan.json").read_text())["arena_bytes"]
    return f"{prefix}: {cases} cases x 2 arenas, arena {arena_bytes} bytes, 0 failures"


def run(command: list[str], cwd: pathlib.Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def configure(source: pathlib.Path, build: pathlib.Path, *definitions: str, check: bool = True) -> str:
    """cmake's output (stdout and stderr)."""
    command = ["cmake", "-G", "Unix Makefiles", "-S", str(source), "-B", str(build)]
    command += ["-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *definitions]
    result = run(command, check=check)
    return result.stdout + result.stderr


def build(directory: pathlib.Path, *targets: str) -> str:
    command = ["cmake", "--build", str(directory), "-j", JOBS]
    if targets:
        command += ["--target", *targets]
    return run(command).stdout


def compile_commands(build_dir: pathlib.Path) -> dict[str, list[str]]:
    """Each compiled source (resolved) with its compiler arguments."""
    entries = json.loads((build_dir / "compile_commands.json").read_text())
    return {str(pathlib.Path(e["file"]).resolve()): e["command"].split() for e in entries}


def convert(work: pathlib.Path, model: pathlib.Path, prefix: str, **settings: object) -> pathlib.Path:
    out = work / prefix
    golden = work / f"{prefix}_golden_test.c"
    AotConverter(ConvertArgs(model=model, output_dir=out, prefix=prefix, golden_test=golden, **settings)).convert()
    return out


def app_project(work: pathlib.Path, body: str) -> pathlib.Path:
    """A consumer project whose CMakeLists.txt is `body`."""
    project = work / "app"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(f"cmake_minimum_required(VERSION 3.20)\nproject(app LANGUAGES C)\n{body}")
    return project


def _new_folder() -> pathlib.Path:
    """A new folder under Bazel's TEST_TMPDIR (the system's temporary folder outside Bazel)."""
    return pathlib.Path(tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR")))


@pytest.fixture
def work(tmp_path: pathlib.Path) -> pathlib.Path:
    """Build folders go under TEST_TMPDIR in Bazel; pytest's tmp_path is in /tmp."""
    return _new_folder() if "TEST_TMPDIR" in os.environ else tmp_path


@pytest.fixture(scope="module")
def opbridge_command() -> pathlib.Path:
    """OPBRIDGE_EXECUTABLE: `python -m opbridge.cli` with this test's interpreter and imports."""
    script = _new_folder() / "opbridge"
    python_path = os.pathsep.join(p for p in sys.path if p)
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{python_path}" exec "{sys.executable}" -m opbridge.cli "$@"\n')
    script.chmod(0o755)
    return script


def test_host_build_has_the_toolchains_flags_and_passes_the_golden_tests(work: pathlib.Path) -> None:
    # Two modules in one program: they share one opbridge_kernels (the first module's).
    kws = convert(work, KWS, "kws")
    hello_world = convert(work, HELLO_WORLD, "hello_world")
    goldens = [work / "kws_golden_test.c", work / "hello_world_golden_test.c"]
    project = app_project(
        work,
        f'add_subdirectory("{kws}" kws)\n'
        f'add_subdirectory("{hello_world}" hello_world)\n'
        f'add_executable(kws_golden "{goldens[0]}")\n'
        "target_link_libraries(kws_golden PRIVATE kws)\n"
        f'add_executable(hello_world_golden "{goldens[1]}")\n'
        "target_link_libraries(hello_world_golden PRIVATE hello_world)\n",
    )
    build_dir = work / "build"
    output = configure(
        project, build_dir, f"-DCMAKE_C_COMPILER={HOST_GCC}", "-DCMAKE_BUILD_TYPE=Release", "-DOPBRIDGE_WERROR=ON"
    )
    assert output.count("opbridge kernels: auto") == 1
    build(build_dir)

    # The libraries are exactly the emitted C files, each with opbridge's flags.
    commands = compile_commands(build_dir)
    sources = [*kws.glob("src/*.c"), *hello_world.glob("src/*.c"), *kws.glob("kernels/cc/kernels/*.c")]
    emitted = {str(p.resolve()) for p in sources}
    assert set(commands) == emitted | {str(p.resolve()) for p in goldens}
    for source in emitted:
        missing = [flag for flag in [*TOOLCHAIN_FLAGS, "-Werror"] if flag not in commands[source]]
        assert not missing, f"{source} compiles without {missing}"
    assert not [a for s in emitted for a in commands[s] if a.startswith("-mcpu")]  # none on the host

    assert run([str(build_dir / "kws_golden")]).stdout.strip() == golden_line("kws", kws)
    assert run([str(build_dir / "hello_world_golden")]).stdout.strip() == golden_line("hello_world", hello_world)


def test_m55_example_converts_builds_for_helium_and_passes_under_qemu(
    work: pathlib.Path, opbridge_command: pathlib.Path
) -> None:
    build_dir = work / "m55"
    output = configure(
        M55_EXAMPLE,
        build_dir,
        f"-DCMAKE_TOOLCHAIN_FILE={M55_TOOLCHAIN}",
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DOPBRIDGE_EXECUTABLE={opbridge_command}",
        f"-DMODEL={KWS}",
        "-DOPBRIDGE_WERROR=ON",
    )
    assert "opbridge: converting" in output
    assert "compiling with" not in output  # the toolchain file's -mcpu, not the module's fallback
    build(build_dir)

    # The toolchain file's flags reach every module and kernel source, once.
    commands = compile_commands(build_dir)
    module_sources = [s for s in commands if s.startswith(str((build_dir / "opbridge" / "kws").resolve()))]
    assert len(module_sources) > 20
    for source in module_sources:
        arguments = commands[source]
        assert arguments.count("-mcpu=cortex-m55") == 1 and "-mfloat-abi=hard" in arguments, source
        assert not [f for f in TOOLCHAIN_FLAGS if f not in arguments], source

    # Every object of both archives is for the Cortex-M55 with Helium and the hard-float ABI.
    libraries = build_dir / "opbridge" / "kws-build"
    for archive in ("libkws.a", "libopbridge_kernels.a"):
        attributes = run(["arm-none-eabi-readelf", "-A", str(libraries / archive)]).stdout
        members = attributes.split("File: ")[1:]
        assert len(members) > 5, attributes
        for member in members:
            assert 'Tag_CPU_name: "cortex-m55"' in member, member
            assert "Tag_MVE_arch: MVE Integer and FP" in member, member
            assert "Tag_ABI_VFP_args: VFP registers" in member, member
    # The Helium variant was compiled in (its file is empty in the others).
    symbols = run(["arm-none-eabi-nm", "-g", "--defined-only", str(libraries / "libopbridge_kernels.a")]).stdout
    helium = symbols.split("opbridge_conv_2d_s8_folded_helium.c.obj:")[1].split(".obj:")[0]
    assert " T opbridge_conv_2d_s8_folded" in helium

    program = build_dir / "kws_golden.elf"
    result = run(["toolchains/run_emulated.sh", "mps3-an547", "60", str(program)], check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert golden_line("kws", build_dir / "opbridge" / "kws") in result.stdout


def test_opbridge_add_model_converts_again_only_when_the_model_changes(
    work: pathlib.Path, opbridge_command: pathlib.Path
) -> None:
    model = work / "model.tflite"
    shutil.copyfile(HELLO_WORLD, model)
    golden = work / "net_golden_test.c"
    project = app_project(
        work,
        f'include("{OPBRIDGE_CMAKE}")\n'
        f'opbridge_add_model(NAME net MODEL "{model}" GOLDEN_TEST "{golden}")\n'
        f'add_executable(golden "{golden}")\n'
        "target_link_libraries(golden PRIVATE net)\n",
    )
    build_dir = work / "build"
    configure(project, build_dir, f"-DCMAKE_C_COMPILER={HOST_GCC}", f"-DOPBRIDGE_EXECUTABLE={opbridge_command}")
    build(build_dir)
    net = build_dir / "opbridge" / "net"
    assert run([str(build_dir / "golden")]).stdout.strip() == golden_line("net", net)
    stamp = build_dir / "opbridge" / "net.opbridge-command"
    converted_at = stamp.stat().st_mtime_ns

    # Nothing changed: nothing is converted, by a build or by configuring again (the stamp's check).
    output = build(build_dir)
    assert "opbridge: converting" not in output
    output = configure(project, build_dir)
    assert "opbridge: converting" not in output
    assert stamp.stat().st_mtime_ns == converted_at

    # Another command (OPTIONS): converted again.
    cmake_lists = project / "CMakeLists.txt"
    cmake_lists.write_text(
        cmake_lists.read_text().replace(
            f'GOLDEN_TEST "{golden}")', f'GOLDEN_TEST "{golden}" OPTIONS --golden-cases 20)'
        )
    )
    output = configure(project, build_dir)
    assert "opbridge: converting" in output
    assert "--golden-cases;20" in stamp.read_text()  # the default, but another command
    converted_at = stamp.stat().st_mtime_ns

    # Another model under the same name: the build converts it (other nodes, other files) and compiles it.
    shutil.copyfile(KWS, model)
    future = converted_at // 1_000_000_000 + 10
    os.utime(model, (future, future))
    output = build(build_dir)
    assert "opbridge: converting" in output
    assert any("net_node_0_conv_2d" in s for s in compile_commands(build_dir))
    assert json.loads((net / "plan.json").read_text())["arena_bytes"] > 1000  # kws, not hello_world
    assert run([str(build_dir / "golden")]).stdout.strip() == golden_line("net", net)


def test_plugin_kernels_copied_into_src_are_part_of_the_library(
    work: pathlib.Path, opbridge_command: pathlib.Path
) -> None:
    golden = work / "frontend_golden_test.c"
    project = app_project(
        work,
        f'include("{OPBRIDGE_CMAKE}")\n'
        f'opbridge_add_model(NAME frontend MODEL "{FRONTEND}" PLUGIN opbridge_signal.plugin\n'
        f'  GOLDEN_TEST "{golden}" OPTIONS --golden-cases 4 --no-entry-points)\n'
        f'add_executable(golden "{golden}")\n'
        "target_link_libraries(golden PRIVATE frontend)\n",
    )
    build_dir = work / "build"
    configure(
        project,
        build_dir,
        f"-DCMAKE_C_COMPILER={HOST_GCC}",
        f"-DOPBRIDGE_EXECUTABLE={opbridge_command}",
        "-DOPBRIDGE_WERROR=ON",
    )
    cmake_lists = (build_dir / "opbridge" / "frontend" / "CMakeLists.txt").read_text()
    assert '  "src/opbridge_signal_rfft.c"\n' in cmake_lists
    build(build_dir)
    rfft = [s for s in compile_commands(build_dir) if s.endswith("/src/opbridge_signal_rfft.c")]
    assert rfft, "the plugin's kernel was not compiled"
    result = run([str(build_dir / "golden")])
    assert result.stdout.strip() == golden_line("frontend", build_dir / "opbridge" / "frontend", cases=4)


def test_a_module_without_its_kernels_names_the_kernels_dir_variable(work: pathlib.Path) -> None:
    module = convert(work, HELLO_WORLD, "hello_world", bundle_kernels=False)
    assert not (module / "kernels").exists()
    project = app_project(
        work,
        f'add_subdirectory("{module}" hello_world)\n'
        f'add_executable(golden "{work / "hello_world_golden_test.c"}")\n'
        "target_link_libraries(golden PRIVATE hello_world)\n",
    )
    output = configure(project, work / "without", f"-DCMAKE_C_COMPILER={HOST_GCC}", check=False)
    assert "converted with --no-bundle-kernels" in output and "Set OPBRIDGE_KERNELS_DIR" in output, output

    build_dir = work / "with"
    configure(project, build_dir, f"-DCMAKE_C_COMPILER={HOST_GCC}", f"-DOPBRIDGE_KERNELS_DIR={ROOT}")
    build(build_dir)
    assert run([str(build_dir / "golden")]).stdout.strip() == golden_line("hello_world", module)


def test_cpu_flags_come_from_the_processor_only_without_a_toolchain_mcpu(work: pathlib.Path) -> None:
    module = convert(work, HELLO_WORLD, "hello_world")
    toolchain = work / "m4.cmake"
    toolchain.write_text(
        "set(CMAKE_SYSTEM_NAME Generic)\nset(CMAKE_SYSTEM_PROCESSOR cortex_m4)\n"
        "set(CMAKE_C_COMPILER arm-none-eabi-gcc)\nset(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)\n"
    )
    build_dir = work / "m4"
    output = configure(module, build_dir, f"-DCMAKE_TOOLCHAIN_FILE={toolchain}", "-DCMAKE_BUILD_TYPE=MinSizeRel")
    m4_flags = ["-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "-mthumb"]
    assert f"compiling with {' '.join(m4_flags)}" in output
    for source, arguments in compile_commands(build_dir).items():
        assert not [f for f in m4_flags if f not in arguments], source
    build(build_dir, "opbridge_kernels")
    attributes = run(["arm-none-eabi-readelf", "-A", str(build_dir / "libopbridge_kernels.a")]).stdout
    assert 'Tag_CPU_name: "7E-M"' in attributes and "Tag_FP_arch: VFPv4-D16" in attributes
    assert "Tag_MVE_arch" not in attributes

    # portable: every module and kernel source is compiled with the switch.
    output = configure(module, work / "portable", f"-DCMAKE_C_COMPILER={HOST_GCC}", "-DOPBRIDGE_KERNELS=portable")
    assert "opbridge kernels: portable" in output
    for source, arguments in compile_commands(work / "portable").items():
        assert "-DOPBRIDGE_FORCE_PORTABLE_KERNELS" in arguments, source
    output = configure(module, work / "bad", f"-DCMAKE_C_COMPILER={HOST_GCC}", "-DOPBRIDGE_KERNELS=fast", check=False)
    assert "OPBRIDGE_KERNELS is 'fast': expected auto or portable" in output


def test_a_cmakelists_opbridge_did_not_write_is_never_replaced(work: pathlib.Path) -> None:
    project = work / "project"
    project.mkdir()
    (project / "CMakeLists.txt").write_text("project(mine)\n")
    with pytest.raises(OpbridgeError, match=r"CMakeLists\.txt exists and opbridge did not write it"):
        AotConverter(ConvertArgs(model=HELLO_WORLD, output_dir=project, prefix="hello_world")).convert()
    assert (project / "CMakeLists.txt").read_text() == "project(mine)\n"
    assert not (project / "src").exists()


def _blocks(language: str) -> list[str]:
    text = PAGE.read_text()
    return [m.group(2) for m in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.M | re.S) if m.group(1) == language]


def test_the_docs_quote_the_shipped_files() -> None:
    quoted = {}
    for block in _blocks("cmake"):
        first, _, rest = block.partition("\n")
        if first.startswith("# from "):
            quoted[first.removeprefix("# from ")] = rest
    assert set(quoted) == {
        "cmake/toolchains/arm-none-eabi-cortex-m55.cmake",
        "cmake/examples/mps3_an547/CMakeLists.txt",
    }
    for path, text in quoted.items():
        assert (ROOT / path).read_text() == text, f"docs/integration.md's copy of {path} differs from the file"


def test_the_docs_makefile_builds_a_module_that_passes_its_golden_test(work: pathlib.Path) -> None:
    (makefile,) = _blocks("make")
    (work / "Makefile").write_text(makefile)
    module = convert(work, KWS, "kws")
    arguments = ["make", "-j", JOBS, f"CC={HOST_GCC}", "MODULE=kws", "APP_SOURCES=kws_golden_test.c"]
    output = run(arguments, cwd=work).stdout
    assert all(flag in output for flag in TOOLCHAIN_FLAGS), output
    assert run([str(work / "app")]).stdout.strip() == golden_line("kws", module)
