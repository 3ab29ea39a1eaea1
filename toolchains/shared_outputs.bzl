# SPDX-License-Identifier: Apache-2.0
"""platform_shared_outputs: a code generator's outputs made once for every platform.

A generated C module (aot_model's conversion, the kernel golden tests' generator) does not depend
on the platform it is compiled for, but a test built for four platforms (cc_multiplatform_test)
reaches its generator in four configurations, and Bazel would run the generator four times. The
rule here depends on the generator through transitions to one fixed configuration, so the
generator runs once, and copies its outputs into the configuration at hand (a copy, not the files
themselves: cc_library `includes` name folders of its own configuration).

Two hops, not one: Bazel 4.2.3 names a configuration after the options that Starlark transitions
*changed* on the way to it. One transition to the host platform changes nothing from the command
line's x86_64 configuration, which would keep its own copy of the generator's outputs; going
through aarch64 first makes every path change `--platforms`, so all of them arrive at the same
configuration.

    _my_generator(name = "kws_conversion", tags = ["manual"], ...)   # outputs kws_conversion/, ...
    platform_shared_outputs(name = "kws_module", src = ":kws_conversion")  # kws_module/, ...

A generator whose outputs are only data (a test model that a conversion reads and a test opens too)
needs no copy: runfiles paths do not name configurations. platform_shared_files gives its files,
made in the shared configuration, to the configuration at hand; the generator runs once, not once
for the conversions and again for the tests.

    genrule(name = "test_models", outs = [...], tags = ["manual"], ...)
    platform_shared_files(name = "test_model_files", srcs = [":test_models"])  # a test's data

Every output of `src` (its default outputs and its output groups) is copied with the start of its
name changed from `src`'s target name to `name`'s; output groups keep their names. Tag `src`
"manual", so that `bazel build //...` does not also run it in the configuration of the command line.
"""

def _intermediate_configuration_impl(settings, attr):
    return {"//command_line_option:platforms": ["//platforms:aarch64_linux"]}

_intermediate_configuration = transition(
    implementation = _intermediate_configuration_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

def _shared_configuration_impl(settings, attr):
    # The host platform, and the option that only chooses between kernel variants (at compile time)
    # at its default: the generators' outputs do not depend on it.
    return {
        "//command_line_option:platforms": ["//platforms:x86_64_linux"],
        "//cc/kernels:portable": False,
    }

_shared_configuration = transition(
    implementation = _shared_configuration_impl,
    inputs = [],
    outputs = [
        "//command_line_option:platforms",
        "//cc/kernels:portable",
    ],
)

_ALLOWLIST = {
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}

def _forward_impl(ctx):
    # With a transition on the attribute, Bazel 4.2.3 gives a list.
    src = ctx.attr.src[0]
    groups = {group: getattr(src[OutputGroupInfo], group) for group in ctx.attr.output_groups}
    return [DefaultInfo(files = src[DefaultInfo].files), OutputGroupInfo(**groups)]

_forward = rule(
    implementation = _forward_impl,
    doc = "The second hop: `src`'s outputs, built in the shared configuration.",
    attrs = dict(
        src = attr.label(mandatory = True, cfg = _shared_configuration),
        output_groups = attr.string_list(),
        **_ALLOWLIST
    ),
)

def _renamed(ctx, source, src_name):
    relative = source.short_path[len(ctx.label.package) + 1:] if ctx.label.package else source.short_path
    if not relative.startswith(src_name):
        fail("%s: output %s of %s does not start with its target name" % (ctx.label, relative, src_name))
    return ctx.attr.name + relative[len(src_name):]

def _copy(ctx, source, src_name, copies):
    """`source` copied into this configuration under its new name (once: `copies` by source path)."""
    if source.path in copies:
        return copies[source.path]
    name = _renamed(ctx, source, src_name)
    if source.is_directory:
        output = ctx.actions.declare_directory(name)
        command = 'cp -R "$1/." "$2"'
    else:
        output = ctx.actions.declare_file(name)
        command = 'cp "$1" "$2"'
    ctx.actions.run_shell(
        inputs = [source],
        outputs = [output],
        command = command,
        arguments = [source.path, output.path],
        mnemonic = "CopySharedOutput",
        progress_message = "Copying %s for this platform" % name,
    )
    copies[source.path] = output
    return output

def _copy_impl(ctx):
    forward = ctx.attr.forward[0]
    copies = {}
    default = [_copy(ctx, f, ctx.attr.src_name, copies) for f in forward[DefaultInfo].files.to_list()]
    groups = {}
    for group in ctx.attr.output_groups:
        groups[group] = depset([_copy(ctx, f, ctx.attr.src_name, copies) for f in getattr(forward[OutputGroupInfo], group).to_list()])
    return [DefaultInfo(files = depset(default)), OutputGroupInfo(**groups)]

_copy_shared = rule(
    implementation = _copy_impl,
    doc = "The first hop, and the copies into this configuration.",
    attrs = dict(
        forward = attr.label(mandatory = True, cfg = _intermediate_configuration),
        src_name = attr.string(mandatory = True),
        output_groups = attr.string_list(),
        **_ALLOWLIST
    ),
)

def platform_shared_outputs(name, src, output_groups = [], visibility = None, **kwargs):
    """`src`'s outputs (and `output_groups`), generated once for every platform and copied here as `name`."""
    _forward(
        name = name + "_shared",
        src = src,
        output_groups = output_groups,
        visibility = ["//visibility:private"],
        **dict(kwargs, tags = kwargs.get("tags", []) + ["manual"])
    )
    _copy_shared(
        name = name,
        forward = ":" + name + "_shared",
        # The generator's target name, which its outputs' names start with (a label in this package).
        src_name = src.split(":")[-1],
        output_groups = output_groups,
        visibility = visibility,
        **kwargs
    )

def _files_impl(ctx):
    files = depset(transitive = [src[DefaultInfo].files for src in ctx.attr.srcs])
    return [DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files))]

_shared_files = rule(
    implementation = _files_impl,
    doc = "The second hop: `srcs`' files, built in the shared configuration.",
    attrs = dict(
        srcs = attr.label_list(mandatory = True, allow_files = True, cfg = _shared_configuration),
        **_ALLOWLIST
    ),
)

_files_here = rule(
    implementation = _files_impl,
    doc = "The first hop: the shared configuration's files, as data of this configuration's targets.",
    attrs = dict(
        srcs = attr.label_list(mandatory = True, cfg = _intermediate_configuration),
        **_ALLOWLIST
    ),
)

def platform_shared_files(name, srcs, visibility = None, **kwargs):
    """The files of `srcs`, generated once in the shared configuration, as `name` (files and runfiles).

    Tag the generators in `srcs` "manual", so that `bazel build //...` does not also run them in the
    configuration of the command line.
    """
    _shared_files(
        name = name + "_shared",
        srcs = srcs,
        visibility = ["//visibility:private"],
        **dict(kwargs, tags = kwargs.get("tags", []) + ["manual"])
    )
    _files_here(
        name = name,
        srcs = [":" + name + "_shared"],
        visibility = visibility,
        **kwargs
    )
