# SPDX-License-Identifier: Apache-2.0
"""ONNX Runtime as the peer, in a process of its own (tests/native_plugins/ort_extensions_test.py).

A library exporting GNU-unique symbols cannot be hosted by opbridge in a
process where ONNX Runtime has loaded it too (docs/native_plugins.md), so
onnxruntime runs here: requests (model bytes, input feed) arrive pickled on
stdin, replies ("outputs", list) or ("error", message) leave on stdout.
Usage: ort_oracle.py LIBRARY
"""

import pickle
import sys
from typing import Any

import onnxruntime as ort


def main() -> None:
    library = sys.argv[1]
    sessions: dict[bytes, ort.InferenceSession] = {}
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            model, feed = pickle.load(requests)
        except EOFError:
            return
        reply: tuple[str, Any]
        try:
            if model not in sessions:
                options = ort.SessionOptions()
                options.register_custom_ops_library(library)
                sessions[model] = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            reply = ("outputs", sessions[model].run(None, feed))
        except Exception as error:
            reply = ("error", f"{type(error).__name__}: {error}")
        pickle.dump(reply, replies)
        replies.flush()


if __name__ == "__main__":
    main()
