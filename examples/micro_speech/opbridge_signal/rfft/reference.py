# SPDX-License-Identifier: Apache-2.0
"""SignalRfft (int16) in NumPy, bit-exact with TFLM.

TFLM's int16 RFFT is KISS FFT v130 built with FIXED_POINT=16: a complex
FFT of half the length over the input's (even, odd) sample pairs, then a
split step that untangles the two real spectra. Everything is Q15 with
int16 storage, so exactness depends on reproducing, for every stored value:

- the twiddles, floor(0.5 + 32767 * cos/sin(phase)) from the host's double
  cos/sin (computed here with Python's `math`, i.e. the C library);
- the factorisation (radix 4 first, then 2, 3, 5; larger primes need KISS's
  generic butterfly, which TFLM's patched KISS cannot run: its temporary
  buffer allocator returns NULL);
- the per-stage scaling C_FIXDIV(x, p): x * (32767 // p), rounded (+2^14)
  and shifted right by 15 -- not an exact division;
- every Q15 product rounded the same way, and every store into an int16
  wrapping modulo 2^16 (sums are formed in int and then stored);
- the split step's halving, which shifts the int sum before storing.

The butterflies of one stage touch disjoint elements, so a stage is computed
for all its blocks at once; the order of stages is KISS's recursion order
(deepest first), which is all that matters for the result.
"""

import dataclasses
import functools
import math
from collections.abc import Callable

import numpy as np

from opbridge_signal.rfft.attributes import TENSOR_TYPE_INT16, RfftAttributes

_SAMPLE_MAX = 32767
_FRACTION_BITS = 15
_SUPPORTED_RADICES = (2, 3, 4, 5)


@dataclasses.dataclass(frozen=True)
class RfftPlan:
    """What KISS's kiss_fftr_alloc precomputes, for one fft_length."""

    fft_length: int
    # (radix, span) per stage, outermost first, in KISS's order (see _factor);
    # a stage of radix p and span m combines p transforms of length m.
    stages: tuple[tuple[int, int], ...]
    # int16 [complex_length, 2]: exp(-2 pi i k / complex_length) in Q15.
    twiddles: np.ndarray
    # int16 [complex_length // 2, 2]: the split step's twiddles in Q15.
    split_twiddles: np.ndarray
    # int64 [complex_length]: which complex input sample lands at each position before the first butterflies.
    input_order: np.ndarray

    @property
    def complex_length(self) -> int:
        return self.fft_length // 2

    @property
    def output_values(self) -> int:
        """int16 values per output frame: complex_length + 1 interleaved complex bins."""
        return 2 * (self.complex_length + 1)


def _q15(value: float) -> int:
    # KISS's KISS_FFT_COS/SIN: floor(.5 + SAMP_MAX * cos(phase)), stored in int16.
    return math.floor(0.5 + _SAMPLE_MAX * value)


def _factor(length: int) -> tuple[tuple[int, int], ...]:
    """The (radix, span) stages KISS splits a `length`-point FFT into, outermost first.

    The radices are the prime factors of `length` with its twos paired into
    fours: all the 4s first, then a 2 if one is left over, then the odd primes
    in ascending order, each repeated as often as it divides. A stage's span
    is what is left of `length` once its radix and all earlier ones are
    divided out, i.e. the length of the sub-transforms the stage combines.
    """
    rest = length
    twos = 0
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    radices = [4] * (twos // 2) + [2] * (twos % 2)
    # Trial division by odd numbers finds only primes: smaller primes are already gone.
    divisor = 3
    while divisor * divisor <= rest:
        while rest % divisor == 0:
            radices.append(divisor)
            rest //= divisor
        divisor += 2
    if rest > 1:
        radices.append(rest)  # a single prime above the square root
    stages = []
    span = length
    for radix in radices:
        span //= radix
        stages.append((radix, span))
    return tuple(stages)


@functools.cache
def rfft_plan(fft_length: int) -> RfftPlan:
    """The tables of an int16 RFFT of `fft_length`; ValueError if TFLM cannot run that length."""
    if fft_length < 4 or fft_length % 2:
        raise ValueError(f"SignalRfft: fft_length must be even and at least 4, got {fft_length}")
    if fft_length > 65536:
        raise ValueError(f"SignalRfft: fft_length {fft_length} is larger than 65536")
    complex_length = fft_length // 2
    stages = _factor(complex_length)
    unsupported = sorted({radix for radix, _ in stages} - set(_SUPPORTED_RADICES))
    if unsupported:
        raise ValueError(
            f"SignalRfft: fft_length {fft_length} needs KISS's generic radix-{unsupported[0]} butterfly, "
            "which TFLM cannot run; fft_length / 2 must have no prime factor above 5"
        )
    twiddles = np.array(
        [
            (_q15(math.cos(phase)), _q15(math.sin(phase)))
            for phase in (-2 * math.pi * k / complex_length for k in range(complex_length))
        ],
        dtype=np.int16,
    ).reshape(complex_length, 2)
    split_twiddles = np.array(
        [
            (_q15(math.cos(phase)), _q15(math.sin(phase)))
            for phase in (-math.pi * ((k + 1) / complex_length + 0.5) for k in range(complex_length // 2))
        ],
        dtype=np.int16,
    ).reshape(complex_length // 2, 2)
    # Mixed-radix digit reversal: KISS's recursion hands position q*m + r of a
    # stage (radix p, span m, input stride s) the sub-transform starting at input q*s.
    input_order = np.zeros(1, dtype=np.int64)
    stride = math.prod(radix for radix, _ in stages)
    for radix, _ in reversed(stages):
        stride //= radix
        input_order = (np.arange(radix, dtype=np.int64)[:, None] * stride + input_order[None, :]).ravel()
    return RfftPlan(fft_length, stages, twiddles, split_twiddles, input_order)


# --- Q15 arithmetic on int32 arrays that hold int16 values -----------------

# (real, imag), each an int32 array holding int16 values.
Complex = tuple[np.ndarray, np.ndarray]
# The twiddle a butterfly multiplies leg q by, for every position k of the stage's blocks.
TwiddleLookup = Callable[[int], Complex]


def _wrap(values: np.ndarray) -> np.ndarray:
    """A store into int16: keep the low 16 bits, two's complement."""
    return values.astype(np.int16).astype(np.int32)


def _round_q15(product: np.ndarray) -> np.ndarray:
    """KISS's sround: add half an LSB, shift right arithmetically by 15, store as int16."""
    return _wrap((product + (1 << (_FRACTION_BITS - 1))) >> _FRACTION_BITS)


def _scalar_multiply(a: np.ndarray, b: np.ndarray | int) -> np.ndarray:
    return _round_q15(a * b)


def _multiply_real(value: Complex, weight: int) -> Complex:
    """value * weight for a real Q15 weight: each part is its own rounded product."""
    return _scalar_multiply(value[0], weight), _scalar_multiply(value[1], weight)


def _divide(value: Complex, divisor: int) -> Complex:
    """Every stage's overflow guard: multiply by floor(32767 / divisor) in Q15, rounded like any product."""
    return _multiply_real(value, _SAMPLE_MAX // divisor)


def _complex_multiply(a: Complex, b: Complex) -> Complex:
    # Both products of a part are summed in int32 and rounded once.
    return _round_q15(a[0] * b[0] - a[1] * b[1]), _round_q15(a[0] * b[1] + a[1] * b[0])


def _add(a: Complex, b: Complex) -> Complex:
    return _wrap(a[0] + b[0]), _wrap(a[1] + b[1])


def _subtract(a: Complex, b: Complex) -> Complex:
    return _wrap(a[0] - b[0]), _wrap(a[1] - b[1])


def _plus_i_times(a: Complex, b: Complex) -> Complex:
    """a + i * b: a rotation by i is a swap of parts, exact, no Q15 product."""
    return _wrap(a[0] - b[1]), _wrap(a[1] + b[0])


def _minus_i_times(a: Complex, b: Complex) -> Complex:
    """a - i * b."""
    return _wrap(a[0] + b[1]), _wrap(a[1] - b[0])


# --- butterflies ----------------------------------------------------------
# `legs[q]` is (real, imag) of shape [frames, blocks, span]: element k of leg
# q of every block. `twiddle(q)` is the twiddle of leg q at each k. Each
# butterfly scales and twiddles its legs, then takes their small DFT.
#
# Stored sums wrap modulo 2^16, so a chain of additions gives the same int16
# however it is grouped; but a value that is then halved or multiplied must be
# the wrapped int16 TFLM has at that point, so the pair sums and differences
# are formed (and wrapped) first.


def _twiddled_legs(legs: list[Complex], twiddle: TwiddleLookup) -> list[Complex]:
    """The legs scaled down by the radix, and leg q turned by exp(-2 pi i q k / (radix * span))."""
    radix = len(legs)
    scaled = [_divide(leg, radix) for leg in legs]
    return [scaled[0]] + [_complex_multiply(leg, twiddle(q)) for q, leg in enumerate(scaled) if q]


def _root(plan: RfftPlan, turns: int, span: int, stride: int) -> tuple[int, int]:
    """exp(-2 pi i turns / radix) from the twiddle table (radix * span * stride is complex_length)."""
    real, imag = plan.twiddles[turns * stride * span]
    return int(real), int(imag)


def _butterfly_2(legs: list[Complex], twiddle: TwiddleLookup, span: int, stride: int, plan: RfftPlan) -> list[Complex]:
    first, second = _twiddled_legs(legs, twiddle)
    return [_add(first, second), _subtract(first, second)]


def _butterfly_4(legs: list[Complex], twiddle: TwiddleLookup, span: int, stride: int, plan: RfftPlan) -> list[Complex]:
    # The radix-4 roots are 1, -i, -1, i: only sums and differences of
    # opposite legs (0 and 2, 1 and 3), no products.
    x = _twiddled_legs(legs, twiddle)
    even_sum, even_difference = _add(x[0], x[2]), _subtract(x[0], x[2])
    odd_sum, odd_difference = _add(x[1], x[3]), _subtract(x[1], x[3])
    return [
        _add(even_sum, odd_sum),
        _minus_i_times(even_difference, odd_difference),
        _subtract(even_sum, odd_sum),
        _plus_i_times(even_difference, odd_difference),
    ]


def _butterfly_3(legs: list[Complex], twiddle: TwiddleLookup, span: int, stride: int, plan: RfftPlan) -> list[Complex]:
    # Bins 1 and 2 are x0 + cos(2 pi / 3) (x1 + x2) +- i Im(root1) (x1 - x2).
    # cos(2 pi / 3) is exactly -1/2: an arithmetic shift of the wrapped pair
    # sum; only Im(root1) goes through a Q15 product.
    _, root1_imag = _root(plan, 1, span, stride)
    x = _twiddled_legs(legs, twiddle)
    pair_sum, pair_difference = _add(x[1], x[2]), _subtract(x[1], x[2])
    cosine_terms = (_wrap(x[0][0] - (pair_sum[0] >> 1)), _wrap(x[0][1] - (pair_sum[1] >> 1)))
    sine_terms = _multiply_real(pair_difference, root1_imag)
    return [
        _add(x[0], pair_sum),
        _plus_i_times(cosine_terms, sine_terms),
        _minus_i_times(cosine_terms, sine_terms),
    ]


def _butterfly_5(legs: list[Complex], twiddle: TwiddleLookup, span: int, stride: int, plan: RfftPlan) -> list[Complex]:
    # Legs q and 5 - q turn by conjugate roots, so each pair enters through its
    # sum (times the real part of its root) and its difference (times the
    # imaginary part). Bins 1 and 4 turn the outer pair (1, 4) by root1 and the
    # inner pair (2, 3) by root2; bins 2 and 3 turn the outer pair by root2 and
    # the inner pair by conj(root1). Each product is rounded on its own.
    root1_real, root1_imag = _root(plan, 1, span, stride)
    root2_real, root2_imag = _root(plan, 2, span, stride)
    x = _twiddled_legs(legs, twiddle)
    outer_sum, outer_difference = _add(x[1], x[4]), _subtract(x[1], x[4])
    inner_sum, inner_difference = _add(x[2], x[3]), _subtract(x[2], x[3])
    cosine_terms1 = _add(x[0], _add(_multiply_real(outer_sum, root1_real), _multiply_real(inner_sum, root2_real)))
    sine_terms1 = _add(_multiply_real(outer_difference, root1_imag), _multiply_real(inner_difference, root2_imag))
    cosine_terms2 = _add(x[0], _add(_multiply_real(outer_sum, root2_real), _multiply_real(inner_sum, root1_real)))
    # conj(root1): subtract the rounded product; negating the weight would round differently.
    sine_terms2 = _subtract(_multiply_real(outer_difference, root2_imag), _multiply_real(inner_difference, root1_imag))
    return [
        _add(x[0], _add(outer_sum, inner_sum)),
        _plus_i_times(cosine_terms1, sine_terms1),
        _plus_i_times(cosine_terms2, sine_terms2),
        _minus_i_times(cosine_terms2, sine_terms2),
        _minus_i_times(cosine_terms1, sine_terms1),
    ]


_BUTTERFLIES = {2: _butterfly_2, 3: _butterfly_3, 4: _butterfly_4, 5: _butterfly_5}


def _complex_fft(real: np.ndarray, imag: np.ndarray, plan: RfftPlan) -> Complex:
    """KISS's kiss_fft over [frames, complex_length] int32 arrays holding int16 values."""
    frames, length = real.shape
    real, imag = real[:, plan.input_order], imag[:, plan.input_order]
    stride = length
    for radix, span in reversed(plan.stages):  # deepest stage first, as the recursion unwinds
        stride //= radix
        # Stage with input stride `stride` has `stride` blocks of radix * span elements.
        shape = (frames, stride, radix, span)
        real_blocks, imag_blocks = real.reshape(shape), imag.reshape(shape)
        legs = [(real_blocks[:, :, q, :], imag_blocks[:, :, q, :]) for q in range(radix)]
        positions = np.arange(span)

        def twiddle(leg: int, positions: np.ndarray = positions, stride: int = stride) -> Complex:
            table = plan.twiddles[leg * positions * stride].astype(np.int32)
            return table[:, 0], table[:, 1]

        outputs = _BUTTERFLIES[radix](legs, twiddle, span, stride, plan)
        real = np.stack([out[0] for out in outputs], axis=2).reshape(frames, length)
        imag = np.stack([out[1] for out in outputs], axis=2).reshape(frames, length)
    return real, imag


def _rfft_frames(frames: np.ndarray, plan: RfftPlan) -> np.ndarray:
    """int16 [frames, fft_length] -> int16 [frames, 2 * (complex_length + 1)]."""
    samples = frames.astype(np.int32)
    packed_real, packed_imag = _complex_fft(samples[:, 0::2], samples[:, 1::2], plan)
    count = plan.complex_length
    out_real = np.zeros((len(frames), count + 1), dtype=np.int32)
    out_imag = np.zeros((len(frames), count + 1), dtype=np.int32)

    # DC and Nyquist from bin 0 (sum of even samples, sum of odd samples).
    dc_real, dc_imag = _divide((packed_real[:, 0], packed_imag[:, 0]), 2)
    out_real[:, 0] = _wrap(dc_real + dc_imag)
    out_real[:, count] = _wrap(dc_real - dc_imag)

    bins = np.arange(1, count // 2 + 1)
    if bins.size:
        forward = _divide((packed_real[:, bins], packed_imag[:, bins]), 2)
        mirrored = _divide((packed_real[:, count - bins], _wrap(-packed_imag[:, count - bins])), 2)
        total = _add(forward, mirrored)
        difference = _subtract(forward, mirrored)
        split_twiddles = plan.split_twiddles[bins - 1].astype(np.int32)
        rotated = _complex_multiply(difference, (split_twiddles[:, 0], split_twiddles[:, 1]))
        # HALF_OF of an int sum: shift before the int16 store. Bin count/2 is
        # written twice when count is even; the mirrored write (second) wins.
        out_real[:, bins] = (total[0] + rotated[0]) >> 1
        out_imag[:, bins] = (total[1] + rotated[1]) >> 1
        out_real[:, count - bins] = (total[0] - rotated[0]) >> 1
        out_imag[:, count - bins] = (rotated[1] - total[1]) >> 1

    output = np.empty((len(frames), 2 * (count + 1)), dtype=np.int16)
    output[:, 0::2] = out_real.astype(np.int16)
    output[:, 1::2] = out_imag.astype(np.int16)
    return output


def check_shapes(attributes: RfftAttributes, input_shape: tuple[int, ...]) -> RfftPlan:
    """The plan for `attributes`; ValueError unless TFLM can run them on `input_shape`."""
    if attributes.tensor_type != TENSOR_TYPE_INT16:
        raise ValueError(
            f"SignalRfft: only int16 (T={TENSOR_TYPE_INT16}) is implemented, got T={attributes.tensor_type}"
        )
    plan = rfft_plan(attributes.fft_length)
    if len(input_shape) < 1 or input_shape[-1] < 1:
        raise ValueError(f"SignalRfft: input shape {input_shape} has no samples")
    if input_shape[-1] > attributes.fft_length:
        raise ValueError(
            f"SignalRfft: input frames of {input_shape[-1]} are longer than fft_length {attributes.fft_length}"
        )
    return plan


def output_shape(attributes: RfftAttributes, input_shape: tuple[int, ...]) -> tuple[int, ...]:
    return (*input_shape[:-1], check_shapes(attributes, input_shape).output_values)


def reference(attributes: RfftAttributes, inputs: list[np.ndarray], state: np.ndarray | None) -> list[np.ndarray]:
    """int16 [..., L] (L <= fft_length, zero-padded) -> int16 [..., fft_length + 2], complex interleaved."""
    (samples,) = inputs
    plan = check_shapes(attributes, samples.shape)
    frames = np.zeros((int(np.prod(samples.shape[:-1], dtype=np.int64)), attributes.fft_length), dtype=np.int16)
    frames[:, : samples.shape[-1]] = np.asarray(samples, dtype=np.int16).reshape(-1, samples.shape[-1])
    return [_rfft_frames(frames, plan).reshape(output_shape(attributes, samples.shape))]


def scratch_bytes(attributes: RfftAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    # The complex FFT's output (complex_length int16 pairs) before the split step.
    return 2 * attributes.fft_length


def persistent_bytes(attributes: RfftAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0
