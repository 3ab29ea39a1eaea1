/* SPDX-License-Identifier: Apache-2.0 */
/* The folded int8 forms' planes (Helium): one output channel at a time over windows whose bytes are
 * contiguous, each output a dot product along them, a 16-byte load and one VMLADAVA.S8 per 16 bytes
 * (a 3x3 window takes one of each, a 7x7 four). DEPTHWISE_CONV_2D's planar path copies each channel's
 * window columns into a plane (opbridge_depthwise_conv_2d_s8_folded_planar); a 1x1 CONV_2D's windows
 * are the input's own positions (opbridge_conv_2d_s8_folded_pointwise_by_channel). */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

/* The window at r1 against the weights in q0..q(V-1) into S (an even register: VMLADAV's), r1
 * then advanced to the next window by LOAD, the load of the window's first 16 bytes into q4: by
 * its own post-increment where the step is a constant (OPBRIDGE_PLANE_STEP), else by r3. */
#define OPBRIDGE_PLANE_STEP(STEP) "   vldrb.u8 q4, [r1], #" #STEP "\n"
#define OPBRIDGE_PLANE_ANY_STEP "   vldrb.u8 q4, [r1]\n   add     r1, r1, r3\n"
#define OPBRIDGE_PLANE_DOT_1(S, LOAD) LOAD "   vmlav.s8 " S ", q4, q0\n"
#define OPBRIDGE_PLANE_DOT_2(S, LOAD) \
  "   vldrb.u8 q6, [r1, #16]\n" LOAD "   vmlav.s8 " S ", q6, q1\n   vmlava.s8 " S ", q4, q0\n"
#define OPBRIDGE_PLANE_DOT_3(S, LOAD)                                               \
  "   vldrb.u8 q6, [r1, #16]\n   vmlav.s8 " S ", q6, q1\n   vldrb.u8 q6, [r1, #32]\n" \
  "   vmlava.s8 " S ", q6, q2\n" LOAD "   vmlava.s8 " S ", q4, q0\n"
#define OPBRIDGE_PLANE_DOT_4(S, LOAD)                                               \
  "   vldrb.u8 q6, [r1, #16]\n   vmlav.s8 " S ", q6, q1\n   vldrb.u8 q6, [r1, #32]\n" \
  "   vmlava.s8 " S ", q6, q2\n   vldrb.u8 q6, [r1, #48]\n   vmlava.s8 " S ", q6, q3\n" LOAD   \
  "   vmlava.s8 " S ", q4, q0\n"
#define OPBRIDGE_PLANE_POSITION(V, LOAD, S, LANE) OPBRIDGE_PLANE_DOT_##V(S, LOAD) "   vmov.32 q5[" LANE "], " S "\n"
#define OPBRIDGE_PLANE_FOUR(V, LOAD)                                                                           \
  OPBRIDGE_PLANE_POSITION(V, LOAD, "r0", "0")                                                                \
  OPBRIDGE_PLANE_POSITION(V, LOAD, "r2", "1")                                                                \
  OPBRIDGE_PLANE_POSITION(V, LOAD, "r0", "2") OPBRIDGE_PLANE_POSITION(V, LOAD, "r2", "3")

/* The output stage of four sums (q5), as opbridge_lanes_requantize with the channel's constants
 * in general registers: bias r7, left shift r8, multiplier r9, rounding fix r10 (acc - 1 where
 * acc < 0 and the shift is right: VQRDMULH never returns INT32_MIN, so the subtraction cannot
 * wrap), right shift r11, offset r12; then the clamp (below). */
#define OPBRIDGE_PLANE_STAGE(CLAMP, LEFT) \
  "   vadd.i32 q5, q5, r7\n" LEFT         \
  "   vqrdmulh.s32 q5, q5, r9\n"           \
  "   vshr.s32 q6, q5, #31\n"              \
  "   vmla.s32 q5, q6, r10\n"              \
  "   vrshl.s32 q5, r11\n"                 \
  "   vadd.i32 q5, q5, r12\n" CLAMP
#define OPBRIDGE_PLANE_LEFT_SHIFT "   vshl.s32 q5, r8\n"
/* The clamp's bounds in q2 and q3 (one or two weight vectors), the upper one loaded (three), both
 * loaded (four: every other vector register is taken). */
#define OPBRIDGE_PLANE_BOUNDS_1 "   vldrw.32 q2, [r6, #64]\n   vldrw.32 q3, [r6, #80]\n"
#define OPBRIDGE_PLANE_BOUNDS_2 OPBRIDGE_PLANE_BOUNDS_1
#define OPBRIDGE_PLANE_BOUNDS_3 "   vldrw.32 q3, [r6, #64]\n"
#define OPBRIDGE_PLANE_BOUNDS_4 ""
#define OPBRIDGE_PLANE_CLAMP_1 "   vmax.s32 q5, q5, q2\n   vmin.s32 q5, q5, q3\n"
#define OPBRIDGE_PLANE_CLAMP_2 OPBRIDGE_PLANE_CLAMP_1
#define OPBRIDGE_PLANE_CLAMP_3 "   vmax.s32 q5, q5, q3\n   vldrw.32 q6, [r6, #80]\n   vmin.s32 q5, q5, q6\n"
#define OPBRIDGE_PLANE_CLAMP_4                                                                       \
  "   vldrw.32 q6, [r6, #64]\n   vmax.s32 q5, q5, q6\n   vldrw.32 q6, [r6, #80]\n   vmin.s32 q5, q5, q6\n"
/* The weights in the plane's order for the row's slot rotation: each vector gathered from the
 * channel's taps (r0) by byte offsets (r1). */
#define OPBRIDGE_PLANE_WEIGHTS_1 "   vldrb.u8 q4, [r1]\n   vldrb.u8 q0, [r0, q4]\n"
#define OPBRIDGE_PLANE_WEIGHTS_2 OPBRIDGE_PLANE_WEIGHTS_1 "   vldrb.u8 q4, [r1, #16]\n   vldrb.u8 q1, [r0, q4]\n"
#define OPBRIDGE_PLANE_WEIGHTS_3 OPBRIDGE_PLANE_WEIGHTS_2 "   vldrb.u8 q4, [r1, #32]\n   vldrb.u8 q2, [r0, q4]\n"
#define OPBRIDGE_PLANE_WEIGHTS_4 OPBRIDGE_PLANE_WEIGHTS_3 "   vldrb.u8 q4, [r1, #48]\n   vldrb.u8 q3, [r0, q4]\n"

/* Rows y .. y_end - 1 copied into their slots (state kept in the job): each a tail-predicated
 * loop of a gather (8 columns of the input row, `channels` apart) and a scatter (filter height
 * apart), or of a scatter of the zero point for a row outside the input (its products cancel the
 * folded bias's share of those taps, as TFLite Micro's skipping them does). Leaves the slot of
 * y_end, which is the current window's first row's (its rotation), in r3. */
#define OPBRIDGE_PLANE_COPY_ROWS        \
  "   ldr     r1, [r6, #112]\n"        \
  "   ldr     r3, [r6, #120]\n"        \
  "   ldr     r2, [r6, #116]\n"        \
  "   cmp     r1, r2\n"                \
  "   bge     7f\n"                    \
  "   ldr     r4, [r6, #124]\n"        \
  "   ldr     r5, [r6, #140]\n"        \
  "   ldrd    r7, r12, [r6, #128]\n"   \
  "   ldr     r8, [r6, #136]\n"        \
  "   ldrd    r11, r9, [r6, #144]\n"   \
  "   ldr     r10, [r6, #152]\n"       \
  "   vldrw.32 q0, [r6, #176]\n"       \
  "   vldrw.32 q1, [r6, #192]\n"       \
  "   vldrw.32 q2, [r6, #208]\n"       \
  "4: add     r0, r5, r3\n"            \
  "   cmp     r1, r7\n"                \
  "   bhs     3f\n"                    \
  "   mov     r2, r4\n"                \
  "   wlstp.16 lr, r8, 2f\n"           \
  "1: vldrb.s16 q3, [r2, q0]\n"        \
  "   add     r2, r2, r9\n"            \
  "   vstrb.16 q3, [r0, q1]\n"         \
  "   add     r0, r0, r10\n"           \
  "   letp    lr, 1b\n"                \
  "   b       2f\n"                    \
  "3: wlstp.16 lr, r8, 2f\n"           \
  "5: vstrb.16 q2, [r0, q1]\n"         \
  "   add     r0, r0, r10\n"           \
  "   letp    lr, 5b\n"                \
  "2: adds    r1, r1, #1\n"            \
  "   add     r4, r4, r12\n"           \
  "   adds    r3, r3, #1\n"            \
  "   cmp     r3, r11\n"               \
  "   it      eq\n"                    \
  "   moveq   r3, #0\n"                \
  "   ldr     r2, [r6, #116]\n"        \
  "   cmp     r1, r2\n"                \
  "   blt     4b\n"                    \
  "   str     r1, [r6, #112]\n"        \
  "   str     r3, [r6, #120]\n"        \
  "   str     r4, [r6, #124]\n"        \
  "7:\n"

/* Naked: it takes every general register (the channel's six constants, the window, the
 * destination, two sums); it saves what AAPCS asks. For each output row: its new input rows
 * copied (above), the weights gathered for the row's slot rotation, then per group of four
 * positions (2 V + 2) x 4 instructions (one fewer a position with a constant step), 10 for the
 * stage (11 or 12 with bounds loaded), 2 for the store and 1 for the loop; the row's last 1 to 3
 * positions run as a group whose store is predicated (the plane holds the windows past them:
 * opbridge_depthwise_planar_call_valid). */
#define OPBRIDGE_PLANE_CHANNEL(NAME, V, FOUR, LEFT)                                                           \
  static void __attribute__((naked, noinline)) NAME(opbridge_plane_channel_job *job __attribute__((unused))) { \
    __asm__ volatile("   push    {r4-r11, lr}\n"                                                      \
                     "   vpush   {d8-d15}\n"                                                          \
                     "   mov     r6, r0\n"                                                            \
                     "0:\n" OPBRIDGE_PLANE_COPY_ROWS                                                  \
                     "   ldr     r0, [r6, #160]\n"                                                    \
                     "   ldr     r1, [r6, #52]\n"                                                     \
                     "   mla     r1, r3, r0, r1\n"                                                    \
                     "   ldr     r0, [r6, #48]\n" OPBRIDGE_PLANE_WEIGHTS_##V OPBRIDGE_PLANE_BOUNDS_##V  \
                     "   vldrw.32 q7, [r6, #96]\n"                                                    \
                     "   ldrd    r1, r3, [r6, #0]\n"                                                  \
                     "   ldrd    r5, r4, [r6, #8]\n"                                                  \
                     "   ldrd    r7, r8, [r6, #24]\n"                                                 \
                     "   ldrd    r9, r10, [r6, #32]\n"                                                \
                     "   ldrd    r11, r12, [r6, #40]\n"                                               \
                     "   ldr     lr, [r6, #16]\n"                                                     \
                     "   wls     lr, lr, 9f\n"                                                        \
                     "8:\n" FOUR OPBRIDGE_PLANE_STAGE(OPBRIDGE_PLANE_CLAMP_##V, LEFT) \
                     "   vstrb.32 q5, [r5, q7]\n"                                                     \
                     "   add     r5, r5, r4\n"                                                        \
                     "   le      lr, 8b\n"                                                            \
                     "9: ldr     r0, [r6, #20]\n"                                                     \
                     "   cmp     r0, #0\n"                                                            \
                     "   beq     6f\n" FOUR OPBRIDGE_PLANE_STAGE(OPBRIDGE_PLANE_CLAMP_##V, LEFT) \
                     "   ldr     r0, [r6, #20]\n"                                                     \
                     "   vctp.32 r0\n"                                                                \
                     "   vpst\n"                                                                      \
                     "   vstrbt.32 q5, [r5, q7]\n"                                                    \
                     "6: ldrd    r0, r1, [r6, #56]\n"                                                 \
                     "   ldr     r2, [r6, #8]\n"                                                      \
                     "   add     r2, r2, r1\n"                                                        \
                     "   str     r2, [r6, #8]\n"                                                      \
                     "   ldr     r2, [r6, #116]\n"                                                    \
                     "   ldr     r1, [r6, #156]\n"                                                    \
                     "   add     r2, r2, r1\n"                                                        \
                     "   str     r2, [r6, #116]\n"                                                    \
                     "   subs    r0, r0, #1\n"                                                        \
                     "   str     r0, [r6, #56]\n"                                                     \
                     "   bne     0b\n"                                                                \
                     "   vpop    {d8-d15}\n"                                                          \
                     "   pop     {r4-r11, pc}\n");                                                    \
  }

/* Each function twice: for channels that rescale by a left shift, and (without the VSHL, one
 * instruction per four outputs) for the others. */
#define OPBRIDGE_PLANE_CHANNELS(NAME, V, FOUR)  \
  OPBRIDGE_PLANE_CHANNEL(NAME, V, FOUR, "")    \
  OPBRIDGE_PLANE_CHANNEL(NAME##_shifting_left, V, FOUR, OPBRIDGE_PLANE_LEFT_SHIFT)

/* Any step, and the steps of square 3x3, 5x5 and 7x7 windows at strides 1 and 2 (the post-increment
 * saves an instruction a position). */
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel1, 1, OPBRIDGE_PLANE_FOUR(1, OPBRIDGE_PLANE_ANY_STEP))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel2, 2, OPBRIDGE_PLANE_FOUR(2, OPBRIDGE_PLANE_ANY_STEP))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel3, 3, OPBRIDGE_PLANE_FOUR(3, OPBRIDGE_PLANE_ANY_STEP))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel4, 4, OPBRIDGE_PLANE_FOUR(4, OPBRIDGE_PLANE_ANY_STEP))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel1_step3, 1, OPBRIDGE_PLANE_FOUR(1, OPBRIDGE_PLANE_STEP(3)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel1_step6, 1, OPBRIDGE_PLANE_FOUR(1, OPBRIDGE_PLANE_STEP(6)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel2_step5, 2, OPBRIDGE_PLANE_FOUR(2, OPBRIDGE_PLANE_STEP(5)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel2_step10, 2, OPBRIDGE_PLANE_FOUR(2, OPBRIDGE_PLANE_STEP(10)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel4_step7, 4, OPBRIDGE_PLANE_FOUR(4, OPBRIDGE_PLANE_STEP(7)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel4_step14, 4, OPBRIDGE_PLANE_FOUR(4, OPBRIDGE_PLANE_STEP(14)))
/* and the depths of the 1x1 layers of MobileNet v2 and MCUNet-like blocks (16, 24, 32 and 48 channels) */
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel1_step16, 1, OPBRIDGE_PLANE_FOUR(1, OPBRIDGE_PLANE_STEP(16)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel2_step24, 2, OPBRIDGE_PLANE_FOUR(2, OPBRIDGE_PLANE_STEP(24)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel2_step32, 2, OPBRIDGE_PLANE_FOUR(2, OPBRIDGE_PLANE_STEP(32)))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel3_step48, 3, OPBRIDGE_PLANE_FOUR(3, OPBRIDGE_PLANE_STEP(48)))

/* Windows of at most 8 bytes (1x1 convolutions over 1 to 8 channels): each 16-byte load holds two
 * neighbouring positions, whose sums take the weights in lanes 0-7 (q0) and in the lanes after the
 * first position's bytes (q1), zero elsewhere; LOAD advances r1 by two positions. */
#define OPBRIDGE_PLANE_PAIR(LOAD, FIRST, SECOND)                                                       \
  LOAD "   vmlav.s8 r0, q4, q0\n   vmlav.s8 r2, q4, q1\n   vmov.32 q5[" FIRST "], r0\n"                \
       "   vmov.32 q5[" SECOND "], r2\n"
#define OPBRIDGE_PLANE_FOUR_IN_PAIRS(LOAD) OPBRIDGE_PLANE_PAIR(LOAD, "0", "1") OPBRIDGE_PLANE_PAIR(LOAD, "2", "3")
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel_pairs, 2, OPBRIDGE_PLANE_FOUR_IN_PAIRS(OPBRIDGE_PLANE_ANY_STEP))
OPBRIDGE_PLANE_CHANNELS(opbridge_plane_channel_pairs_step16, 2, OPBRIDGE_PLANE_FOUR_IN_PAIRS(OPBRIDGE_PLANE_STEP(16)))

opbridge_plane_channel_fn opbridge_plane_pairs_of(int32_t step, int32_t left_shift) {
  if (step == 16) {
    return left_shift ? opbridge_plane_channel_pairs_step16_shifting_left : opbridge_plane_channel_pairs_step16;
  }
  return left_shift ? opbridge_plane_channel_pairs_shifting_left : opbridge_plane_channel_pairs;
}

opbridge_plane_channel_fn opbridge_plane_channel_of(int32_t vectors, int32_t step, int32_t left_shift) {
  static const struct {
    int32_t vectors;
    int32_t step;
    opbridge_plane_channel_fn run[2]; /* without, with the left shift */
  } stepped[] = {
      {1, 3, {opbridge_plane_channel1_step3, opbridge_plane_channel1_step3_shifting_left}},
      {1, 6, {opbridge_plane_channel1_step6, opbridge_plane_channel1_step6_shifting_left}},
      {2, 5, {opbridge_plane_channel2_step5, opbridge_plane_channel2_step5_shifting_left}},
      {2, 10, {opbridge_plane_channel2_step10, opbridge_plane_channel2_step10_shifting_left}},
      {4, 7, {opbridge_plane_channel4_step7, opbridge_plane_channel4_step7_shifting_left}},
      {4, 14, {opbridge_plane_channel4_step14, opbridge_plane_channel4_step14_shifting_left}},
      {1, 16, {opbridge_plane_channel1_step16, opbridge_plane_channel1_step16_shifting_left}},
      {2, 24, {opbridge_plane_channel2_step24, opbridge_plane_channel2_step24_shifting_left}},
      {2, 32, {opbridge_plane_channel2_step32, opbridge_plane_channel2_step32_shifting_left}},
      {3, 48, {opbridge_plane_channel3_step48, opbridge_plane_channel3_step48_shifting_left}},
  };
  const int32_t with_left = left_shift != 0;
  for (size_t i = 0; i < sizeof(stepped) / sizeof(stepped[0]); ++i) {
    if (stepped[i].vectors == vectors && stepped[i].step == step) {
      return stepped[i].run[with_left];
    }
  }
  static const opbridge_plane_channel_fn any_step[4][2] = {
      {opbridge_plane_channel1, opbridge_plane_channel1_shifting_left},
      {opbridge_plane_channel2, opbridge_plane_channel2_shifting_left},
      {opbridge_plane_channel3, opbridge_plane_channel3_shifting_left},
      {opbridge_plane_channel4, opbridge_plane_channel4_shifting_left},
  };
  return any_step[vectors - 1][with_left];
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
