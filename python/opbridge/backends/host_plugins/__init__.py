# SPDX-License-Identifier: Apache-2.0
"""Host plugins: native C/C++ kernels loaded from shared libraries into this process, written against
opbridge's C ABI or ONNX Runtime's custom-op API (docs/native_plugins.md). They run on the host only and
never reach the MCU: the C module has no loader; its kernels are compiled in (backends/c).

- `NativePlugin.load(path)`: a library written against cc/plugin/opbridge_plugin.h.
- `OrtCustomOpLibrary.load(path)`: a library for ONNX Runtime's custom-op API, hosted without ONNX Runtime.
- `NativeExecutor`: runs an opbridge Graph, nodes with a native kernel natively and the rest on the NumPy reference.
- `CustomOpSession`: runs an ONNX model of custom-domain nodes through one such library.
"""

from opbridge.backends.host_plugins.executor import NativeExecutor
from opbridge.backends.host_plugins.limits import MAX_MODEL_BYTES, MAX_RANK, MAX_TENSOR_BYTES
from opbridge.backends.host_plugins.plugins import NativeOpInfo, NativePlugin, NodeKernel, OrtCustomOpLibrary, OrtOpInfo
from opbridge.backends.host_plugins.session import CustomOpSession

__all__ = [
    "MAX_MODEL_BYTES",
    "MAX_RANK",
    "MAX_TENSOR_BYTES",
    "CustomOpSession",
    "NativeExecutor",
    "NativeOpInfo",
    "NativePlugin",
    "NodeKernel",
    "OrtCustomOpLibrary",
    "OrtOpInfo",
]
