# SPDX-License-Identifier: Apache-2.0
"""The main job's acceptance: TFLM's micro_speech pipeline, compiled by opbridge.

For each shared clip, the emitted C program (audio front end with the nine
Signal operators, then the classifier) runs on Cortex-M55 and Cortex-M4
(qemu-system-arm), aarch64 (qemu-user) and x86_64; its 49x40 feature matrix
and four scores must equal TFLite Micro's byte for byte, computed here, live,
with one TFLM interpreter invoked frame by frame as TFLM's example does.
"""

import pathlib
import wave

import micro_speech
import numpy as np
import pytest
from tflite_micro.python.tflite_micro import runtime

MODELS = pathlib.Path("../shared_models/models/tflm")
CLIPS = pathlib.Path("../shared_models/data/micro_speech")
FRAMES, WINDOW, STRIDE = 49, 480, 320
EXPECTED_WORDS = {"yes": "yes", "no": "no", "silence": "silence"}
LABELS = ("silence", "unknown", "yes", "no")


def tflm_features_and_scores(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    frontend = runtime.Interpreter.from_bytes((MODELS / "audio_preprocessor_int8.tflite").read_bytes())
    features = []
    for frame in range(FRAMES):
        frontend.set_input(samples[frame * STRIDE : frame * STRIDE + WINDOW].reshape(1, WINDOW), 0)
        frontend.invoke()
        features.append(np.array(frontend.get_output(0)).reshape(-1))
    matrix = np.stack(features).astype(np.int8)
    classifier = runtime.Interpreter.from_bytes((MODELS / "micro_speech_quantized.tflite").read_bytes())
    classifier.set_input(matrix.reshape(1, FRAMES * 40), 0)
    classifier.invoke()
    return matrix, np.array(classifier.get_output(0)).reshape(-1)


@pytest.fixture(scope="module", params=sorted(EXPECTED_WORDS))
def clip(request: pytest.FixtureRequest) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    samples = micro_speech.read_clip(CLIPS / f"{request.param}_1000ms.wav")
    features, scores = tflm_features_and_scores(samples)
    return request.param, samples, features, scores


@pytest.mark.parametrize("platform", ["cortex_m55", "x86_64_linux", "aarch64_linux", "cortex_m4"])
def test_features_scores_and_word_equal_tflite_micro(clip, platform: str) -> None:
    name, samples, tflm_features, tflm_scores = clip
    ours = micro_speech.run_program(samples, platform)
    assert ours.features.shape == (FRAMES, 40)
    differing = np.argwhere(ours.features != tflm_features)
    assert differing.size == 0, (
        f"{name} on {platform}: {len(differing)} features differ from TFLM, first {differing[:5]}"
    )
    assert [ours.scores[label] for label in LABELS] == tflm_scores.tolist()
    assert ours.word == EXPECTED_WORDS[name] == LABELS[int(np.argmax(tflm_scores))]


def test_the_reference_interpreter_equals_tflite_micro(clip) -> None:
    from opbridge.backends.reference import ReferenceInterpreter
    from opbridge.frontends.litert import load_litert_model
    from opbridge.registry import build_default_registry_context
    from opbridge_signal.plugin import customize_registry

    name, samples, tflm_features, _ = clip
    context = build_default_registry_context([customize_registry])
    interpreter = ReferenceInterpreter(load_litert_model(MODELS / "audio_preprocessor_int8.tflite", context), context)
    for frame in range(FRAMES):
        (features,) = interpreter.run([samples[frame * STRIDE : frame * STRIDE + WINDOW].reshape(1, WINDOW)])
        assert np.array_equal(features.reshape(-1), tflm_features[frame]), f"{name}: frame {frame} differs"


def test_the_main_job_prints_word_scores_arena_and_flash(capsys: pytest.CaptureFixture[str]) -> None:
    assert micro_speech.main([]) == 0
    printed = capsys.readouterr().out
    assert "word: yes" in printed
    assert "arena:" in printed and "flash:" in printed and "scores: silence" in printed


def write_wav(path: pathlib.Path, samples: np.ndarray, rate: int = 16000, channels: int = 1) -> pathlib.Path:
    with wave.open(str(path), "wb") as clip:
        clip.setnchannels(channels)
        clip.setsampwidth(2)
        clip.setframerate(rate)
        clip.writeframes(samples.astype("<i2").tobytes())
    return path


def test_clips_micro_speech_cannot_use_are_refused_clearly(tmp_path: pathlib.Path, capsys) -> None:
    with pytest.raises(micro_speech.ClipError, match="16000 Hz"):
        micro_speech.read_clip(write_wav(tmp_path / "8k.wav", np.zeros(8000), rate=8000))
    with pytest.raises(micro_speech.ClipError, match="mono"):
        micro_speech.read_clip(write_wav(tmp_path / "stereo.wav", np.zeros(32000), channels=2))
    with pytest.raises(micro_speech.ClipError, match=r"0\.50 s"):
        micro_speech.read_clip(write_wav(tmp_path / "short.wav", np.zeros(8000)))
    (tmp_path / "noise.wav").write_bytes(b"RIFF not really")
    assert micro_speech.main([str(tmp_path / "noise.wav")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_longer_clip_uses_its_first_second(tmp_path: pathlib.Path) -> None:
    samples = micro_speech.read_clip(CLIPS / "no_1000ms.wav")
    longer = write_wav(tmp_path / "long.wav", np.concatenate([samples, samples[:4000]]))
    assert np.array_equal(micro_speech.read_clip(longer), samples)


def test_a_clip_cut_short_is_refused_before_the_board_sees_it(tmp_path: pathlib.Path, capsys) -> None:
    whole = write_wav(tmp_path / "whole.wav", np.zeros(16000)).read_bytes()
    (tmp_path / "cut.wav").write_bytes(whole[:-1000])  # the header still says 1 s
    assert micro_speech.main([str(tmp_path / "cut.wav")]) == 2
    error = capsys.readouterr().err
    assert "is cut short: its data chunk declares 32000 bytes" in error and "hint: " in error
