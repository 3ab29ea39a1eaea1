# SPDX-License-Identifier: Apache-2.0
"""The child process of `CustomOpSession(..., isolate=True)` (isolated.py starts it).

    python -m opbridge.backends.host_plugins.isolated_child REQUEST_FD REPLY_FD STATUS_FILE

Reads (plugin, model, abi) and opens an in-process session, replies
("ready", graph) or ("error", ...); then answers each list of input arrays
with ("outputs", arrays) or ("error", ...) until the request pipe closes.
Every failure the child can catch goes back to the parent as a reply; one it
cannot (plugin code killing the process) the parent finds by the pipe
closing, and the node index in STATUS_FILE names the node that was running.
"""

import mmap
import os
import sys

from opbridge.backends.host_plugins.isolated import (
    LOADING,
    TracedKernel,
    error_reply,
    receive_message,
    send_message,
    write_node_index,
)
from opbridge.backends.host_plugins.session import CustomOpSession


def main(argv: list[str]) -> int:
    requests = os.fdopen(int(argv[1]), "rb")
    replies = os.fdopen(int(argv[2]), "wb")
    with open(argv[3], "r+b") as status_file:
        status = mmap.mmap(status_file.fileno(), 8)

    def reply(message: object) -> None:
        send_message(replies, message)

    plugin, model, abi = receive_message(requests)
    try:
        session = CustomOpSession(plugin, model, abi=abi)
    except BaseException as error:  # every failure goes back to the parent
        reply(error_reply(error))
        return 0
    executor = session.native_executor
    executor.kernels = {index: TracedKernel(kernel, index, status) for index, kernel in executor.kernels.items()}
    reply(("ready", session.graph))
    with session:
        while True:
            try:
                inputs = receive_message(requests)
            except EOFError:  # the parent closed the session
                return 0
            try:
                reply(("outputs", session.run(inputs)))
            except BaseException as error:
                write_node_index(status, LOADING)
                reply(error_reply(error))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
