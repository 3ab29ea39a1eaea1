# SPDX-License-Identifier: Apache-2.0
"""Run a Python code generator and compile what it writes.

`cc_codegen_library(name, generator, outs, ...)` runs the py_binary
`generator` (built for the machine running the build, so it works the same
under --platforms=//platforms:cortex_m55) with `--output-dir DIR` plus
`args`, and compiles its `.c`/`.h` outputs into a cc_library `name` for
whatever platform is being built. milestone 2's `aot_model` builds on it.
"""

load("@rules_cc//cc:defs.bzl", "cc_library")

_HEADER_EXTENSIONS = ["h", "hpp"]

def _cc_codegen_impl(ctx):
    for out in ctx.attr.outs:
        if "/" in out:
            fail("cc_codegen_library(%s): outs must be plain file names (the generator writes one folder), got '%s'" % (ctx.label.name, out))
    outputs = [ctx.actions.declare_file(out) for out in ctx.attr.outs]
    output_dir = outputs[0].dirname
    arguments = ctx.actions.args()
    arguments.add("--output-dir", output_dir)
    arguments.add_all([ctx.expand_location(arg, ctx.attr.data) for arg in ctx.attr.args])
    ctx.actions.run(
        executable = ctx.executable.generator,
        arguments = [arguments],
        inputs = ctx.files.data,
        outputs = outputs,
        mnemonic = "OpbridgeCodegen",
        progress_message = "Generating C sources for %s" % ctx.label,
        use_default_shell_env = True,
    )
    headers = [output for output in outputs if output.extension in _HEADER_EXTENSIONS]
    sources = [output for output in outputs if output.extension not in _HEADER_EXTENSIONS]
    return [
        DefaultInfo(files = depset(outputs)),
        OutputGroupInfo(headers = depset(headers), sources = depset(sources)),
    ]

cc_codegen = rule(
    implementation = _cc_codegen_impl,
    doc = "Runs `generator --output-dir DIR ARGS...`, which must write exactly `outs` into DIR.",
    attrs = {
        "generator": attr.label(mandatory = True, executable = True, cfg = "exec"),
        "outs": attr.string_list(mandatory = True, allow_empty = False),
        "args": attr.string_list(doc = "Extra arguments; $(location) of `data` is expanded."),
        "data": attr.label_list(allow_files = True, doc = "Files the generator reads."),
    },
)

def cc_codegen_library(name, generator, outs, args = [], data = [], deps = [], **kwargs):
    """A cc_library compiled from the sources `generator` writes (see cc_codegen)."""
    tags = kwargs.get("tags", [])
    cc_codegen(
        name = name + "_codegen",
        generator = generator,
        outs = outs,
        args = args,
        data = data,
        tags = tags,
        visibility = ["//visibility:private"],
    )
    native.filegroup(
        name = name + "_codegen_headers",
        srcs = [":" + name + "_codegen"],
        output_group = "headers",
        tags = tags,
        visibility = ["//visibility:private"],
    )
    native.filegroup(
        name = name + "_codegen_sources",
        srcs = [":" + name + "_codegen"],
        output_group = "sources",
        tags = tags,
        visibility = ["//visibility:private"],
    )
    cc_library(
        name = name,
        srcs = [":" + name + "_codegen_sources"],
        hdrs = [":" + name + "_codegen_headers"],
        deps = deps,
        **kwargs
    )
