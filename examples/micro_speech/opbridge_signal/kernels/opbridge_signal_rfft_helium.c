/* SPDX-License-Identifier: Apache-2.0 */
/* SignalRfft, Helium variant (Cortex-M55): the innermost radix-4 stage fused with the leaf
 * copies, the other radix-4 stages and the split step, four complex values per vector (re, im
 * interleaved), with the same values as the portable code (opbridge_signal_rfft.c):
 *   - scale_down by w = floor(32767 / radix) in Q15: VQRDMULH.S16 is (2 x w + 2^15) >> 16 =
 *     (x w + 2^14) >> 15, rounded as round_q15 does; it cannot saturate (w < 2^15);
 *   - the twiddle product: VQRDMLSDH gives the real parts, round((a.r t.r - a.i t.i) / 2^15),
 *     VQRDMLADHX the imaginary ones, round((a.r t.i + a.i t.r) / 2^15), each sum of two products
 *     rounded once as in multiply (in range: scaled legs are at most 2^13 in magnitude, so no part
 *     reaches 2^14 and the saturating instructions never saturate);
 *   - dft4: VADD/VSUB.I16 wrap modulo 2^16 like the int16 stores, and VCADD by 270 and 90
 *     degrees is minus_i_times and plus_i_times;
 *   - the split step, whose twiddle products can leave the int16 range, forms each part's two
 *     products in int32 (VMULLB/VMULLT) and narrows them with VRSHRN, which rounds as round_q15
 *     does and wraps instead of saturating; VHADD/VHSUB halve the exact sum of two int16.
 * The stages read their twiddles contiguously (the plan lays each leg's out by position); the
 * first stage gathers its legs from the input by the plan's input_order, predicated so that
 * samples past input_length read as zero. */
#include "opbridge_signal_rfft_internal.h"

#if OPBRIDGE_KERNELS_HELIUM

#include <arm_mve.h>

/* The complex Q15 product of four values by four twiddles; `inactive` is any vector (both
 * instructions together write every lane). */
static inline int16x8_t turn(int16x8_t a, int16x8_t twiddle, int16x8_t inactive) {
  return vqrdmladhxq_s16(vqrdmlsdhq_s16(inactive, a, twiddle), a, twiddle);
}

static inline void dft4(int16x8_t *x0, int16x8_t *x1, int16x8_t *x2, int16x8_t *x3) {
  const int16x8_t even_sum = vaddq_s16(*x0, *x2);
  const int16x8_t even_difference = vsubq_s16(*x0, *x2);
  const int16x8_t odd_sum = vaddq_s16(*x1, *x3);
  const int16x8_t odd_difference = vsubq_s16(*x1, *x3);
  *x0 = vaddq_s16(even_sum, odd_sum);
  *x1 = vcaddq_rot270_s16(even_difference, odd_difference);
  *x2 = vsubq_s16(even_sum, odd_sum);
  *x3 = vcaddq_rot90_s16(even_difference, odd_difference);
}

int32_t opbridge_signal_rfft_variant_first_stage4(const opbridge_signal_rfft_plan *plan, const int16_t *input,
                                                  int32_t input_length, const int16_t *twiddles, int16_t *work) {
#if !defined(__OPTIMIZE__)
  /* Unoptimised builds (-O0, -c dbg) cannot give the assembly below the registers it asks for: there the
   * portable first stage runs. */
  (void)plan;
  (void)input;
  (void)input_length;
  (void)twiddles;
  (void)work;
  return 0;
#else
  const int32_t points = plan->fft_length / 2;
  /* Four blocks per step; the legs are gathered as words (a whole complex sample each) and the
   * outputs stored by VST4 of words, so the buffers must be word-aligned and input_length even
   * (an odd one ends in half a complex sample: the portable code pads it). */
  if (points % 16 != 0 || input_length % 2 != 0 || ((uintptr_t)input & 3u) != 0 || ((uintptr_t)work & 3u) != 0) {
    return 0;
  }
  for (int32_t leg = 0; leg < 3; ++leg) {
    if (twiddles[2 * leg] != OPBRIDGE_SIGNAL_RFFT_Q15_MAX || twiddles[2 * leg + 1] != 0) {
      return 0;
    }
  }
  /* Block b + j (lane j) has legs q = 0..3: complex input samples input_order[4 (b + j)] + q quarter,
   * read from input + q quarter where input_order[4 (b + j)] < whole - q quarter (whole: the complex
   * samples inside the input), else zero (the predicated-off lanes of a load are zeroed). */
  const int32_t quarter = points / 4;
  const int32_t whole = input_length / 2;
  const int32_t *const leaves0 = (const int32_t *)(const void *)input;
  const int32_t *const leaves1 = leaves0 + quarter;
  const int32_t *const leaves2 = leaves1 + quarter;
  const int32_t *const leaves3 = leaves2 + quarter;
  const int32_t limit0 = whole;
  const int32_t limit1 = whole - quarter;
  const int32_t limit2 = whole - 2 * quarter;
  const int32_t limit3 = whole - 3 * quarter;
  const int32_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4;
  const int32_t groups = points / 16;
  /* Halfword offsets of input_order[4 j] (j = 0..3), one per word lane. */
  const uint32x4_t order_offsets = vidupq_n_u32(0, 4);
  const uint16_t *order = plan->input_order;
  int16_t *out = work;
  /* In assembly: GCC 12 moves every predicate through a core register (three more instructions
   * per predicated load) and passes VST4's four registers through the stack. q4 holds the
   * leaves, then the even sum; q0..q3 the legs, then block b + j's four outputs (word j of q). */
  __asm__ volatile("   dls      lr, %[groups]\n"
                   "1: vldrh.u32 q4, [%[order], %q[order_offsets], uxtw #1]\n"
                   "   adds     %[order], %[order], #32\n"
                   "   vpt.s32  lt, q4, %[limit0]\n"
                   "   vldrwt.u32 q0, [%[leaves0], q4, uxtw #2]\n"
                   "   vpt.s32  lt, q4, %[limit1]\n"
                   "   vldrwt.u32 q1, [%[leaves1], q4, uxtw #2]\n"
                   "   vpt.s32  lt, q4, %[limit2]\n"
                   "   vldrwt.u32 q2, [%[leaves2], q4, uxtw #2]\n"
                   "   vpt.s32  lt, q4, %[limit3]\n"
                   "   vldrwt.u32 q3, [%[leaves3], q4, uxtw #2]\n"
                   "   vqrdmulh.s16 q0, q0, %[scale]\n"
                   "   vqrdmulh.s16 q1, q1, %[scale]\n"
                   "   vqrdmulh.s16 q2, q2, %[scale]\n"
                   "   vqrdmulh.s16 q3, q3, %[scale]\n"
                   "   vadd.i16 q4, q0, q2\n"             /* even sum */
                   "   vsub.i16 q5, q0, q2\n"             /* even difference */
                   "   vadd.i16 q6, q1, q3\n"             /* odd sum */
                   "   vsub.i16 q0, q1, q3\n"             /* odd difference */
                   "   vcadd.i16 q1, q5, q0, #270\n"      /* minus_i_times */
                   "   vcadd.i16 q3, q5, q0, #90\n"       /* plus_i_times */
                   "   vadd.i16 q0, q4, q6\n"
                   "   vsub.i16 q2, q4, q6\n"
                   "   vst40.32 {q0, q1, q2, q3}, [%[out]]\n"
                   "   vst41.32 {q0, q1, q2, q3}, [%[out]]\n"
                   "   vst42.32 {q0, q1, q2, q3}, [%[out]]\n"
                   "   vst43.32 {q0, q1, q2, q3}, [%[out]]!\n"
                   "   le       lr, 1b\n"
                   : [order] "+r"(order), [out] "+r"(out)
                   : [groups] "r"(groups), [order_offsets] "w"(order_offsets), [leaves0] "r"(leaves0),
                     [leaves1] "r"(leaves1), [leaves2] "r"(leaves2), [leaves3] "r"(leaves3), [limit0] "r"(limit0),
                     [limit1] "r"(limit1), [limit2] "r"(limit2), [limit3] "r"(limit3), [scale] "r"(scale)
                   : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "memory", "cc");
  return 1;
#endif
}

/* A radix-4 stage of span 4: one block per step, its twiddles the same for every block. */
static void stage4_span4(int16_t *work, int32_t stride, const int16_t *twiddles) {
  const int16_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4;
  int16_t *const work_end = work + 32 * stride;
  for (; work != work_end; work += 32) {
    const int16x8_t raw1 = vld1q_s16(work + 8);
    const int16x8_t raw2 = vld1q_s16(work + 16);
    const int16x8_t raw3 = vld1q_s16(work + 24);
    int16x8_t x0 = vqrdmulhq_n_s16(vld1q_s16(work), scale);
    int16x8_t x1 = turn(vqrdmulhq_n_s16(raw1, scale), vld1q_s16(twiddles), raw1);
    int16x8_t x2 = turn(vqrdmulhq_n_s16(raw2, scale), vld1q_s16(twiddles + 8), raw2);
    int16x8_t x3 = turn(vqrdmulhq_n_s16(raw3, scale), vld1q_s16(twiddles + 16), raw3);
    dft4(&x0, &x1, &x2, &x3);
    vst1q_s16(work, x0);
    vst1q_s16(work + 8, x1);
    vst1q_s16(work + 16, x2);
    vst1q_s16(work + 24, x3);
  }
}

/* A radix-4 stage of span 2 (after an innermost radix-2 stage: 256 and 1,024 points), two blocks a step:
 * leg q of blocks b and b + 1 is halfwords 4 q .. 4 q + 3 of each block's 16, gathered and scattered; its
 * twiddles (positions 0 and 1) repeat for the two blocks. 1 if done; 0 for an odd block count. */
static int32_t stage4_span2(int16_t *work, int32_t stride, const int16_t *twiddles) {
  const int16_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4;
  if (stride % 2 != 0) {
    return 0;
  }
  /* Halfword offsets of leg 0 in a pair of blocks: 0..3 and 16..19. */
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  const uint16x8_t leg0 = vaddq_u16(vandq_u16(lanes, vdupq_n_u16(3)), vmulq_n_u16(vshrq_n_u16(lanes, 2), 16));
  const uint16x8_t leg1 = vaddq_n_u16(leg0, 4);
  const uint16x8_t leg2 = vaddq_n_u16(leg0, 8);
  const uint16x8_t leg3 = vaddq_n_u16(leg0, 12);
  /* Leg q's two twiddles (halfwords 4 (q - 1) .. 4 (q - 1) + 3), once for each block of the pair. */
  const uint16x8_t repeat = vandq_u16(lanes, vdupq_n_u16(3));
  const int16x8_t turns1 = vldrhq_gather_shifted_offset_s16(twiddles, repeat);
  const int16x8_t turns2 = vldrhq_gather_shifted_offset_s16(twiddles + 4, repeat);
  const int16x8_t turns3 = vldrhq_gather_shifted_offset_s16(twiddles + 8, repeat);
  for (int32_t block = 0; block < stride; block += 2) {
    int16_t *const pair = work + 16 * block;
    const int16x8_t raw1 = vldrhq_gather_shifted_offset_s16(pair, leg1);
    const int16x8_t raw2 = vldrhq_gather_shifted_offset_s16(pair, leg2);
    const int16x8_t raw3 = vldrhq_gather_shifted_offset_s16(pair, leg3);
    int16x8_t x0 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(pair, leg0), scale);
    int16x8_t x1 = turn(vqrdmulhq_n_s16(raw1, scale), turns1, raw1);
    int16x8_t x2 = turn(vqrdmulhq_n_s16(raw2, scale), turns2, raw2);
    int16x8_t x3 = turn(vqrdmulhq_n_s16(raw3, scale), turns3, raw3);
    dft4(&x0, &x1, &x2, &x3);
    vstrhq_scatter_shifted_offset_s16(pair, leg0, x0);
    vstrhq_scatter_shifted_offset_s16(pair, leg1, x1);
    vstrhq_scatter_shifted_offset_s16(pair, leg2, x2);
    vstrhq_scatter_shifted_offset_s16(pair, leg3, x3);
  }
  return 1;
}

int32_t opbridge_signal_rfft_variant_stage2(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles) {
  /* The innermost radix-2 stage (span 1), four blocks a step: leg 0 of block b is complex value 2 b,
   * leg 1 complex value 2 b + 1. Its one twiddle is exp(0) = (32767, 0), and turning a leg scaled by
   * 16383 (below 2^14 in magnitude) by it changes nothing, so the legs are only scaled (checked). */
  const int16_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 2;
  if (span != 1 || stride % 4 != 0 || twiddles[0] != OPBRIDGE_SIGNAL_RFFT_Q15_MAX || twiddles[1] != 0) {
    return 0;
  }
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  /* Halfword offsets 0, 1, 4, 5, 8, 9, 12, 13 (leg 0 of four blocks) and 2 more (leg 1). */
  const uint16x8_t leg0 = vaddq_u16(vandq_u16(lanes, vdupq_n_u16(1)), vshlq_n_u16(vshrq_n_u16(lanes, 1), 2));
  const uint16x8_t leg1 = vaddq_n_u16(leg0, 2);
  for (int32_t block = 0; block < stride; block += 4) {
    int16_t *const values = work + 4 * block;
    const int16x8_t x0 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, leg0), scale);
    const int16x8_t x1 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, leg1), scale);
    vstrhq_scatter_shifted_offset_s16(values, leg0, vaddq_s16(x0, x1));
    vstrhq_scatter_shifted_offset_s16(values, leg1, vsubq_s16(x0, x1));
  }
  return 1;
}

int32_t opbridge_signal_rfft_variant_stage4(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles) {
  const int16_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4;
  if (span == 2) {
    return stage4_span2(work, stride, twiddles);
  }
  if (span % 4 != 0) {
    return 0;
  }
  if (span == 4) {
    stage4_span4(work, stride, twiddles);
    return 1;
  }
  /* Four consecutive positions k of one block per step: the legs are contiguous, and so are
   * the twiddles of each leg; each of the seven pointers steps by four complex values. */
  for (int32_t block = 0; block < stride; ++block) {
    int16_t *leg0 = work + 8 * span * block;
    int16_t *leg1 = leg0 + 2 * span;
    int16_t *leg2 = leg1 + 2 * span;
    int16_t *leg3 = leg2 + 2 * span;
    const int16_t *turns1 = twiddles;
    const int16_t *turns2 = twiddles + 2 * span;
    const int16_t *turns3 = twiddles + 4 * span;
    for (int32_t k = 0; k < span; k += 4) {
      const int16x8_t raw1 = vld1q_s16(leg1);
      const int16x8_t raw2 = vld1q_s16(leg2);
      const int16x8_t raw3 = vld1q_s16(leg3);
      int16x8_t x0 = vqrdmulhq_n_s16(vld1q_s16(leg0), scale);
      int16x8_t x1 = turn(vqrdmulhq_n_s16(raw1, scale), vld1q_s16(turns1), raw1);
      int16x8_t x2 = turn(vqrdmulhq_n_s16(raw2, scale), vld1q_s16(turns2), raw2);
      int16x8_t x3 = turn(vqrdmulhq_n_s16(raw3, scale), vld1q_s16(turns3), raw3);
      turns1 += 8;
      turns2 += 8;
      turns3 += 8;
      dft4(&x0, &x1, &x2, &x3);
      vst1q_s16(leg0, x0);
      vst1q_s16(leg1, x1);
      vst1q_s16(leg2, x2);
      vst1q_s16(leg3, x3);
      leg0 += 8;
      leg1 += 8;
      leg2 += 8;
      leg3 += 8;
    }
  }
  return 1;
}

/* KISS's leaf copies when the innermost stage is not fused with them (it is not radix 4, or the fused
 * first stage declined the buffers), four complex values a step: each lane's halfword offset is twice its
 * position's input_order entry plus its part, and lanes past input_length are zero (the predicated gather
 * zeroes them). 1 if done; 0 for the portable loop. */
int32_t opbridge_signal_rfft_variant_leaves(const opbridge_signal_rfft_plan *plan, const int16_t *input,
                                            int32_t input_length, int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  if (points % 4 != 0 || plan->fft_length > 0xFFFF) {
    return 0;
  }
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  const uint16x8_t complex_lane = vshrq_n_u16(lanes, 1);
  const uint16x8_t part = vandq_u16(lanes, vdupq_n_u16(1));
  for (int32_t position = 0; position < points; position += 4) {
    const uint16x8_t order = vldrhq_gather_shifted_offset_u16(plan->input_order + position, complex_lane);
    const uint16x8_t sample = vaddq_u16(vshlq_n_u16(order, 1), part);
    const mve_pred16_t inside = vcmphiq_u16(vdupq_n_u16((uint16_t)input_length), sample);
    vst1q_s16(work + 2 * position, vldrhq_gather_shifted_offset_z_s16(input, sample, inside));
  }
  return 1;
}

/* The twiddle product where it can leave the int16 range (the split step's differences reach
 * 2^15): each part's two products summed in int32 and narrowed by VRSHRN, which rounds as
 * round_q15 does and wraps instead of saturating. */
static inline int16x8_t turn_wrapping(int16x8_t a, int16x8_t twiddle) {
  const int16x8_t swapped = vrev32q_s16(a); /* (a.i, a.r) */
  const int32x4_t real = vsubq_s32(vmullbq_int_s16(a, twiddle), vmulltq_int_s16(a, twiddle));
  const int32x4_t imaginary = vaddq_s32(vmullbq_int_s16(swapped, twiddle), vmulltq_int_s16(swapped, twiddle));
  return vrshrntq_n_s32(vrshrnbq_n_s32(a, real, 15), imaginary, 15);
}

/* Four words at `addresses` - 16 (one per lane), and the addresses stepped down by 16 bytes: in
 * assembly, as GCC 12 issues its writeback intrinsics twice. */
static inline uint32x4_t gather_words_down(uint32x4_t *addresses) {
  uint32x4_t words;
  __asm__ volatile("vldrw.u32 %q0, [%q1, #-16]!" : "=&w"(words), "+w"(*addresses) : : "memory");
  return words;
}

static inline void scatter_words_down(uint32x4_t *addresses, uint32x4_t words) {
  __asm__ volatile("vstrw.32 %q1, [%q0, #-16]!" : "+w"(*addresses) : "w"(words) : "memory");
}

int32_t opbridge_signal_rfft_variant_split(const opbridge_signal_rfft_plan *plan, const int16_t *work,
                                           int16_t *output) {
  const int32_t points = plan->fft_length / 2;
  const int16_t scale = OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 2;
  /* Four bins per step; the mirrored bins are gathered and scattered as words (whole complex
   * values), so both buffers must be word-aligned. */
  if ((points / 2) % 4 != 0 || ((uintptr_t)work & 3u) != 0 || ((uintptr_t)output & 3u) != 0) {
    return 0;
  }
  /* DC and Nyquist from bin 0: its parts scaled, then summed and subtracted. */
  const int32_t dc_real = (int16_t)((work[0] * scale + OPBRIDGE_SIGNAL_RFFT_HALF_LSB) >> 15);
  const int32_t dc_imaginary = (int16_t)((work[1] * scale + OPBRIDGE_SIGNAL_RFFT_HALF_LSB) >> 15);
  output[0] = (int16_t)(dc_real + dc_imaginary);
  output[1] = 0;
  output[2 * points] = (int16_t)(dc_real - dc_imaginary);
  output[2 * points + 1] = 0;
  const uint16x8_t part = vandq_u16(vidupq_n_u16(0, 1), vdupq_n_u16(1));
  const mve_pred16_t real_lanes = vcmpeqq_n_u16(part, 0);
  /* (1, -1) per complex value: the conjugate, wrapping as the negation stored to int16 does. */
  const int16x8_t conjugate = vsubq_s16(vdupq_n_s16(1), vreinterpretq_s16_u16(vshlq_n_u16(part, 1)));
  /* Word lane j: the address of bin points - k - j (k = 1 first), plus one step of 16 bytes that
   * each gather or scatter takes off before its access (and writes back). */
  const uint32x4_t descending = vsubq_u32(vdupq_n_u32(16), vidupq_n_u32(0, 4));
  uint32x4_t mirrored_addresses = vaddq_u32(descending, vdupq_n_u32((uint32_t)(uintptr_t)(work + 2 * (points - 1))));
  uint32x4_t out_mirrored_addresses =
      vaddq_u32(descending, vdupq_n_u32((uint32_t)(uintptr_t)(output + 2 * (points - 1))));
  const int16_t *forward_values = work + 2;
  const int16_t *turns = plan->split_twiddles;
  int16_t *out_forward = output + 2;
  /* Bins k = 1 .. points / 2, four per step; the mirrored outputs are scattered after the
   * direct ones, so that bin points / 2, written by both, keeps the mirrored value as in KISS. */
  for (int32_t k = 1; k <= points / 2; k += 4) {
    const int16x8_t forward = vqrdmulhq_n_s16(vld1q_s16(forward_values), scale);
    const int16x8_t mirrored_raw = vreinterpretq_s16_u32(gather_words_down(&mirrored_addresses));
    const int16x8_t mirrored = vqrdmulhq_n_s16(vmulq_s16(mirrored_raw, conjugate), scale);
    const int16x8_t sum = vaddq_s16(forward, mirrored);
    const int16x8_t rotated = turn_wrapping(vsubq_s16(forward, mirrored), vld1q_s16(turns));
    vst1q_s16(out_forward, vhaddq_s16(sum, rotated));
    /* Real parts (sum - rotated) / 2, imaginary parts (rotated - sum) / 2. */
    const int16x8_t back = vpselq_s16(vhsubq_s16(sum, rotated), vhsubq_s16(rotated, sum), real_lanes);
    scatter_words_down(&out_mirrored_addresses, vreinterpretq_u32_s16(back));
    forward_values += 8;
    turns += 8;
    out_forward += 8;
  }
  return 1;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
