# SPDX-License-Identifier: Apache-2.0
"""The front end converted into a self-contained module (the command line's
default: every kernel copied in) builds with plain gcc and equals the reference."""

import pathlib

from opbridge.converter import AotConverter, ConvertArgs
from opbridge.registry import build_default_registry_context
from opbridge_signal.plugin import customize_registry
from opbridge_testing.single_op import run_golden_program

MODEL = pathlib.Path("../shared_models/models/tflm/audio_preprocessor_int8.tflite")


def test_self_contained_front_end_builds_and_equals_the_reference(tmp_path: pathlib.Path) -> None:
    config = ConvertArgs(
        model=MODEL, output_dir=tmp_path / "out", prefix="frontend", golden_test=tmp_path / "golden.c", golden_cases=5
    )
    result = AotConverter(config, registry_context=build_default_registry_context([customize_registry])).convert()
    module = result.module.directory
    copied = sorted(path.name for path in (module / "src").glob("opbridge_signal_*"))
    assert "opbridge_signal_integer.h" in copied and "opbridge_signal_rfft.c" in copied
    assert "0 failures" in run_golden_program(module, tmp_path / "golden.c")
