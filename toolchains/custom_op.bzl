# SPDX-License-Identifier: Apache-2.0
"""custom_op: every Bazel target of one custom-operator plugin package, from one call.

    custom_op(
        name = "soft_clip",
        key = "SOFT_CLIP",
        plugin = "soft_clip.plugin",
        model_format = "onnx",
    )

reads the package layout `opbridge new-op` writes (docs/custom_ops.md):

    <name>/*.py                      the plugin package (plugin module: `plugin`)
    <name>/kernel/*.c, *.h           its portable C kernel (cc/kernels/opbridge_kernel_api.h)
    <name>/model.py                  make_model(): the one-operator test model; run, writes it to argv[1]
    op_test.py                       the kernel against the reference (pytest, hypothesis)

and makes:

    :<name>_plugin                   py_library of the plugin
    :<name>_kernel                   cc_library of the kernel (every platform)
    :<name>_opbridge                 the opbridge command line with the plugin
    :<name>_model                    the test model (.tflite or .onnx)
    :<name>_module                   aot_model of it, with :<name>_module_golden_test on
                                     x86_64, aarch64, Cortex-M55 and Cortex-M4
    :lib<name>_plugin.so             the kernel in opbridge's native host (generated adapter)
    :lib<name>_ort.so                the kernel as an ONNX Runtime custom-op library (ONNX ops, or
                                     ort_library = True)
    :lib<name>_openvino.so           the op and kernel as an OpenVINO extension, with the ONNX
                                     frontend's conversion (ONNX ops, or openvino_extension = True;
                                     x86_64 Linux, against the pinned openvino wheel)
    :<name>_op_test                  op_test.py, given the libraries' paths in the environment:
                                     OPBRIDGE_OP_PLUGIN, OPBRIDGE_OP_ORT_LIBRARY,
                                     OPBRIDGE_OP_OPENVINO_EXTENSION, OPBRIDGE_OP_MODEL,
                                     OPBRIDGE_OP_GOLDEN_CASES
    :<name>_files                    the package's files
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")
load("@rules_python//python:defs.bzl", "py_library")
load("//toolchains:aot_model.bzl", "aot_model")
load("//toolchains:defs.bzl", "HOST_ONLY", "LINUX_ONLY")
load("//toolchains:python.bzl", "host_py_binary", "py_pytest_test")
load("//toolchains:shared_outputs.bzl", "platform_shared_files")

_OPBRIDGE = "//python/opbridge"

def custom_op(
        name,
        key,
        plugin,
        model_format,
        srcs = None,
        kernel_srcs = None,
        kernel_hdrs = None,
        model_builder = None,
        test = "op_test.py",
        golden_cases = 20,
        ort_library = None,
        openvino_extension = None,
        test_deps = [],
        tags = [],
        visibility = None):
    """The targets of one custom-operator package (see the module docstring).

    ort_library: build lib<name>_ort.so (default: for ONNX operators only; a LiteRT operator's
    kernel can be one too, for an ONNX model that uses the same op).
    openvino_extension: build lib<name>_openvino.so (default: for ONNX operators only, as OpenVINO
    reads the op from ONNX models).
    """
    if model_format not in ("litert", "onnx"):
        fail("custom_op(model_format = ...) is \"litert\" or \"onnx\", got %r" % model_format)
    model_builder = model_builder or name + "/model.py"
    srcs = srcs if srcs != None else native.glob([name + "/*.py"], exclude = [name + "/*_test.py", model_builder])
    kernel_srcs = kernel_srcs if kernel_srcs != None else native.glob([name + "/kernel/*.c"])
    kernel_hdrs = kernel_hdrs if kernel_hdrs != None else native.glob([name + "/kernel/*.h"])
    if not kernel_hdrs:
        fail("custom_op %s: no kernel header (expected %s/kernel/*.h)" % (name, name))
    kernel_dirs = {h.rpartition("/")[0]: True for h in kernel_hdrs}.keys()
    extension = ".tflite" if model_format == "litert" else ".onnx"

    py_library(
        name = name + "_plugin",
        srcs = srcs,
        # The kernel's files travel with the plugin: a self-contained module copies them.
        data = kernel_srcs + kernel_hdrs,
        imports = ["."],
        target_compatible_with = HOST_ONLY,
        tags = tags,
        visibility = visibility,
        deps = [_OPBRIDGE],
    )

    # The kernel, C99 on every platform; its header by its file name (as emitted modules include it).
    cc_library(
        name = name + "_kernel",
        srcs = kernel_srcs,
        hdrs = kernel_hdrs,
        includes = list(kernel_dirs),
        copts = ["-std=c99"],
        tags = tags,
        visibility = visibility,
        deps = [
            "//cc/kernels:fixed_point",
            "//cc/kernels:kernel_api",
        ],
    )

    # No empty __init__.py files in runfiles: a package folder named like the plugin package
    # (squared_relu/squared_relu/) would otherwise shadow it.
    host_py_binary(
        name = name + "_opbridge",
        legacy_create_init = False,
        srcs = ["//python/opbridge:cli.py"],
        main = "//python/opbridge:cli.py",
        data = ["//cc/kernels:sources"],
        tags = tags,
        visibility = visibility,
        deps = [":" + name + "_plugin", _OPBRIDGE],
    )

    py_library(
        name = name + "_model_builder",
        srcs = [model_builder],
        imports = ["."],
        target_compatible_with = HOST_ONLY,
        tags = tags,
        visibility = visibility,
        deps = [":" + name + "_plugin", _OPBRIDGE, "//python/opbridge_testing"],
    )
    host_py_binary(
        name = name + "_make_model",
        legacy_create_init = False,
        srcs = [model_builder],
        main = model_builder,
        tags = tags,
        deps = [":" + name + "_model_builder"],
    )
    native.genrule(
        name = name + "_model_file",
        outs = [name + extension],
        cmd = "$(location :%s_make_model) $@" % name,
        # Made in the shared configuration only: the conversion reads it there, the tests get it
        # from there (:<name>_model).
        tags = tags + ["manual"],
        tools = [":" + name + "_make_model"],
        visibility = visibility,
    )
    platform_shared_files(
        name = name + "_model",
        srcs = [":" + name + "_model_file"],
        tags = tags,
        visibility = visibility,
    )

    # The host adapters, generated from the plugin's PortableKernel (never edited by hand).
    adapter = name + "_opbridge_adapter.cc"
    ort_adapter = name + "_ort_adapter.cc"
    openvino_adapter = name + "_openvino_extension.cpp"
    native.genrule(
        name = name + "_adapters",
        outs = [adapter, ort_adapter, openvino_adapter],
        cmd = ("$(location :{n}_opbridge) kernel-adapters {key} --no-entry-points --plugin {plugin} " +
               "--opbridge-abi $(location {a}) --ort-abi $(location {o}) " +
               "--openvino-extension $(location {v}) > /dev/null").format(
            n = name,
            key = key,
            plugin = plugin,
            a = adapter,
            o = ort_adapter,
            v = openvino_adapter,
        ),
        tags = tags,
        tools = [":" + name + "_opbridge"],
        visibility = visibility,
    )
    cc_binary(
        name = "lib%s_plugin.so" % name,
        srcs = [adapter],
        copts = ["-fvisibility=hidden"],
        linkshared = True,
        tags = tags,
        target_compatible_with = LINUX_ONLY,
        visibility = visibility,
        deps = [":" + name + "_kernel", "//cc/plugin:plugin_abi"],
    )
    libraries = [":lib%s_plugin.so" % name]
    env = {
        "OPBRIDGE_OP_PLUGIN": "$(rootpath :lib%s_plugin.so)" % name,
        "OPBRIDGE_OP_MODEL": "$(rootpath :%s_model)" % name,
        "OPBRIDGE_OP_GOLDEN_CASES": str(golden_cases),
    }
    build_ort_library = model_format == "onnx" if ort_library == None else ort_library
    if build_ort_library:
        cc_binary(
            name = "lib%s_ort.so" % name,
            srcs = [ort_adapter],
            copts = ["-fvisibility=hidden"],
            linkshared = True,
            tags = tags,
            target_compatible_with = LINUX_ONLY,
            visibility = visibility,
            deps = [":" + name + "_kernel", "@onnxruntime_headers//:c_api"],
        )
        libraries.append(":lib%s_ort.so" % name)
        env["OPBRIDGE_OP_ORT_LIBRARY"] = "$(rootpath :lib%s_ort.so)" % name
    build_openvino_extension = model_format == "onnx" if openvino_extension == None else openvino_extension
    if build_openvino_extension:
        cc_binary(
            name = "lib%s_openvino.so" % name,
            srcs = [openvino_adapter],
            copts = ["-std=c++17", "-fvisibility=hidden"],
            linkshared = True,
            tags = tags,
            target_compatible_with = HOST_ONLY,
            visibility = visibility,
            deps = [":" + name + "_kernel", "@python_venv//:openvino_runtime"],
        )
        libraries += [":lib%s_openvino.so" % name, "@python_venv//:openvino"]
        env["OPBRIDGE_OP_OPENVINO_EXTENSION"] = "$(rootpath :lib%s_openvino.so)" % name

    aot_model(
        name = name + "_module",
        converter = ":" + name + "_opbridge",
        golden_cases = golden_cases,
        kernel_deps = [":" + name + "_kernel"],
        model = ":" + name + "_model_file",
        plugins = [plugin],
        prefix = name,
        tags = tags,
        visibility = visibility,
    )

    # The package's own files, e.g. for a test that it is still what `opbridge new-op` writes.
    native.filegroup(
        name = name + "_files",
        srcs = native.glob(["**"], exclude = ["**/__pycache__/**"]),
        tags = tags,
        visibility = ["//visibility:public"],
    )

    py_pytest_test(
        name = name + "_op_test",
        legacy_create_init = False,
        size = "medium",
        srcs = [test],
        # cc/kernels: the op test converts drawn models into self-contained modules (kernels bundled).
        data = libraries + [":" + name + "_model", "//cc/kernels:sources"],
        env = env,
        tags = tags,
        deps = [":" + name + "_plugin", ":" + name + "_model_builder", _OPBRIDGE, "//cc/python:opbridge_plugins"] + test_deps,
    )
