# SPDX-License-Identifier: Apache-2.0
"""The persistent worker: its messages as protobuf reads and writes them, and the command line served
request after request with the same files as one-shot runs, errors answered without ending the worker."""

import io
import os
import pathlib
import subprocess
import sys

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from hypothesis import given
from hypothesis import strategies as st

from opbridge.bazel_worker import (
    WORKER_FLAG,
    ProtocolError,
    WorkRequest,
    decode_request,
    encode_response,
    expand_parameter_files,
    read_message,
    run_request,
    write_message,
)

HELLO_WORLD = pathlib.Path("../shared_models/models/tflm/hello_world_int8.tflite")


def _protocol_classes() -> tuple[type, type]:
    """WorkRequest and WorkResponse of Bazel's worker_protocol.proto, built by protobuf itself: an
    independent encoder and decoder to check ours against."""
    file = descriptor_pb2.FileDescriptorProto(
        name="worker_protocol_test.proto", package="blaze.worker", syntax="proto3"
    )
    label, optional = descriptor_pb2.FieldDescriptorProto, descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
    input_message = file.message_type.add(name="Input")
    input_message.field.add(name="path", number=1, type=label.TYPE_STRING, label=optional)
    input_message.field.add(name="digest", number=2, type=label.TYPE_BYTES, label=optional)
    request = file.message_type.add(name="WorkRequest")
    request.field.add(name="arguments", number=1, type=label.TYPE_STRING, label=label.LABEL_REPEATED)
    request.field.add(
        name="inputs", number=2, type=label.TYPE_MESSAGE, type_name=".blaze.worker.Input", label=label.LABEL_REPEATED
    )
    request.field.add(name="request_id", number=3, type=label.TYPE_INT32, label=optional)
    request.field.add(name="cancel", number=4, type=label.TYPE_BOOL, label=optional)
    request.field.add(name="verbosity", number=5, type=label.TYPE_INT32, label=optional)
    request.field.add(name="sandbox_dir", number=6, type=label.TYPE_STRING, label=optional)
    response = file.message_type.add(name="WorkResponse")
    response.field.add(name="exit_code", number=1, type=label.TYPE_INT32, label=optional)
    response.field.add(name="output", number=2, type=label.TYPE_STRING, label=optional)
    response.field.add(name="request_id", number=3, type=label.TYPE_INT32, label=optional)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return (
        message_factory.GetMessageClass(pool.FindMessageTypeByName("blaze.worker.WorkRequest")),
        message_factory.GetMessageClass(pool.FindMessageTypeByName("blaze.worker.WorkResponse")),
    )


REQUEST, RESPONSE = _protocol_classes()
INT32 = st.integers(-(2**31), 2**31 - 1)


@given(
    arguments=st.lists(st.text(max_size=40)),
    request_id=INT32,
    inputs=st.lists(st.tuples(st.text(max_size=20), st.binary(max_size=32)), max_size=3),
    verbosity=INT32,
    sandbox_dir=st.text(max_size=10),
)
def test_requests_decode_as_protobuf_encodes_them(
    arguments: list[str], request_id: int, inputs: list[tuple[str, bytes]], verbosity: int, sandbox_dir: str
) -> None:
    request = REQUEST(arguments=arguments, request_id=request_id, verbosity=verbosity, sandbox_dir=sandbox_dir)
    for path, digest in inputs:
        request.inputs.add(path=path, digest=digest)
    assert decode_request(request.SerializeToString()) == WorkRequest(tuple(arguments), request_id)


@given(exit_code=INT32, output=st.text(max_size=200), request_id=INT32)
def test_responses_parse_as_protobuf_reads_them(exit_code: int, output: str, request_id: int) -> None:
    parsed = RESPONSE.FromString(encode_response(exit_code, output, request_id))
    assert (parsed.exit_code, parsed.output, parsed.request_id) == (exit_code, output, request_id)


@given(messages=st.lists(st.binary(max_size=300), max_size=5))
def test_length_prefixed_messages_read_back_in_order(messages: list[bytes]) -> None:
    stream = io.BytesIO()
    for message in messages:
        write_message(stream, message)
    stream.seek(0)
    assert [read_message(stream) for _ in messages] == messages
    assert read_message(stream) is None


def test_a_stream_cut_inside_a_message_is_a_protocol_error() -> None:
    stream = io.BytesIO()
    write_message(stream, b"0123456789")
    with pytest.raises(ProtocolError, match="short"):
        read_message(io.BytesIO(stream.getvalue()[:-3]))
    with pytest.raises(ProtocolError, match="past the end"):
        decode_request(b"\x0a\x05ab")  # field 1 claims 5 bytes, has 2


def test_a_parameter_file_is_read_one_argument_per_line(tmp_path: pathlib.Path) -> None:
    parameters = tmp_path / "arguments"
    parameters.write_text("convert\nmodel with spaces.tflite\n--prefix\nm\n")
    assert expand_parameter_files([f"@{parameters}"]) == ["convert", "model with spaces.tflite", "--prefix", "m"]
    assert expand_parameter_files(["convert", "@not_alone"]) == ["convert", "@not_alone"]


def test_a_request_returns_what_the_command_printed_and_its_exit_code() -> None:
    def command(arguments: list[str]) -> int:
        print("to stdout", arguments)
        print("to stderr", file=sys.stderr)
        return 3

    assert run_request(command, WorkRequest(("a", "b"))) == (3, "to stdout ['a', 'b']\nto stderr\n")

    def usage_error(arguments: list[str]) -> int:
        raise SystemExit(2)

    assert run_request(usage_error, WorkRequest(()))[0] == 2

    def crash(arguments: list[str]) -> int:
        raise RuntimeError("a bug")

    exit_code, output = run_request(crash, WorkRequest(()))
    assert exit_code == 1 and "RuntimeError: a bug" in output and "Traceback" in output


def _convert_arguments(model: pathlib.Path, folder: pathlib.Path) -> list[str]:
    return [
        "convert", str(model), "--output-dir", str(folder / "module"), "--prefix", "hello_world",
        "--golden-test", str(folder / "golden_test.c"), "--plan-json", str(folder / "plan.json"),
        "--no-bundle-kernels", "--no-cmake-lists", "--no-entry-points",
    ]  # fmt: skip


def _files(folder: pathlib.Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_the_command_line_as_a_worker_writes_what_one_shot_runs_write(tmp_path: pathlib.Path) -> None:
    one_shot = tmp_path / "one_shot"
    parameters = tmp_path / "one_shot.params"
    parameters.write_text("\n".join(_convert_arguments(HELLO_WORLD, one_shot)) + "\n")
    # Without a worker, Bazel runs the tool on the parameter file.
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "opbridge.cli"]
    subprocess.run([*command, f"@{parameters}"], env=environment, check=True, capture_output=True)

    requests = io.BytesIO()
    for request_id, arguments in enumerate(
        [
            _convert_arguments(HELLO_WORLD, tmp_path / "first"),
            _convert_arguments(tmp_path / "missing.tflite", tmp_path / "broken"),
            ["convert", str(HELLO_WORLD), "--no-such-option"],
            _convert_arguments(HELLO_WORLD, tmp_path / "second"),
        ],
        start=1,
    ):
        parameter_file = tmp_path / f"request_{request_id}.params"
        parameter_file.write_text("\n".join(arguments) + "\n")
        write_message(requests, REQUEST(arguments=[f"@{parameter_file}"], request_id=request_id).SerializeToString())
    worker = subprocess.run(
        [*command, WORKER_FLAG], input=requests.getvalue(), env=environment, capture_output=True, check=True
    )

    responses = io.BytesIO(worker.stdout)
    answers = []
    while (message := read_message(responses)) is not None:
        parsed = RESPONSE.FromString(message)
        answers.append((parsed.request_id, parsed.exit_code, parsed.output))
    assert [(request_id, exit_code) for request_id, exit_code, _ in answers] == [(1, 0), (2, 1), (3, 2), (4, 0)]
    assert "converted 3 nodes" in answers[0][2]
    assert "opbridge: error:" in answers[1][2] and "missing.tflite" in answers[1][2]
    assert "--no-such-option" in answers[2][2]
    # The same files as the one-shot run, for the first model and for the one after the errors.
    assert _files(tmp_path / "first") == _files(one_shot) == _files(tmp_path / "second")
    assert not (tmp_path / "broken" / "module").exists()
