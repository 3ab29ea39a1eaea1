# SPDX-License-Identifier: Apache-2.0
"""Repository rule: PyTorch and the torch frontend's packages, for the few tests that need them.

`torch_packages(name, interpreter, python_version, lock_file, wheel_dirs)`
installs `lock_file` (third_party/python/torch/requirements_lock.txt) with
`pip install --require-hashes --no-deps --only-binary=:all: --target` into
`site-packages/` of the generated repository. The lock holds only what the
main venv (@python_venv) lacks, so the two never provide the same module.
Packages with a local version label (torch==2.13.0+cpu: PyTorch's CPU build,
which is not on PyPI) must lie in one of `wheel_dirs`; the rest come from the
package index. The generated repository provides:

  :torch    py_library with `imports = ["site-packages"]`; depend on it from
            the tests that need torch, torchao or onnxscript. Nothing else
            gets its ~21,000 files (890 MB) in its runfiles.

Like @python_venv (third_party/python/python_venv.bzl), the result is
byte-identical across machines, checkouts and output bases: pip ignores the
machine's pip configuration, bytecode is checked by source hash and records
repository-relative source paths, and launcher scripts (absolute #! lines)
are removed.
"""

_PIP_WHEEL_DIRS = [
    # Debian's python3-pip-whl, used by python3.11-venv's ensurepip.
    "/usr/share/python-wheels",
]

_SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date zip files allow.

_SITE_PACKAGES = "site-packages"

# Removed after installation (paths below site-packages, `find -path` patterns):
_REMOVED = [
    # torchao's CUDA kernels: they link libtorch_cuda.so and libc10_cuda.so,
    # which the CPU build of torch lacks, so `import torchao` logged "Failed to
    # load ..." for each. The CPU ops (torch.ops.torchao.*) and PT2E do not
    # need them (checked by //tests/torch:torch_packages_test).
    "torchao/_C_mxfp8.*.so",
    "torchao/_C_cutlass_90a.*.so",
    # torchao's own test suite, shipped as a top-level package named `test`.
    # site-packages is on PYTHONPATH, before the standard library, so it would
    # hide the standard library's `test` package.
    "test",
]

# Not compiled (compileall -x, regexes searched in each file's path): files
# written for later Pythons, which only import them there.
_NOT_COMPILED = [
    # PEP 695 syntax; torch.testing imports it on Python >= 3.12 only.
    "/torch/testing/_internal/py312_intrinsics[.]py$",
]

_HASH_MISMATCH_FIX = """a wheel differs from the one the lock names: restore the locked wheel, or \
regenerate the lock with third_party/python/torch/update_lock.sh if the new one is intended \
(third_party/python/torch/README.md)"""

_LOCAL_WHEEL_FIX = """%s %s is a local build, not on the package index: put its wheel for Python 3.11 \
on x86_64 Linux (the file whose sha256 the lock names) into one of %s, or point torch_packages' \
wheel_dirs in WORKSPACE at the folder that holds it (third_party/python/torch/README.md)"""

_COMPILE_FIX = """if a file above is written for a later Python (and imported only there), add it to \
_NOT_COMPILED in third_party/python/torch/torch_packages.bzl; otherwise pin another version in \
third_party/python/torch/requirements.in"""

def _fail(message, fix):
    fail("\nopbridge python error: %s\n  fix: %s\n" % (message, fix))

def _run(repository_ctx, arguments, what, environment = {}, fix = None):
    result = repository_ctx.execute(arguments, environment = environment, timeout = 3600, quiet = True)
    if result.return_code != 0:
        output = result.stdout[-4000:] + result.stderr[-4000:]
        if not fix:
            fix = "check that the package index is reachable and that the lock file is current (third_party/python/torch/README.md)"
        if "DO NOT MATCH THE HASHES" in output:
            fix = _HASH_MISMATCH_FIX
        _fail("%s failed (exit %d):\n%s" % (what, result.return_code, output), fix)
    return result.stdout

def _find_pip_wheel(repository_ctx, interpreter):
    candidates = []
    bundled = _run(
        repository_ctx,
        [interpreter, "-c", "import ensurepip, os; print(os.path.join(os.path.dirname(ensurepip.__file__), '_bundled'))"],
        "locating the interpreter's bundled pip",
    ).strip()
    for directory in _PIP_WHEEL_DIRS + [bundled]:
        path = repository_ctx.path(directory)
        if path.exists:
            candidates += sorted([str(entry) for entry in path.readdir() if entry.basename.startswith("pip-") and entry.basename.endswith(".whl")])
    if not candidates:
        _fail(
            "no pip wheel found in %s" % (_PIP_WHEEL_DIRS + [bundled]),
            "install the pinned python3.11-venv package (./bazelw does)",
        )
    return candidates[0]

def _locked_requirements(repository_ctx, lock_file):
    """(name, version) of each `name==version` line of a lock file."""
    requirements = []
    for line in repository_ctx.read(lock_file).splitlines():
        if not line or line[0] in " \t#-":
            continue
        spec = line.split(";")[0].replace("\\", "").strip()
        if "==" not in spec:
            _fail(
                "%s: not an exact pin: %r" % (lock_file, line),
                "regenerate the lock with third_party/python/torch/update_lock.sh",
            )
        name, version = spec.split("==", 1)
        requirements.append((name.strip(), version.strip()))
    return requirements

def _check_local_wheels(repository_ctx, requirements, wheel_dirs):
    """Fails clearly when a locked local build (a version with `+`) is in none of `wheel_dirs`."""
    for name, version in requirements:
        if "+" not in version:
            continue
        prefix = "%s-%s-" % (name.replace("-", "_").replace(".", "_"), version)
        found = []
        seen = []
        for directory in wheel_dirs:
            path = repository_ctx.path(directory)
            if not path.exists:
                seen.append("%s does not exist" % directory)
                continue
            wheels = sorted([entry.basename for entry in path.readdir() if entry.basename.endswith(".whl")])
            seen.append("%s holds %s" % (directory, ", ".join(wheels) if wheels else "no wheels"))
            found += [wheel for wheel in wheels if wheel.lower().startswith(prefix.lower())]
        if not found:
            _fail(
                "%s-%s wheel not found in %s: %s" % (name, version, ", ".join(wheel_dirs), "; ".join(seen)),
                _LOCAL_WHEEL_FIX % (name, version, wheel_dirs),
            )

def _torch_packages_impl(repository_ctx):
    interpreter = repository_ctx.attr.interpreter
    if not repository_ctx.path(interpreter).exists:
        _fail("interpreter %s not found" % interpreter, "run ./bazelw, which installs the pinned python3.11 package")
    found_version = _run(
        repository_ctx,
        [interpreter, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        "asking %s for its version" % interpreter,
    ).strip()
    if found_version != repository_ctx.attr.python_version:
        _fail(
            "interpreter %s is Python %s, expected %s" % (interpreter, found_version, repository_ctx.attr.python_version),
            "run ./bazelw, which installs the pinned python%s package" % repository_ctx.attr.python_version,
        )

    lock_file = repository_ctx.path(repository_ctx.attr.lock_file)
    wheel_dirs = repository_ctx.attr.wheel_dirs
    _check_local_wheels(repository_ctx, _locked_requirements(repository_ctx, lock_file), wheel_dirs)

    site_packages = str(repository_ctx.path(_SITE_PACKAGES))
    scratch = str(repository_ctx.path(".pip-tmp"))
    repository_ctx.execute(["mkdir", "-p", scratch])
    environment = {
        # Not this machine's pip.conf (extra indexes, a constraints file).
        "PIP_CONFIG_FILE": "/dev/null",
        # Only `wheel_dirs`, whatever PIP_FIND_LINKS the user's shell exports.
        "PIP_FIND_LINKS": " ".join(wheel_dirs),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
        "PIP_ROOT_USER_ACTION": "ignore",
        "PYTHONNOUSERSITE": "1",
        # pip unpacks beside the target: its final moves are then renames, and
        # a small /tmp cannot fail the install of torch's ~1 GB.
        "TMPDIR": scratch,
        "SOURCE_DATE_EPOCH": _SOURCE_DATE_EPOCH,
        "PYTHONHASHSEED": "0",
    }
    pip_wheel = _find_pip_wheel(repository_ctx, interpreter)
    find_links = []
    for directory in wheel_dirs:
        find_links += ["--find-links", directory]
    repository_ctx.report_progress("installing %s (torch: ~1 GB unpacked)" % repository_ctx.attr.lock_file)
    _run(
        repository_ctx,
        [
            interpreter,
            pip_wheel + "/pip",
            "install",
            "--quiet",
            "--require-hashes",
            "--no-deps",
            "--only-binary=:all:",
            "--no-warn-script-location",
            "--no-compile",
            "--target",
            site_packages,
        ] + find_links + ["-r", str(lock_file)],
        "pip install --require-hashes --target %s -r %s" % (_SITE_PACKAGES, repository_ctx.attr.lock_file),
        environment,
    )
    repository_ctx.delete(scratch)

    # Launchers (torchrun, isympy, ...) start with an absolute #! line naming
    # the installing interpreter; run a package's tool as `python3 -m TOOL`.
    scripts = repository_ctx.path(_SITE_PACKAGES + "/bin")
    if scripts.exists:
        for entry in scripts.readdir():
            if repository_ctx.execute(["head", "-c", "2", str(entry)]).stdout == "#!":
                repository_ctx.delete(entry)
        if not scripts.readdir():
            repository_ctx.delete(scripts)

    # Bazel 4's runfiles trees cannot hold paths with spaces: build-runfiles
    # fails, and with it every test that depends on :torch.
    doomed = []
    for find_arguments in [["-name", "* *"]] + [["-path", _SITE_PACKAGES + "/" + pattern, "-prune"] for pattern in _REMOVED]:
        found = repository_ctx.execute(["find", _SITE_PACKAGES] + find_arguments)
        if found.return_code != 0:
            _fail("cannot list the installed files: " + found.stderr, "check the disk and rerun")
        doomed += found.stdout.splitlines()
    for path in sorted(doomed, reverse = True):
        if path and repository_ctx.path(path).exists:
            repository_ctx.delete(path)

    # RECORD files list what the steps above removed; drop those lines so
    # that each RECORD describes the files that are really there.
    records = repository_ctx.execute(["find", _SITE_PACKAGES, "-mindepth", "2", "-maxdepth", "2", "-path", "*.dist-info/RECORD"])
    for record in sorted(records.stdout.splitlines()):
        lines = repository_ctx.read(record).splitlines()
        kept = [line for line in lines if repository_ctx.path(_SITE_PACKAGES + "/" + line.rsplit(",", 2)[0]).exists]
        if len(kept) != len(lines):
            repository_ctx.file(record, "".join([line + "\n" for line in kept]), executable = False)

    # Bytecode, made here rather than by pip: code objects record their
    # source path, and this repository's absolute path differs between
    # checkouts (output bases), which would change every input of the tests
    # that use it. Record "@<repository>//site-packages/<file>" instead, and
    # check by source hash, not timestamp. (Not `python -I`: that would
    # ignore PYTHONHASHSEED, and set constants would be marshalled in a
    # random order.)
    repository_ctx.report_progress("compiling bytecode")
    _run(
        repository_ctx,
        [
            interpreter,
            "-m",
            "compileall",
            "-q",
            "-j",
            "0",
            "--invalidation-mode",
            "checked-hash",
        ] + (["-x", "|".join(_NOT_COMPILED)] if _NOT_COMPILED else []) + [
            "-s",
            site_packages,
            "-p",
            "@%s//%s" % (repository_ctx.name, _SITE_PACKAGES),
            site_packages,
        ],
        "compiling the bytecode of %s" % _SITE_PACKAGES,
        environment,
        fix = _COMPILE_FIX,
    )

    repository_ctx.file("BUILD.bazel", """\
# Generated by //third_party/python/torch:torch_packages.bzl. Do not edit.
load("@rules_python//python:defs.bzl", "py_library")

package(default_visibility = ["//visibility:public"])

# torch, torchao, onnxscript and their dependencies that the main
# venv (@python_venv) lacks. Only the tests that list this get its files.
py_library(
    name = "torch",
    srcs = glob(["{site}/**/*.py"]),
    # Not torch's C++ headers (9,400 files, for building C++ extensions, which no test does): a
    # sandbox links every runfile of every torch test and conversion.
    data = glob(
        ["{site}/**"],
        exclude = [
            "{site}/**/*.py",
            "{site}/torch/include/**",
        ],
    ),
    imports = ["{site}"],
)
""".format(site = _SITE_PACKAGES))

torch_packages = repository_rule(
    implementation = _torch_packages_impl,
    doc = "PyTorch, torchao and onnxscript (with what the main venv lacks), installed from a hashed lock into site-packages/.",
    attrs = {
        "interpreter": attr.string(mandatory = True, doc = "Absolute path of the pinned interpreter (the one @python_venv is made from)."),
        "python_version": attr.string(mandatory = True, doc = "Required major.minor version."),
        "lock_file": attr.label(mandatory = True, allow_single_file = True, doc = "requirements with --hash lines."),
        "wheel_dirs": attr.string_list(
            default = ["/opt/wheels"],
            doc = "Folders holding the locked wheels that are not on the package index (torch's CPU build).",
        ),
    },
)
