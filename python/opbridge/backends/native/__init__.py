"""Native plugins on the host: opbridge's C ABI and ONNX Runtime custom-op libraries (docs/native_plugins.md).

- `NativePlugin.load(path)`: a library written against cc/plugin/opbridge_plugin.h.
- `OrtCustomOpLibrary.load(path)`: a library for ONNX Runtime's custom-op API, hosted without ONNX Runtime.
- `NativeExecutor`: runs an opbridge Graph, nodes with a native kernel natively and the rest on the NumPy reference.
- `CustomOpSession`: runs an ONNX model of custom-domain nodes through one such library.
"""

from opbridge.backends.native.executor import NativeExecutor
from opbridge.backends.native.limits import MAX_MODEL_BYTES, MAX_RANK, MAX_TENSOR_BYTES
from opbridge.backends.native.plugins import NativeOpInfo, NativePlugin, NodeKernel, OrtCustomOpLibrary, OrtOpInfo
from opbridge.backends.native.session import CustomOpSession

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
