# SPDX-License-Identifier: Apache-2.0
"""The mutation check of the shared .tflite models, small: 30 seeded mutations of each, judged by opbridge's
conversion and by TFLite Micro and LiteRT (tflite_mutations.py; its full run is 500 of each)."""

import pytest
import tflite_mutations

MUTATIONS = 30


def test_no_mutation_is_accepted_that_tflite_micro_rejects_and_none_breaks_opbridge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = tflite_mutations.main(
        ["--mutations", str(MUTATIONS), "--seed", "41", "--timeout", "20", "--plugin", "opbridge_signal.plugin"]
    )
    report = capsys.readouterr().out
    assert status == 0, report
    assert f"0 failure(s) in {MUTATIONS * len(tflite_mutations.SHARED_MODELS)} cases" in report
    for model in ("ad01_int8", "kws_ref_model", "micro_speech_quantized", "audio_preprocessor_int8"):
        assert f"\n{model} " in report
