# SPDX-License-Identifier: Apache-2.0
"""The mutation check of the ONNX models, small: 20 seeded mutations of each (torch.onnx.export's CNN, its
quantize_static QDQ and QOperator models, three model-zoo CNNs of the onnx wheel), judged by opbridge's
conversion and by onnxruntime (onnx_mutations.py; its full run is 500 of each)."""

import onnx_mutations
import pytest

MUTATIONS = 20


def test_no_mutation_is_accepted_that_onnxruntime_rejects_and_none_breaks_opbridge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = onnx_mutations.main(["--mutations", str(MUTATIONS), "--seed", "41", "--timeout", "30", "--workers", "2"])
    report = capsys.readouterr().out
    assert status == 0, report
    assert f"{MUTATIONS * len(onnx_mutations.MODELS)} cases in " in report and ": 0 failure(s)" in report, report
    for model in onnx_mutations.MODELS:
        assert f"{model} " in report, report
