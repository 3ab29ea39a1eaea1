# SPDX-License-Identifier: Apache-2.0
"""Repository rule: the pinned Python interpreter and a venv from a hashed lock.

`python_venv(name, interpreter, python_version, lock_file)` checks that
`interpreter` is exactly Python `python_version`, makes a venv from it and
installs `lock_file` with `pip --require-hashes` from the package index.
The generated repository provides:

  :interpreter      the venv's python3 (for the py_runtime toolchain)
  :files            everything in the venv (the runtime's files)
  :python_headers   Python.h and friends, for extension modules
  :pybind11         pybind11's headers (from the locked pybind11 package)

The venv is made byte-identical across machines and checkouts, so that
actions using it hit a shared cache: pip ignores the machine's pip
configuration (PIP_CONFIG_FILE=/dev/null), bytecode is checked by source
hash (not timestamp) and records repository-relative source paths, and files that record absolute paths (activate scripts,
console-script launchers, pyvenv.cfg's `command =` line) are removed.
Run a package's tool as `venv/bin/python3 -m TOOL`.
"""

_PIP_WHEEL_DIRS = [
    # Debian's python3-pip-whl, used by python3.11-venv's ensurepip.
    "/usr/share/python-wheels",
]

_SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date zip files allow.

def _fail(message, fix):
    fail("\nopbridge python error: %s\n  fix: %s\n" % (message, fix))

def _run(repository_ctx, arguments, what, environment = {}):
    result = repository_ctx.execute(arguments, environment = environment, timeout = 1800, quiet = True)
    if result.return_code != 0:
        _fail(
            "%s failed (exit %d):\n%s%s" % (what, result.return_code, result.stdout[-4000:], result.stderr[-4000:]),
            "check that the package index is reachable and that the lock file is current (third_party/python/README.md)",
        )
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
            candidates += [entry for entry in path.readdir() if entry.basename.startswith("pip-") and entry.basename.endswith(".whl")]
    if not candidates:
        _fail(
            "no pip wheel found in %s" % (_PIP_WHEEL_DIRS + [bundled]),
            "install the pinned python3.11-venv package (./bazelw does)",
        )
    return str(candidates[0])

def _python_venv_impl(repository_ctx):
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
    environment = {
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
        "SOURCE_DATE_EPOCH": _SOURCE_DATE_EPOCH,
        "PYTHONHASHSEED": "0",
    }
    _run(repository_ctx, [interpreter, "-m", "venv", "--without-pip", "venv"], "creating the venv", environment)
    venv_python = str(repository_ctx.path("venv/bin/python3"))
    pip_wheel = _find_pip_wheel(repository_ctx, interpreter)
    repository_ctx.report_progress("installing %s" % repository_ctx.attr.lock_file)
    _run(
        repository_ctx,
        [
            venv_python,
            pip_wheel + "/pip",
            "install",
            "--quiet",
            "--require-hashes",
            "--no-deps",
            "--only-binary=:all:",
            "--no-warn-script-location",
            "--no-compile",
            "-r",
            str(lock_file),
        ],
        "pip install --require-hashes -r %s" % repository_ctx.attr.lock_file,
        environment,
    )

    # Bytecode, made here rather than by pip: code objects record their
    # source path, and this repository's absolute path differs between
    # checkouts (output bases), which would change every Python test's
    # inputs. Record a path relative to the repository instead.
    site_packages = "venv/lib/python%s/site-packages" % repository_ctx.attr.python_version
    _run(
        repository_ctx,
        [
            venv_python,
            "-m",
            "compileall",
            "-q",
            "-j",
            "0",
            "--invalidation-mode",
            "checked-hash",
            "-s",
            str(repository_ctx.path(site_packages)),
            "-p",
            "@python_venv//" + site_packages,
            site_packages,
        ],
        "compiling the venv's bytecode",
        environment,
    )

    # Drop what records this venv's absolute location: activate scripts and
    # console-script launchers (their #! line names this venv). Native
    # programs that packages ship (ruff) stay; `python -m` finds them.
    interpreters = ["python", "python3", "python" + repository_ctx.attr.python_version]
    for entry in repository_ctx.path("venv/bin").readdir():
        if entry.basename in interpreters:
            continue
        first_bytes = repository_ctx.execute(["head", "-c", "2", str(entry)]).stdout
        if entry.basename.lower().startswith("activate") or first_bytes == "#!":
            repository_ctx.delete(entry)
    # RECORD files list the deleted launchers with hashes of their
    # path-bearing contents; drop those lines too.
    for entry in repository_ctx.path(site_packages).readdir():
        record = entry.get_child("RECORD")
        if entry.basename.endswith(".dist-info") and record.exists:
            lines = repository_ctx.read(record).splitlines()
            kept = [line for line in lines if not line.startswith("../../../bin/")]
            if len(kept) != len(lines):
                repository_ctx.file(record, "".join([line + "\n" for line in kept]), executable = False)
    # Bazel 4's runfiles trees cannot hold paths with spaces: build-runfiles
    # fails, and with it `bazel run` of every Python binary. Only packages'
    # own test data has such names (scipy's io tests); drop those files.
    spaced = repository_ctx.execute(["find", site_packages, "-name", "* *"])
    if spaced.return_code != 0:
        _fail("cannot list the venv's files: " + spaced.stderr, "check the disk and rerun")
    for path in sorted(spaced.stdout.splitlines(), reverse = True):
        if path and repository_ctx.path(path).exists:
            repository_ctx.delete(path)
    pyvenv_cfg = repository_ctx.read("venv/pyvenv.cfg")
    repository_ctx.file(
        "venv/pyvenv.cfg",
        "".join([line + "\n" for line in pyvenv_cfg.splitlines() if not line.startswith("command")]),
    )

    python_include = _run(
        repository_ctx,
        [interpreter, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
        "asking %s for its include directory" % interpreter,
    ).strip()
    if not repository_ctx.path(python_include + "/Python.h").exists:
        _fail("%s/Python.h not found" % python_include, "run ./bazelw, which installs the pinned python3.11-dev package")
    repository_ctx.symlink(python_include, "python_include")

    repository_ctx.template(
        "BUILD.bazel",
        Label("//third_party/python:python_venv.BUILD.tpl"),
        {"%{site_packages}": site_packages},
    )

python_venv = repository_rule(
    implementation = _python_venv_impl,
    doc = "The pinned Python interpreter and a venv installed from a hashed lock file.",
    attrs = {
        "interpreter": attr.string(mandatory = True, doc = "Absolute path of the pinned interpreter."),
        "python_version": attr.string(mandatory = True, doc = "Required major.minor version."),
        "lock_file": attr.label(mandatory = True, allow_single_file = True, doc = "requirements with --hash lines."),
    },
)
