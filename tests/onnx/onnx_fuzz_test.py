# SPDX-License-Identifier: Apache-2.0
"""Damaged ONNX models: truncated files and flipped bytes of the float and QDQ test
models either convert or raise an OpbridgeError naming the problem; nothing else
escapes (no IndexError, KeyError, numpy error or crash)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import MODELS
from opbridge.errors import OpbridgeError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context
from qdq_models import QDQ_MODELS

CONTEXT = default_registry_context()
SERIALIZED = {name: build().SerializeToString() for name, build in {**MODELS, **QDQ_MODELS}.items()}


def convert_or_refuse(data: bytes) -> None:
    try:
        read_onnx_model(data, CONTEXT, source="fuzzed.onnx")
    except OpbridgeError as error:
        assert str(error).strip(), "an error without a message"


@pytest.mark.parametrize("name", sorted(SERIALIZED))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_truncated_models_are_refused_cleanly(name: str, data: st.DataObject) -> None:
    model = SERIALIZED[name]
    convert_or_refuse(model[: data.draw(st.integers(0, len(model) - 1))])


@pytest.mark.parametrize("name", sorted(SERIALIZED))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_models_with_flipped_bytes_convert_or_are_refused_cleanly(name: str, data: st.DataObject) -> None:
    model = bytearray(SERIALIZED[name])
    for _ in range(data.draw(st.integers(1, 8))):
        position = data.draw(st.integers(0, len(model) - 1))
        model[position] = data.draw(st.integers(0, 255))
    with np.errstate(all="ignore"):
        convert_or_refuse(bytes(model))
