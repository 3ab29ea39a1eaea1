# SPDX-License-Identifier: Apache-2.0
"""OpbridgeError's text: the message, its hint, and the context added by code that re-raises it."""

import pytest

from opbridge.errors import OpbridgeError, UnsupportedTensorError


def test_the_hint_follows_the_message() -> None:
    assert str(OpbridgeError("bad", hint="fix it")) == "bad\n  hint: fix it"
    assert str(OpbridgeError("bad")) == "bad"


def test_add_context_prefixes_the_message_and_the_text() -> None:
    error = UnsupportedTensorError("fused activation RELU_N1_TO_1 is not supported", hint="use RELU")
    error.add_context("node 3 (SVDF)")
    assert error.message == "node 3 (SVDF): fused activation RELU_N1_TO_1 is not supported"
    assert str(error) == "node 3 (SVDF): fused activation RELU_N1_TO_1 is not supported\n  hint: use RELU"
    with pytest.raises(UnsupportedTensorError, match=r"^node 3 \(SVDF\): fused"):
        raise error


def test_add_context_names_a_place_once() -> None:
    error = OpbridgeError("node 3 (SVDF): rank 0")
    error.add_context("node 3 (SVDF)")
    assert error.message == "node 3 (SVDF): rank 0"
