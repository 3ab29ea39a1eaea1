# SPDX-License-Identifier: Apache-2.0
"""The user's data files: arrays in .npy files and audio clips in .wav files, read and written with every check.

`read_npy` and `read_wav` read the whole file and check it in Python before
anything uses it: a missing file, a folder, a file without read permission,
an empty or cut-short file, a file of another kind, pickled (object) arrays,
and WAV audio that is not 16-bit PCM (or not the rate and channels asked
for) are each a `DataFileError` naming the path, what is wrong and the fix.
`write_npy` writes beside the target and renames, so a failed write leaves
no half-written file.
"""

import ast
import contextlib
import dataclasses
import math
import os
import pathlib
import struct
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np

from opbridge.errors import DataFileError

NPY_MAGIC = b"\x93NUMPY"
# numpy.load refuses longer headers too (its max_header_size): a header this long is damage, not data.
MAX_NPY_HEADER_BYTES = 10_000
MAX_NPY_DIMENSIONS = 64  # numpy's limit on an array's axes (NPY_MAXDIMS)
# dtype kinds an array of numbers can have: bool, signed, unsigned, float, complex.
NUMERIC_KINDS = "biufc"

WAV_PCM = 1
WAV_EXTENSIBLE = 0xFFFE
# Other WAV format codes, named for the error.
WAV_FORMATS = {3: "IEEE float", 6: "A-law", 7: "mu-law", 2: "ADPCM", 0x11: "IMA ADPCM", 0x55: "MP3"}
SAVE_NPY_HINT = "save the array with numpy.save(path, array) (a numeric array, not Python objects)"


def sox_hint(path: pathlib.Path | str, sample_rate: int | None = None, channels: int | None = None) -> str:
    """The command that converts `path` into the WAV the reader wants (16-bit PCM, and the rate/channels asked)."""
    options = ["-b 16", "-e signed-integer"]
    if channels is not None:
        options.insert(0, f"-c {channels}")
    if sample_rate is not None:
        options.append(f"-r {sample_rate}")
    return f"convert it, e.g. `sox {path} {' '.join(options)} {pathlib.Path(path).stem}_pcm16.wav`"


def read_file_bytes(path: pathlib.Path | str, role: str, suffix: str) -> bytes:
    """The bytes of the file `path`, or a DataFileError saying why not. `role` names the file for the user
    ("--input", ".npy file"); `suffix` is the kind of file wanted, for the hint (".npy")."""
    path = pathlib.Path(path)
    example = f"a {suffix} file"
    try:
        if path.is_dir():  # checked first: opening a folder fails differently on each system
            inside = sorted(p.name for p in path.iterdir() if p.suffix == suffix)[:1]
            first = f", e.g. {path / inside[0]}" if inside else ""
            raise DataFileError(
                f"{role} {path} is a folder, not a file", hint=f"pass {example} inside it{first}, not the folder"
            )
        return path.read_bytes()
    except FileNotFoundError:
        missing = [folder for folder in path.parents if not folder.exists()]
        nor = f" (nor does its folder {missing[-1]})" if missing else ""
        raise DataFileError(
            f"{role} {path} does not exist{nor}",
            hint=f"check the path; a relative path starts from the working folder {pathlib.Path.cwd()}",
        ) from None
    except PermissionError:
        raise DataFileError(
            f"{role} {path} cannot be read: permission denied",
            hint=f"make it readable (chmod u+r {path}), or pass a copy you can read",
        ) from None
    except OSError as error:
        raise DataFileError(
            f"{role} {path} cannot be read: {error.strerror or error}", hint=f"pass {example} you can read"
        ) from None


# ---------------------------------------------------------------------------------------------------- .npy


def read_npy(path: pathlib.Path | str, *, role: str = ".npy file") -> np.ndarray:
    """The numeric array saved in the .npy file `path` (numpy.save's format, versions 1 to 3), checked whole:
    its header, its dtype (numbers only: no pickled objects) and that the file holds all of its data."""
    path = pathlib.Path(path)
    data = read_file_bytes(path, role, ".npy")
    where = f"{role} {path}"
    if not data:
        raise DataFileError(f"{where} is empty (0 bytes); expected an array saved by numpy.save", hint=SAVE_NPY_HINT)
    if not data.startswith(NPY_MAGIC):
        raise DataFileError(f"{where} is not a .npy file: {_what_it_is(data)}", hint=SAVE_NPY_HINT)
    dtype, shape, fortran_order, offset = _npy_header(data, where)
    count = math.prod(shape)
    expected = count * dtype.itemsize
    available = len(data) - offset
    if available < expected:
        raise DataFileError(
            f"{where} is cut short: its header declares {_npy_type(dtype, shape)} ({expected} bytes of data), "
            f"the file holds {available} bytes after the header",
            hint="save the array again (numpy.save), or copy the whole file; a partial copy or download is cut "
            "like this",
        )
    array = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
    try:
        return array.reshape(shape, order="F" if fortran_order else "C").copy()
    except ValueError as error:  # an empty array whose other axes numpy cannot address
        raise DataFileError(
            f"{where}: numpy cannot hold {_npy_type(dtype, shape)}: {error}", hint=SAVE_NPY_HINT
        ) from None


def _what_it_is(data: bytes) -> str:
    """What a file that should have been .npy looks like, for the error."""
    if data.startswith(b"PK\x03\x04"):
        return (
            "it is a zip archive (a .npz of numpy.savez?); pass one .npy per array, e.g. "
            "numpy.save('x.npy', numpy.load(path)['x'])"
        )
    if NPY_MAGIC.startswith(data):
        return f"it holds {len(data)} bytes, the start of numpy's {NPY_MAGIC!r} magic: cut short"
    text = data[:64].decode("utf-8", errors="replace")
    if "\ufffd" not in text[:-3] and all(c.isprintable() or c in "\r\n\t" for c in text[:-3]):
        first = text.splitlines()[0] if text.strip() else text
        return (
            f"it is text (starting {first[:30]!r}); an array in a text file can be read with numpy.loadtxt "
            "and saved with numpy.save"
        )
    return f"it starts with {data[:8]!r}, not numpy's {NPY_MAGIC!r}"


def _npy_header(data: bytes, where: str) -> tuple[np.dtype, tuple[int, ...], bool, int]:
    """The dtype, shape, Fortran order and data offset of a .npy file's header; DataFileError when damaged."""
    damaged = "save the array again with numpy.save; this file's header is damaged"
    if len(data) < 10:
        raise DataFileError(f"{where} is cut short inside its header ({len(data)} bytes)", hint=damaged)
    major = data[6]
    if major not in (1, 2, 3):
        raise DataFileError(
            f"{where} is .npy format version {major}.{data[7]}; this reader knows versions 1.0 to 3.0",
            hint="save it with numpy.save from numpy 1.x or 2.x",
        )
    size_format, start = ("<H", 10) if major == 1 else ("<I", 12)
    if len(data) < start:
        raise DataFileError(f"{where} is cut short inside its header ({len(data)} bytes)", hint=damaged)
    (header_bytes,) = struct.unpack_from(size_format, data, 8)
    if header_bytes > MAX_NPY_HEADER_BYTES:
        raise DataFileError(
            f"{where} declares a header of {header_bytes} bytes; numpy's are under {MAX_NPY_HEADER_BYTES}",
            hint=damaged,
        )
    offset = start + header_bytes
    if len(data) < offset:
        raise DataFileError(
            f"{where} is cut short inside its header: the header declares {header_bytes} bytes, the file has "
            f"{len(data) - start} after the magic",
            hint=damaged,
        )
    try:
        header = ast.literal_eval(data[start:offset].decode("utf-8" if major == 3 else "latin1"))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, UnicodeDecodeError):
        raise DataFileError(
            f"{where}: its header is not a Python dict literal as numpy writes it", hint=damaged
        ) from None
    if not isinstance(header, dict) or set(header) != {"descr", "fortran_order", "shape"}:
        raise DataFileError(
            f"{where}: its header should hold exactly the keys 'descr', 'fortran_order' and 'shape', got "
            f"{sorted(map(repr, header)) if isinstance(header, dict) else type(header).__name__}",
            hint=damaged,
        )
    shape, fortran_order = header["shape"], header["fortran_order"]
    if not isinstance(shape, tuple) or not all(type(size) is int and size >= 0 for size in shape):
        raise DataFileError(f"{where}: its header's shape {shape!r} is not a tuple of sizes >= 0", hint=damaged)
    if not isinstance(fortran_order, bool):
        raise DataFileError(f"{where}: its header's fortran_order {fortran_order!r} is not True or False", hint=damaged)
    # What numpy can hold: at most 64 axes, and every size (and their product) within its index type.
    if len(shape) > MAX_NPY_DIMENSIONS:
        raise DataFileError(
            f"{where}: its header's shape has {len(shape)} axes; numpy arrays have at most {MAX_NPY_DIMENSIONS}",
            hint=damaged,
        )
    limit = np.iinfo(np.intp).max
    if any(size > limit for size in shape) or math.prod(size for size in shape if size) > limit:
        raise DataFileError(f"{where}: its header's shape {shape!r} is larger than any array can be", hint=damaged)
    dtype = _npy_dtype(header["descr"], where, damaged)
    return dtype, shape, fortran_order, offset


def _npy_dtype(descr: Any, where: str, damaged: str) -> np.dtype:
    if _holds_objects(descr):
        raise DataFileError(
            f"{where} holds Python objects (dtype {descr!r}), which numpy stores pickled; opbridge reads arrays "
            "of numbers only, and does not unpickle (unpickling runs code from the file)",
            hint="save a numeric array, e.g. numpy.save(path, numpy.asarray(values, dtype=numpy.float32))",
        )
    try:
        dtype = np.lib.format.descr_to_dtype(descr)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError, SyntaxError, RecursionError, MemoryError):
        raise DataFileError(f"{where}: its header's dtype {descr!r} is not a numpy dtype", hint=damaged) from None
    if dtype.hasobject:
        raise DataFileError(f"{where} holds Python objects (dtype {dtype}), stored pickled", hint=SAVE_NPY_HINT)
    if dtype.kind not in NUMERIC_KINDS or dtype.itemsize == 0:
        raise DataFileError(
            f"{where} holds {dtype} data; opbridge reads arrays of numbers (bool, integers, floats)",
            hint=SAVE_NPY_HINT,
        )
    return dtype


def _holds_objects(descr: Any) -> bool:
    """Whether a header's descr names object fields ('|O', or 'O' inside a structured descr)."""
    if isinstance(descr, str):
        return descr.lstrip("|<>=").startswith("O")
    if isinstance(descr, list | tuple):
        return any(_holds_objects(item) for item in descr)
    return False


def _npy_type(dtype: np.dtype, shape: tuple[int, ...]) -> str:
    return f"{dtype}{list(shape)}"


def npy_path(path: pathlib.Path | str) -> pathlib.Path:
    """The file numpy.save (and write_npy) writes for `path`: it adds .npy to a name without it."""
    path = pathlib.Path(path)
    return path if path.suffix == ".npy" else path.with_name(path.name + ".npy")


def check_npy_output(path: pathlib.Path | str, *, role: str = ".npy file") -> pathlib.Path:
    """The file write_npy would write for `path`, after checking it can be: not a folder, in an existing
    folder the user can write. For checking every output before a long run."""
    written = npy_path(path)
    where = f"{role} {written}"
    if written.is_dir():
        raise DataFileError(f"{where} is a folder; expected a file path", hint=f"pass {role} {written / 'out.npy'}")
    folder = written.parent
    if not folder.exists():
        raise DataFileError(
            f"{where} cannot be written: the folder {folder} does not exist",
            hint=f"create it first (mkdir -p {folder}), or pass a path in an existing folder",
        )
    if not folder.is_dir():
        raise DataFileError(f"{where} cannot be written: {folder} is a file, not a folder", hint="pass another path")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DataFileError(
            f"{where} cannot be written: the folder {folder} is not writable",
            hint=f"pass a path in a folder you can write, or make it writable (chmod u+wx {folder})",
        )
    return written


def write_npy(path: pathlib.Path | str, array: np.ndarray, *, role: str = ".npy file") -> pathlib.Path:
    """Saves `array` as numpy.save would and returns the path written (`path`, with .npy added when it has
    no such suffix). Written to a temporary file beside it and renamed: an error leaves no partial file."""
    written = check_npy_output(path, role=role)
    with _replacing(written, role) as temporary:
        np.save(temporary, np.asarray(array), allow_pickle=False)
    return written


@contextlib.contextmanager
def _replacing(path: pathlib.Path, role: str) -> Iterator[Any]:
    """A temporary file beside `path`, renamed onto it when the block succeeds, removed when it fails."""
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    except OSError as error:
        raise DataFileError(
            f"{role} {path} cannot be written: {error.strerror or error}",
            hint="pass a path on a file system you can write to, with free space",
        ) from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            yield file
        os.replace(temporary, path)
    except OSError as error:
        raise DataFileError(
            f"{role} {path} cannot be written: {error.strerror or error}",
            hint="pass a path on a file system you can write to, with free space",
        ) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


# ---------------------------------------------------------------------------------------------------- .wav


@dataclasses.dataclass(frozen=True)
class WavClip:
    """A WAV file's audio: int16 samples [frames, channels] and their rate."""

    samples: np.ndarray
    sample_rate: int

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def seconds(self) -> float:
        return self.samples.shape[0] / self.sample_rate


@dataclasses.dataclass(frozen=True)
class _WavFormat:
    code: int
    channels: int
    sample_rate: int
    block_align: int
    bits: int


def read_wav(
    path: pathlib.Path | str, *, sample_rate: int | None = None, channels: int | None = None, role: str = "WAV file"
) -> WavClip:
    """The audio of the 16-bit PCM WAV file `path`, checked whole: the RIFF/WAVE header, the fmt chunk
    (16-bit PCM; `sample_rate` and `channels` when given) and that the data chunk is all in the file."""
    path = pathlib.Path(path)
    data = read_file_bytes(path, role, ".wav")
    where = f"{role} {path}"
    convert = sox_hint(path, sample_rate, channels)
    if not data:
        raise DataFileError(
            f"{where} is empty (0 bytes); expected a WAV file (RIFF/WAVE, 16-bit PCM)",
            hint="record, copy or export the clip again (an interrupted recording or copy leaves an empty file)",
        )
    if len(data) < 12 and b"RIFF".startswith(data[:4]):
        raise DataFileError(
            f"{where} is cut short inside its RIFF header ({len(data)} of 12 bytes)",
            hint="copy or export the whole clip again",
        )
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise DataFileError(f"{where} is not a WAV file: {_not_riff_wave(data)}", hint=convert)
    chunks = _wav_chunks(data, where)
    fmt = chunks.get(b"fmt ")
    if fmt is None:
        raise DataFileError(f"{where} has no fmt chunk before its data: the header is damaged", hint=convert)
    wav_format = _wav_format(data[fmt[0] : fmt[1]], where, convert)
    _check_wav_format(wav_format, where, convert, sample_rate, channels)
    if b"data" not in chunks:
        raise DataFileError(f"{where} has no data chunk (no audio)", hint=convert)
    start, end, declared = chunks[b"data"]
    if end - start < declared:
        seconds = declared / wav_format.block_align / wav_format.sample_rate
        raise DataFileError(
            f"{where} is cut short: its data chunk declares {declared} bytes ({seconds:.3f} s of audio), the file "
            f"holds {end - start}",
            hint="copy or export the whole clip again; a partial copy or download is cut like this",
        )
    if declared % wav_format.block_align:
        raise DataFileError(
            f"{where}: its data chunk of {declared} bytes is not a whole number of {wav_format.block_align}-byte "
            "frames (damaged)",
            hint=convert,
        )
    samples = np.frombuffer(data, dtype="<i2", count=declared // 2, offset=start).astype(np.int16)
    return WavClip(samples.reshape(-1, wav_format.channels), wav_format.sample_rate)


def _not_riff_wave(data: bytes) -> str:
    if data[:4] == b"RIFX":
        return "it is a big-endian RIFX file; WAV audio is little-endian RIFF"
    if data[:4] == b"RF64":
        return "it is an RF64 (over 4 GiB) file; this reader takes RIFF WAV files"
    if data[:4] == b"RIFF":
        return f"it is a RIFF file of type {data[8:12]!r}, not 'WAVE'"
    known = {b"fLaC": "FLAC audio", b"OggS": "an Ogg file", b"ID3": "MP3 audio", b"FORM": "an AIFF file"}
    known[NPY_MAGIC] = "a .npy array"
    kind = next((name for magic, name in known.items() if data.startswith(magic)), None)
    found = f"it is {kind}" if kind else f"it starts with {data[:4]!r}"
    return f"{found}, not 'RIFF' ... 'WAVE'"


def _wav_chunks(data: bytes, where: str) -> dict[bytes, tuple[int, int, int]]:
    """The chunks up to and including the first data chunk: id -> (start, end in the file, declared size)."""
    chunks: dict[bytes, tuple[int, int, int]] = {}
    position = 12
    while position < len(data):
        if len(data) - position < 8:
            if b"data" in chunks:  # a stray byte or two after the audio (padding, a cut trailer): harmless
                break
            raise DataFileError(
                f"{where} is cut short: {len(data) - position} bytes at byte {position} where a chunk header "
                "(8 bytes) should be, and no data chunk before",
                hint="copy or export the whole clip again",
            )
        chunk_id = data[position : position + 4]
        (size,) = struct.unpack_from("<I", data, position + 4)
        start = position + 8
        end = min(start + size, len(data))
        if chunk_id == b"data":
            if b"fmt " not in chunks:
                raise DataFileError(
                    f"{where} has its data chunk before any fmt chunk: the header is damaged",
                    hint="export the clip again as a 16-bit PCM WAV",
                )
            chunks[chunk_id] = (start, end, size)
            return chunks  # what follows the audio (LIST, id3 chunks) is not read
        if start + size > len(data):
            raise DataFileError(
                f"{where} is cut short: its {chunk_id!r} chunk at byte {position} declares {size} bytes, the file "
                f"ends {len(data) - start} bytes after the chunk's header, before any audio",
                hint="copy or export the whole clip again",
            )
        chunks.setdefault(chunk_id, (start, end, size))
        position = start + size + (size & 1)  # chunks are padded to an even size
    return chunks


def _wav_format(fmt: bytes, where: str, convert: str) -> _WavFormat:
    if len(fmt) < 16:
        raise DataFileError(f"{where}: its fmt chunk has {len(fmt)} bytes, a WAV fmt chunk 16 or more", hint=convert)
    code, channels, rate, _, block_align, bits = struct.unpack_from("<HHIIHH", fmt)
    if code == WAV_EXTENSIBLE and len(fmt) >= 26:
        (code,) = struct.unpack_from("<H", fmt, 24)  # the sub-format GUID starts with the format code
    return _WavFormat(code, channels, rate, block_align, bits)


def _check_wav_format(
    wav_format: _WavFormat, where: str, convert: str, sample_rate: int | None, channels: int | None
) -> None:
    code, bits = wav_format.code, wav_format.bits
    found = f"{wav_format.channels}-channel, {bits}-bit, {wav_format.sample_rate} Hz"
    if code != WAV_PCM:
        kind = WAV_FORMATS.get(code, f"format code {code:#x}")
        raise DataFileError(f"{where} holds {kind} audio ({found}); expected 16-bit PCM", hint=convert)
    if bits != 16:
        raise DataFileError(f"{where} holds {bits}-bit PCM audio ({found}); expected 16-bit PCM", hint=convert)
    if wav_format.channels == 0 or wav_format.sample_rate == 0:
        raise DataFileError(f"{where}: its fmt chunk says {found}, which is no audio (damaged)", hint=convert)
    if wav_format.block_align != 2 * wav_format.channels:
        raise DataFileError(
            f"{where}: its fmt chunk says {found} in frames of {wav_format.block_align} bytes; 16-bit "
            f"{wav_format.channels}-channel frames have {2 * wav_format.channels} (damaged)",
            hint=convert,
        )
    if (channels is not None and wav_format.channels != channels) or (
        sample_rate is not None and wav_format.sample_rate != sample_rate
    ):
        wanted = [] if channels is None else ["mono" if channels == 1 else f"{channels}-channel"]
        wanted += ["16-bit"] + ([] if sample_rate is None else [f"{sample_rate} Hz"])
        raise DataFileError(f"{where} is {found}; expected {' '.join(wanted)} PCM", hint=convert)
