# SPDX-License-Identifier: Apache-2.0
"""The command line as a Bazel persistent worker: one process converts model after model.

A conversion action (toolchains/aot_model.bzl) spends most of its time starting
Python and importing numpy, the operators and, for a .pt2 program, torch; the
conversion itself is a fraction of a second for most models. Bazel starts a
tool marked `supports-workers` once with `--persistent_worker` and sends it
one request per action on stdin, so the imports are paid once per build.
Bazel restarts the worker when any of the tool's files changes.

The protocol (Bazel's worker_protocol.proto, protobuf framing, Bazel 4.2):
each message is a varint byte count followed by the message.

    WorkRequest  { repeated string arguments = 1; repeated Input inputs = 2; int32 request_id = 3; ... }
    WorkResponse { int32 exit_code = 1; string output = 2; int32 request_id = 3; }

A request's arguments are one `@file` of arguments, one per line (Bazel's
"multiline" parameter file); `expand_parameter_files` also serves the same
command run without a worker. Everything a request prints (stdout and
stderr) comes back as its response's output; nothing but responses is ever
written to the worker's stdout.
"""

import contextlib
import dataclasses
import io
import os
import pathlib
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import BinaryIO

WORKER_FLAG = "--persistent_worker"

# Protobuf wire types.
_VARINT = 0
_FIXED64 = 1
_LENGTH_DELIMITED = 2
_FIXED32 = 5


class ProtocolError(Exception):
    """A message on stdin that is not a WorkRequest (a bug in the caller, not in a model)."""


@dataclasses.dataclass(frozen=True)
class WorkRequest:
    arguments: tuple[str, ...]
    request_id: int = 0


def expand_parameter_files(arguments: Sequence[str]) -> list[str]:
    """`arguments`, or, when they are one `@file`, that file's lines (one argument per line)."""
    if len(arguments) == 1 and arguments[0].startswith("@"):
        return pathlib.Path(arguments[0][1:]).read_text().splitlines()
    return list(arguments)


def _read_varint(data: bytes, position: int) -> tuple[int, int]:
    value = 0
    shift = 0
    while True:
        if position >= len(data):
            raise ProtocolError("a varint runs past the end of the message")
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, position
        shift += 7
        if shift > 63:
            raise ProtocolError("a varint longer than 10 bytes")


def _varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64  # int32 and int64 negatives: ten bytes, two's complement
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def decode_request(message: bytes) -> WorkRequest:
    """The arguments and request id of a WorkRequest; other fields (inputs, verbosity, ...) are skipped."""
    arguments: list[str] = []
    request_id = 0
    position = 0
    while position < len(message):
        key, position = _read_varint(message, position)
        field, wire_type = key >> 3, key & 7
        if wire_type == _VARINT:
            value, position = _read_varint(message, position)
            if field == 3:
                request_id = value - (1 << 64) if value >= 1 << 63 else value
        elif wire_type == _LENGTH_DELIMITED:
            length, position = _read_varint(message, position)
            if position + length > len(message):
                raise ProtocolError("a field runs past the end of the message")
            if field == 1:
                arguments.append(message[position : position + length].decode())
            position += length
        elif wire_type == _FIXED64:
            position += 8
        elif wire_type == _FIXED32:
            position += 4
        else:
            raise ProtocolError(f"field {field} has wire type {wire_type}, which WorkRequest does not use")
    return WorkRequest(tuple(arguments), request_id)


def encode_response(exit_code: int, output: str, request_id: int) -> bytes:
    """A WorkResponse message (without its length prefix)."""
    text = output.encode()
    return (
        _varint(1 << 3 | _VARINT)
        + _varint(exit_code)
        + _varint(2 << 3 | _LENGTH_DELIMITED)
        + _varint(len(text))
        + text
        + _varint(3 << 3 | _VARINT)
        + _varint(request_id)
    )


def read_message(stream: BinaryIO) -> bytes | None:
    """The next length-prefixed message, or None when the stream ends between messages."""
    length = 0
    shift = 0
    while True:
        byte = stream.read(1)
        if not byte:
            if shift == 0:
                return None
            raise ProtocolError("the stream ended inside a message's length")
        length |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            break
        shift += 7
    message = stream.read(length)
    if len(message) != length:
        raise ProtocolError(f"the stream ended {length - len(message)} bytes short of a message")
    return message


def write_message(stream: BinaryIO, message: bytes) -> None:
    stream.write(_varint(len(message)) + message)
    stream.flush()


def run_request(command: Callable[[list[str]], int], request: WorkRequest) -> tuple[int, str]:
    """`command`'s exit code on the request's arguments, and everything it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            exit_code = command(expand_parameter_files(request.arguments))
        except SystemExit as exit:  # argparse's usage errors
            code = exit.code
            exit_code = code if isinstance(code, int) else (0 if code is None else 1)
            if isinstance(code, str):
                print(code, file=sys.stderr)
        except Exception:
            # What the same command would print and exit with outside a worker; the next request
            # starts afresh (a conversion keeps no state between models).
            traceback.print_exc()
            exit_code = 1
    return exit_code, printed.getvalue()


def serve(command: Callable[[list[str]], int], requests: BinaryIO | None = None) -> int:
    """Answers WorkRequests from stdin (or `requests`) with `command` until stdin closes; returns 0."""
    requests = requests if requests is not None else sys.stdin.buffer
    # Responses go to the real stdout; anything else written to file descriptor 1 (a library that
    # prints past sys.stdout) goes to stderr, Bazel's worker log, and cannot break the framing.
    responses = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    while (message := read_message(requests)) is not None:
        request = decode_request(message)
        exit_code, output = run_request(command, request)
        write_message(responses, encode_response(exit_code, output, request.request_id))
    return 0
