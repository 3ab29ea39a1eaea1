# SPDX-License-Identifier: Apache-2.0
"""`opbridge kernel-adapters`: a registered operator's PortableKernel and the host sources made from it.

The generators live beside this module: portable_adapters.py (opbridge's
native host, ONNX Runtime) and openvino_extension.py (OpenVINO).
"""

import difflib
import pathlib
from typing import TYPE_CHECKING

from opbridge.aot.openvino_extension import openvino_extension as openvino_source
from opbridge.aot.portable_adapters import opbridge_plugin_adapter, ort_adapter
from opbridge.aot.portable_kernel import PortableKernel, PortableKernelError

if TYPE_CHECKING:
    from opbridge.registry_context import RegistryContext


def portable_kernel_of(context: "RegistryContext", key: str) -> PortableKernel:
    """The PortableKernel of the operator class registered under `key`."""
    from opbridge.aot.portable_kernel import PortableKernelOperator

    if key not in context.aot_operator_classes:
        keys = sorted(context.aot_operator_classes)
        near = difflib.get_close_matches(key, keys, n=1)
        raise PortableKernelError(
            f"no operator class is registered under {key!r}" + (f"; did you mean {near[0]!r}?" if near else ""),
            hint="pass the plugin that registers it (--plugin MODULE); `opbridge plugins list` shows the keys",
        )
    operator_class = context.aot_operator_classes.get(key)
    if not (isinstance(operator_class, type) and issubclass(operator_class, PortableKernelOperator)):
        raise PortableKernelError(
            f"the operator class of {key!r} ({operator_class.__module__}.{operator_class.__qualname__}) "
            "is not a PortableKernelOperator",
            hint="host adapters exist only for kernels written against opbridge_kernel_api.h (docs/custom_ops.md)",
        )
    return operator_class.KERNEL


def write_adapters(
    context: "RegistryContext",
    key: str,
    opbridge_abi: pathlib.Path | None,
    ort_abi: pathlib.Path | None,
    openvino_extension: pathlib.Path | None = None,
) -> list[pathlib.Path]:
    """Writes the requested adapters of the operator `key`'s kernel; returns their paths."""
    kernel = portable_kernel_of(context, key)
    makers = ((opbridge_abi, opbridge_plugin_adapter), (ort_abi, ort_adapter), (openvino_extension, openvino_source))
    texts = [(path, make(kernel)) for path, make in makers if path is not None]
    written = []
    for path, text in texts:  # all generated before any is written: nothing half-written on an error
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
