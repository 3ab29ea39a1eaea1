/* SPDX-License-Identifier: Apache-2.0 */
/* ADD and SUB's table form (opbridge_add_s8_table), Helium (MVE) variant for the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

/* Four elements per step: widening byte loads, a gather from each table (the byte, sign-extended,
 * is the word offset from entry 128: the address arithmetic wraps to the entry below it), the
 * sum, then the output stage with the right shift only (ADD's output_shift is never positive). */
int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *caller_params, const int8_t *input1,
                              const int8_t *input2, int8_t *output) {
  if (!opbridge_add_table_call_valid(caller_params, input1, input2, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_add_s8_table_params params = *caller_params;
  const int32_t *table1 = params.input1_table + 128;
  const int32_t *table2 = params.input2_table + 128;
  const int32x4_t right = vdupq_n_s32(params.output_shift);
  const int32x4_t round_down = vdupq_n_s32(params.output_shift < 0 ? -1 : 0);
  const int32x4_t minimum = vdupq_n_s32(params.activation_min);
  const int32x4_t maximum = vdupq_n_s32(params.activation_max);
  /* Whole groups of four without predication (GCC 12 puts a VPST before each predicated
   * instruction in a loop), then the rest. */
  int32_t remaining = params.count;
  for (; remaining >= 4; remaining -= 4) {
    const uint32x4_t first = vreinterpretq_u32_s32(vldrbq_s32(input1));
    const uint32x4_t second = vreinterpretq_u32_s32(vldrbq_s32(input2));
    int32x4_t sum = vaddq_s32(vldrwq_gather_shifted_offset_s32(table1, first),
                              vldrwq_gather_shifted_offset_s32(table2, second));
    sum = vqrdmulhq_n_s32(sum, params.output_multiplier);
    sum = vqaddq_s32(sum, vandq_s32(vshrq_n_s32(sum, 31), round_down));
    sum = vrshlq_s32(sum, right);
    sum = vaddq_n_s32(sum, params.output_offset);
    vstrbq_s32(output, vminq_s32(vmaxq_s32(sum, minimum), maximum));
    input1 += 4;
    input2 += 4;
    output += 4;
  }
  if (remaining > 0) {
    const mve_pred16_t lanes = vctp32q((uint32_t)remaining);
    const uint32x4_t first = vreinterpretq_u32_s32(vldrbq_z_s32(input1, lanes));
    const uint32x4_t second = vreinterpretq_u32_s32(vldrbq_z_s32(input2, lanes));
    int32x4_t sum = vaddq_s32(vldrwq_gather_shifted_offset_z_s32(table1, first, lanes),
                              vldrwq_gather_shifted_offset_z_s32(table2, second, lanes));
    sum = vqrdmulhq_n_s32(sum, params.output_multiplier);
    sum = vqaddq_s32(sum, vandq_s32(vshrq_n_s32(sum, 31), round_down));
    sum = vrshlq_s32(sum, right);
    sum = vaddq_n_s32(sum, params.output_offset);
    vstrbq_p_s32(output, vminq_s32(vmaxq_s32(sum, minimum), maximum), lanes);
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
