# SPDX-License-Identifier: Apache-2.0
"""The data-file readers against numpy and Python's wave module, and every damaged or wrong file refused clearly."""

import os
import pathlib
import struct
import wave

import numpy as np
import pytest

from opbridge.data_files import check_npy_output, npy_path, read_npy, read_wav, write_npy
from opbridge.errors import DataFileError, OpbridgeError


def write_clip(path: pathlib.Path, frames: int, *, rate: int = 16000, channels: int = 1, width: int = 2) -> bytes:
    samples = np.random.default_rng(frames).integers(-3000, 3000, size=frames * channels)
    with wave.open(str(path), "wb") as clip:
        clip.setnchannels(channels)
        clip.setsampwidth(width)
        clip.setframerate(rate)
        clip.writeframes(samples.astype("<i2" if width == 2 else "u1").tobytes())
    return path.read_bytes()


def refusal(call, *fragments: str) -> DataFileError:
    with pytest.raises(DataFileError) as raised:
        call()
    text = str(raised.value)
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"
    assert raised.value.hint, "every refusal says how to fix it"
    return raised.value


@pytest.mark.parametrize(
    "array",
    [
        np.arange(24, dtype=np.float32).reshape(2, 3, 4),
        np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4)),
        np.array(5, dtype=np.int8),
        np.zeros((0, 3), dtype=np.uint8),
        np.array([True, False]),
        np.arange(4, dtype=">i4"),
    ],
)
def test_read_npy_equals_numpy_load(tmp_path: pathlib.Path, array: np.ndarray) -> None:
    np.save(tmp_path / "a.npy", array)
    ours = read_npy(tmp_path / "a.npy")
    theirs = np.load(tmp_path / "a.npy", allow_pickle=False)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape and np.array_equal(ours, theirs)
    assert ours.flags.writeable


def test_npy_format_versions_2_and_3_are_read(tmp_path: pathlib.Path) -> None:
    array = np.arange(6, dtype=np.float64).reshape(2, 3)
    for version in ((2, 0), (3, 0)):
        path = tmp_path / f"v{version[0]}.npy"
        with path.open("wb") as file:
            np.lib.format.write_array(file, array, version=version)
        assert np.array_equal(read_npy(path), np.load(path))


def test_write_npy_writes_what_numpy_reads_and_returns_the_path(tmp_path: pathlib.Path) -> None:
    array = np.arange(6, dtype=np.int32).reshape(1, 6)
    assert write_npy(tmp_path / "y", array) == tmp_path / "y.npy" == npy_path(tmp_path / "y")
    assert write_npy(tmp_path / "z.npy", array) == tmp_path / "z.npy"
    for name in ("y.npy", "z.npy"):
        assert np.array_equal(np.load(tmp_path / name), array)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["y.npy", "z.npy"]  # no temporary file left


def test_empty_npy(tmp_path: pathlib.Path) -> None:
    (tmp_path / "x.npy").write_bytes(b"")
    refusal(lambda: read_npy(tmp_path / "x.npy"), str(tmp_path / "x.npy"), "is empty (0 bytes)", "numpy.save")


def test_text_given_as_npy_is_called_text_not_pickled(tmp_path: pathlib.Path) -> None:
    (tmp_path / "x.npy").write_text("1.0 2.0 3.0\n4.0 5.0 6.0\n")
    error = refusal(lambda: read_npy(tmp_path / "x.npy"), "is not a .npy file: it is text", "numpy.loadtxt")
    assert "pickle" not in str(error)


def test_pickled_object_arrays_are_refused_without_unpickling(tmp_path: pathlib.Path) -> None:
    np.save(tmp_path / "x.npy", np.array([1, "a", None], dtype=object), allow_pickle=True)
    refusal(lambda: read_npy(tmp_path / "x.npy"), "holds Python objects", "does not unpickle", "dtype=numpy.float32")


@pytest.mark.parametrize("keep", [0.5, 0.95])  # inside the header, inside the data
def test_npy_cut_short(tmp_path: pathlib.Path, keep: float) -> None:
    np.save(tmp_path / "whole.npy", np.arange(40, dtype=np.float32))
    data = (tmp_path / "whole.npy").read_bytes()
    (tmp_path / "x.npy").write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ValueError):  # numpy's own message says no more than that
        np.load(tmp_path / "x.npy")
    refusal(lambda: read_npy(tmp_path / "x.npy"), "is cut short")


def test_npz_and_other_kinds_are_named(tmp_path: pathlib.Path) -> None:
    np.savez(tmp_path / "x.npz", x=np.ones(3))
    refusal(lambda: read_npy(tmp_path / "x.npz"), "zip archive", ".npz")
    np.save(tmp_path / "s.npy", np.array(["ab", "c"]))
    refusal(lambda: read_npy(tmp_path / "s.npy"), "holds <U2 data", "arrays of numbers")


def test_damaged_npy_headers(tmp_path: pathlib.Path) -> None:
    np.save(tmp_path / "whole.npy", np.arange(4, dtype=np.int8))
    data = (tmp_path / "whole.npy").read_bytes()
    (tmp_path / "version.npy").write_bytes(data[:6] + b"\x09" + data[7:])
    refusal(lambda: read_npy(tmp_path / "version.npy"), "format version 9.0")
    (tmp_path / "header.npy").write_bytes(data.replace(b"'shape'", b"'shapf'"))
    refusal(lambda: read_npy(tmp_path / "header.npy"), "exactly the keys")
    (tmp_path / "dtype.npy").write_bytes(data.replace(b"'|i1'", b"'|zz'"))
    refusal(lambda: read_npy(tmp_path / "dtype.npy"), "is not a numpy dtype")
    (tmp_path / "shape.npy").write_bytes(data.replace(b"(4,)", b"(-4,)"))
    refusal(lambda: read_npy(tmp_path / "shape.npy"), "is not a tuple of sizes >= 0")


@pytest.mark.parametrize("reader", [read_npy, read_wav])
def test_path_problems(tmp_path: pathlib.Path, reader) -> None:
    refusal(lambda: reader(tmp_path / "nope" / "x.npy"), "does not exist", f"nor does its folder {tmp_path / 'nope'}")
    refusal(lambda: reader(tmp_path), "is a folder, not a file")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
@pytest.mark.parametrize("reader", [read_npy, read_wav])
def test_no_read_permission(tmp_path: pathlib.Path, reader) -> None:
    path = tmp_path / "x.npy"
    np.save(path, np.ones(3))
    path.chmod(0)
    refusal(lambda: reader(path), "permission denied", "chmod u+r")


def test_write_npy_into_a_missing_folder_or_a_folder(tmp_path: pathlib.Path) -> None:
    refusal(lambda: write_npy(tmp_path / "missing" / "y.npy", np.ones(2)), "the folder", "does not exist", "mkdir -p")
    (tmp_path / "d.npy").mkdir()
    refusal(lambda: check_npy_output(tmp_path / "d.npy"), "is a folder")
    assert not (tmp_path / "missing").exists()


def test_read_wav_equals_the_wave_module(tmp_path: pathlib.Path) -> None:
    for channels, rate in ((1, 16000), (2, 44100)):
        path = tmp_path / f"{channels}.wav"
        write_clip(path, 1234, rate=rate, channels=channels)
        with wave.open(str(path), "rb") as clip:
            theirs = np.frombuffer(clip.readframes(clip.getnframes()), "<i2").reshape(-1, channels)
        ours = read_wav(path)
        assert ours.sample_rate == rate and ours.channels == channels
        assert np.array_equal(ours.samples, theirs)


def test_shared_clips_are_read(tmp_path: pathlib.Path) -> None:
    clips = sorted(pathlib.Path("../shared_models/data/micro_speech").glob("*.wav"))
    assert clips
    for path in clips:
        assert read_wav(path, sample_rate=16000, channels=1).seconds >= 1.0


def test_empty_wav_and_cut_header_say_what_is_wrong(tmp_path: pathlib.Path) -> None:
    whole = write_clip(tmp_path / "whole.wav", 16000)
    (tmp_path / "empty.wav").write_bytes(b"")
    refusal(lambda: read_wav(tmp_path / "empty.wav"), "is empty (0 bytes)")
    for cut in (6, 20, 40):  # inside the RIFF header, inside the fmt chunk, inside the data chunk's header
        (tmp_path / "cut.wav").write_bytes(whole[:cut])
        with pytest.raises((EOFError, wave.Error)):  # the wave module's, with an empty or short message
            wave.open(str(tmp_path / "cut.wav")).close()
        refusal(lambda: read_wav(tmp_path / "cut.wav"), "is cut short")


def test_not_riff_wave(tmp_path: pathlib.Path) -> None:
    (tmp_path / "x.wav").write_bytes(b"fLaC" + bytes(100))
    refusal(lambda: read_wav(tmp_path / "x.wav"), "is not a WAV file: it is FLAC audio", "sox")
    (tmp_path / "y.wav").write_bytes(b"RIFF not really")
    refusal(lambda: read_wav(tmp_path / "y.wav"), "a RIFF file of type b' rea', not 'WAVE'")


@pytest.mark.parametrize(
    ("clip", "found"),
    [
        ({"channels": 2}, "is 2-channel, 16-bit, 16000 Hz; expected mono 16-bit 16000 Hz PCM"),
        ({"rate": 44100}, "is 1-channel, 16-bit, 44100 Hz; expected mono 16-bit 16000 Hz PCM"),
        ({"width": 1}, "holds 8-bit PCM audio"),
    ],
)
def test_wrong_formats_are_named_with_the_sox_fix(tmp_path: pathlib.Path, clip: dict, found: str) -> None:
    path = tmp_path / "x.wav"
    write_clip(path, 16000, **clip)
    error = refusal(lambda: read_wav(path, sample_rate=16000, channels=1), found)
    assert error.hint.startswith(f"convert it, e.g. `sox {path} -c 1 -b 16 -e signed-integer -r 16000 ")


def test_float_wav_is_named(tmp_path: pathlib.Path) -> None:
    samples = np.zeros(100, dtype="<f4").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, 16000, 64000, 4, 32)
    data = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
    (tmp_path / "f.wav").write_bytes(b"RIFF" + struct.pack("<I", len(data)) + data)
    refusal(lambda: read_wav(tmp_path / "f.wav"), "holds IEEE float audio (1-channel, 32-bit, 16000 Hz)", "sox")


def test_wav_data_cut_short_is_refused_here(tmp_path: pathlib.Path) -> None:
    whole = write_clip(tmp_path / "whole.wav", 16000)
    (tmp_path / "cut.wav").write_bytes(whole[:-1000])
    with wave.open(str(tmp_path / "cut.wav"), "rb") as clip:  # the wave module reads on, to the end
        assert clip.getnframes() == 16000 and len(clip.readframes(16000)) == 32000 - 1000
    refusal(lambda: read_wav(tmp_path / "cut.wav"), "is cut short: its data chunk declares 32000 bytes", "31000")


def test_every_refusal_is_an_opbridge_error() -> None:
    assert issubclass(DataFileError, OpbridgeError)
