// tesseract's int8 LSTM matrix . vector product on WebAssembly SIMD: the counterpart of its
// SSE4.1/AVX2 kernels (src/arch/intsimdmatrix*.cpp). Compiled twice by
// scripts/build-tesseract.mjs: with -mrelaxed-simd the products run on
// i32x4.relaxed_dot_i8x16_i7x16_add_s, without it on plain SIMD128 (i32x4.dot_i16x8_s).
//
// Both compute every output as tesseract's generic code does: the exact int32 sum of
// weight x input, plus bias x 127, converted to float and multiplied by the row's scale. The
// integer sums are exact in every kernel, so results are bit for bit those of native tesseract.
//
// Weight layout (IntSimdMatrix::Init with the shape below): for each set of R registers of 4
// outputs, for each group of 4 inputs, 4 x R outputs x 4 weights; then the set's R x 4 biases.
#include <wasm_simd128.h>

#include <cstdint>
#include <cstring>

#include "intsimdmatrix.h"

namespace {

constexpr int kOutputsPerRegister = 4;
// The relaxed kernel keeps two sums a register of outputs (inputs above and below zero), so it
// works on at most 4 registers at a time: with 8, its 16 sums would not stay in registers.
#ifdef __wasm_relaxed_simd__
constexpr int kMaxOutputRegisters = 4;
#else
constexpr int kMaxOutputRegisters = 8;
#endif
constexpr int kInputsPerRegister = 16;
constexpr int kInputsPerGroup = 4;

template <int R>
inline void PartialMatrixDotVector(const int8_t *&wi, const float *&scales, const int8_t *u,
                                   int rounded_num_in, float *&v) {
  v128_t acc[R];
#ifdef __wasm_relaxed_simd__
  // relaxed_dot wants its second operand in [0, 127]: u = max(u, 0) - max(-u, 0), and each part
  // is multiplied by the weights. |u|, |w| <= 127, so the pairwise 16-bit sums (<= 2 x 127 x 127)
  // never saturate: the instruction is exact on every implementation.
  v128_t acc_neg[R];
  for (int r = 0; r < R; ++r) acc[r] = acc_neg[r] = wasm_i32x4_splat(0);
  const v128_t zero = wasm_i32x4_splat(0);
  for (int k = 0; k < rounded_num_in; k += kInputsPerGroup) {
    int32_t word;
    std::memcpy(&word, u + k, sizeof(word));
    const v128_t in = wasm_i32x4_splat(word);
    const v128_t in_pos = wasm_i8x16_max(in, zero);
    const v128_t in_neg = wasm_i8x16_max(wasm_i8x16_neg(in), zero);
    for (int r = 0; r < R; ++r) {
      const v128_t w = wasm_v128_load(wi);
      wi += 16;
      acc[r] = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(w, in_pos, acc[r]);
      acc_neg[r] = wasm_i32x4_relaxed_dot_i8x16_i7x16_add(w, in_neg, acc_neg[r]);
    }
  }
  for (int r = 0; r < R; ++r) acc[r] = wasm_i32x4_sub(acc[r], acc_neg[r]);
#else
  v128_t acc_hi[R];
  for (int r = 0; r < R; ++r) acc[r] = acc_hi[r] = wasm_i32x4_splat(0);
  for (int k = 0; k < rounded_num_in; k += kInputsPerGroup) {
    int32_t word;
    std::memcpy(&word, u + k, sizeof(word));
    // (u0 u1 u2 u3 u0 u1 u2 u3) as int16
    const v128_t in16 = wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(word));
    for (int r = 0; r < R; ++r) {
      const v128_t w = wasm_v128_load(wi);
      wi += 16;
      // lanes: (o0 u0+u1, o0 u2+u3, o1 u0+u1, o1 u2+u3) and the same for o2, o3
      acc[r] = wasm_i32x4_add(acc[r], wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(w), in16));
      acc_hi[r] = wasm_i32x4_add(acc_hi[r], wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(w), in16));
    }
  }
  for (int r = 0; r < R; ++r) {
    acc[r] = wasm_i32x4_add(wasm_i32x4_shuffle(acc[r], acc_hi[r], 0, 2, 4, 6),
                            wasm_i32x4_shuffle(acc[r], acc_hi[r], 1, 3, 5, 7));
  }
#endif
  const v128_t bias_scale = wasm_i32x4_splat(INT8_MAX);
  for (int r = 0; r < R; ++r) {
    int32_t bias;
    std::memcpy(&bias, wi, sizeof(bias));
    wi += kOutputsPerRegister;
    const v128_t b = wasm_i32x4_extend_low_i16x8(wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(bias)));
    const v128_t total = wasm_i32x4_add(acc[r], wasm_i32x4_mul(b, bias_scale));
    wasm_v128_store(v, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(total), wasm_v128_load(scales)));
    v += kOutputsPerRegister;
    scales += kOutputsPerRegister;
  }
}

void matrixDotVector(int dim1, int dim2, const int8_t *wi, const float *scales, const int8_t *u,
                     float *v) {
  const int num_out = dim1;
  const int num_in = dim2 - 1;
  const int rounded_num_in = tesseract::IntSimdMatrix::Roundup(num_in, kInputsPerGroup);
  const int rounded_num_out = tesseract::IntSimdMatrix::Roundup(num_out, kOutputsPerRegister);
  // v and scales hold rounded_num_out entries (WeightMatrix rounds them), as for AVX2.
  int output = 0;
  if (kMaxOutputRegisters == 8) {
    for (; output + 8 * kOutputsPerRegister <= rounded_num_out; output += 8 * kOutputsPerRegister) {
      PartialMatrixDotVector<8>(wi, scales, u, rounded_num_in, v);
    }
  }
  for (; output + 4 * kOutputsPerRegister <= rounded_num_out; output += 4 * kOutputsPerRegister) {
    PartialMatrixDotVector<4>(wi, scales, u, rounded_num_in, v);
  }
  if (output + 2 * kOutputsPerRegister <= rounded_num_out) {
    PartialMatrixDotVector<2>(wi, scales, u, rounded_num_in, v);
    output += 2 * kOutputsPerRegister;
  }
  if (output + kOutputsPerRegister <= rounded_num_out) {
    PartialMatrixDotVector<1>(wi, scales, u, rounded_num_in, v);
  }
}

}  // namespace

namespace lingoscan {
/** The kernel's IntSimdMatrix; ocr-lib.cpp installs it before a model is loaded. */
extern const tesseract::IntSimdMatrix kWasmIntSimdMatrix = {
    matrixDotVector, kOutputsPerRegister, kMaxOutputRegisters, kInputsPerRegister, kInputsPerGroup};
/** Which kernel this module was built with (reported by the engine's health check). */
#ifdef __wasm_relaxed_simd__
extern const char kKernelName[] = "relaxed-simd";
#else
extern const char kKernelName[] = "simd128";
#endif
}  // namespace lingoscan
