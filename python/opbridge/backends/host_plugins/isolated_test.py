# SPDX-License-Identifier: Apache-2.0
"""CustomOpSession(..., isolate=True): the plugin in a child process.

A plugin that dereferences NULL in compute (cc/ort/testdata/crashing_plugin.cc)
raises PluginKernelError naming the node and op, and this process goes on;
isolated runs equal in-process ones; the child's errors keep their types.
"""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from onnx import TensorProto, helper
from opbridge_testing.onnx_models import LEAKY_RELU_ORT, leaky_relu_model, plugin_path

from opbridge.backends.host_plugins import CustomOpSession
from opbridge.errors import InvalidInputError, PluginKernelError, PluginLoadError, UnsupportedOperatorError

CRASHING = plugin_path("cc/ort/libcrashing_plugin.so")


def chain_model(*ops: str) -> bytes:
    """x0 -> ops[0] -> ops[1] -> ... -> y (float32, any shape), domain com.test."""
    names = ["x0", *[f"t{i}" for i in range(len(ops) - 1)], "y"]
    nodes = [
        helper.make_node(op, [names[i]], [names[i + 1]], domain="com.test", name=f"{op.lower()}_{i}")
        for i, op in enumerate(ops)
    ]
    graph = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("com.test", 1)]
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


def test_a_crash_in_plugin_code_is_an_error_naming_the_node_and_this_process_goes_on() -> None:
    session = CustomOpSession(CRASHING, chain_model("Twice", "Crash"), isolate=True)
    with pytest.raises(PluginKernelError) as raised:
        session.run([np.ones(3, np.float32)])
    message = str(raised.value)
    assert 'node 1 (com.test::Crash "crash_1")' in message, message
    # AddressSanitizer (--config=asan-python) reports the fault and exits with 1.
    assert "was killed by SIGSEGV" in message or "exited with status 1" in message, message
    assert "the session is closed" in message
    with pytest.raises(RuntimeError, match="closed"):
        session.run([np.ones(3, np.float32)])
    session.close()  # idempotent after the child died
    # The same library, the good op only, still runs in a new session.
    with CustomOpSession(CRASHING, chain_model("Twice", "Twice"), isolate=True) as good:
        assert good.run([np.array([1.5, -2.0], np.float32)])[0].tolist() == [6.0, -8.0]


def test_isolated_runs_equal_in_process_runs() -> None:
    model = leaky_relu_model("float32", 0.25)
    x = np.linspace(-3, 3, 13, dtype=np.float32).reshape(13, 1)
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), model) as local:
        expected = local.run([x])
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), model, isolate=True) as isolated:
        assert isolated.input_names == local.input_names and isolated.output_names == local.output_names
        for _ in range(3):
            (y,) = isolated.run({"x0": x})
            assert y.dtype == expected[0].dtype and np.array_equal(y, expected[0])


def test_the_child_s_errors_keep_their_types() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"has no op com\.test::Missing"):
        CustomOpSession(CRASHING, chain_model("Missing"), isolate=True)
    with pytest.raises(PluginLoadError, match="does not exist"):
        CustomOpSession(os.path.abspath("missing.so"), chain_model("Twice"), isolate=True)
    with CustomOpSession(CRASHING, chain_model("Twice"), isolate=True) as session:
        with pytest.raises(InvalidInputError, match="float64"):
            session.run([np.ones(2)])
        assert session.run([np.ones(2, np.float32)])[0].tolist() == [2.0, 2.0]  # still alive


def test_a_script_without_a_main_guard_can_isolate(tmp_path: pathlib.Path) -> None:
    # The child never imports the caller's __main__ (multiprocessing's spawn
    # would, running this script's top level again in the child).
    script = tmp_path / "user_script.py"
    script.write_text(
        "import numpy as np\n"
        "from opbridge.backends.host_plugins import CustomOpSession\n"
        f"session = CustomOpSession({CRASHING!r}, {chain_model('Twice')!r}, isolate=True)\n"
        "print(session.run([np.array([4.0], np.float32)])[0].tolist())\n"
        "session.close()\n"
    )
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=environment, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[8.0]"
