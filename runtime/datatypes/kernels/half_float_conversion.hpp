// float16 (IEEE binary16) and bfloat16 <-> float32 conversions for the reduction kernels.
//
// Included only by the per-ISA kernel files, inside the namespace named by HALYARD_KERNEL_ISA:
// every inline function here is compiled once per ISA with different target flags, and giving
// each copy its own namespace keeps the linker from merging an AVX copy into the portable path.
//
// Rounding is to nearest, ties to even. NaN stays NaN: a float32 NaN becomes a quiet half NaN
// that keeps the top payload bits, which is what the F16C instruction VCVTPS2PH does, so every
// ISA produces the same bits.
#pragma once

#ifndef HALYARD_KERNEL_ISA
#error "define HALYARD_KERNEL_ISA (the per-ISA namespace) before including this header"
#endif

#include <cstddef>
#include <cstdint>

#if defined(__F16C__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace halyard::kernels::HALYARD_KERNEL_ISA {

inline std::uint32_t float_bits(float f) {
  std::uint32_t bits;
  __builtin_memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float float_from_bits(std::uint32_t bits) {
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
}

// The conversions are branch-free (every case computed, one selected) so that loops over them
// vectorize even without F16C, e.g. with plain SSE2 in the portable kernels.
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t shifted = static_cast<std::uint32_t>(h & 0x7FFFu) << 13;  // float layout
  const std::uint32_t exponent = shifted & 0x0F800000u;
  const std::uint32_t normal = shifted + (112u << 23);           // rebias 15 -> 127
  const std::uint32_t infinity_or_nan = shifted + (224u << 23);  // all-ones exponent, payload kept
  // Subnormal (and zero): give the fraction the exponent of 2^-14, then subtract the implicit
  // 2^-14 again; float32 holds the result exactly.
  const float subnormal = float_from_bits(shifted + (113u << 23)) - float_from_bits(113u << 23);
  const std::uint32_t magnitude = exponent == 0x0F800000u ? infinity_or_nan
                                  : exponent == 0         ? float_bits(subnormal)
                                                          : normal;
  return float_from_bits(sign | magnitude);
}

inline std::uint16_t float_to_half(float f) {
  const std::uint32_t bits = float_bits(f);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  // NaN: quiet it and keep the top payload bits.
  const std::uint32_t nan = 0x7E00u | ((magnitude >> 13) & 0x3FFu);
  // Normal half (>= 2^-14): round to nearest even at bit 13, then rebias 127 -> 15. A carry out
  // of the fraction correctly bumps the exponent.
  const std::uint32_t normal =
      ((magnitude + 0xFFFu + ((magnitude >> 13) & 1u)) >> 13) - (112u << 10);
  // Below 2^-14: adding 0.5f puts the half's subnormal quantum (2^-24) at the last fraction bit
  // of the sum, so the float adder does the round-to-nearest-even; a carry into bit 10 yields
  // the smallest normal half, as it should.
  const std::uint32_t subnormal = float_bits(float_from_bits(magnitude) + 0.5f) - 0x3F000000u;
  const std::uint32_t result = magnitude > 0x7F800000u    ? nan
                               : magnitude >= 0x477FF000u ? 0x7C00u  // >= 65520: infinity
                               : magnitude >= 0x38800000u ? normal
                                                          : subnormal;
  return static_cast<std::uint16_t>(sign | result);
}

inline float bfloat16_to_float(std::uint16_t h) {
  return float_from_bits(static_cast<std::uint32_t>(h) << 16);
}

// Everything stays in 32-bit lanes until the final shift, which keeps the vectorized loop short.
inline std::uint16_t float_to_bfloat16(float f) {
  const std::uint32_t bits = float_bits(f);
  const std::uint32_t rounded = bits + 0x7FFFu + ((bits >> 16) & 1u);  // nearest, ties to even
  const std::uint32_t quiet_nan = bits | 0x00400000u;  // a NaN must not round into infinity
  return static_cast<std::uint16_t>((f != f ? quiet_nan : rounded) >> 16);
}

// Bulk conversions used by the blocked half-precision kernels. With F16C or AVX-512 the float16
// ones use the hardware converters for whole vectors and the functions above for the tail, which
// round identically (the tests compare every ISA against one reference).
struct Float16Format {
  // Elements widened at a time (see combine_half): two vectors with hardware conversions, a
  // larger block for the software ones, whose loops vectorize best over long runs.
#if defined(__F16C__) || defined(__AVX512F__)
  static constexpr std::size_t kBlock = 16;
#else
  static constexpr std::size_t kBlock = 512;
#endif
#if defined(__AVX512F__)
  // The zero-masked forms with every lane selected: GCC 12 flags the unmasked intrinsics'
  // internal undefined source as maybe-uninitialized.
  static constexpr __mmask16 kAllLanes = 0xFFFF;
#endif
  static void to_float(const std::uint16_t* in, float* out, std::size_t n) {
    std::size_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16) {
      const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
      _mm512_storeu_ps(out + i, _mm512_maskz_cvtph_ps(kAllLanes, h));
    }
#endif
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8) {
      const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
      _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
    }
#endif
    for (; i < n; ++i) out[i] = half_to_float(in[i]);
  }

  static void from_float(const float* in, std::uint16_t* out, std::size_t n) {
    std::size_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16) {
      const __m256i h =
          _mm512_maskz_cvtps_ph(kAllLanes, _mm512_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), h);
    }
#endif
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8) {
      const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), h);
    }
#endif
    for (; i < n; ++i) out[i] = float_to_half(in[i]);
  }
};

// No hardware converter is used (AVX-512 BF16 would be one): the conversions are a few integer
// operations that the compiler vectorizes best over long runs.
struct BFloat16Format {
  static constexpr std::size_t kBlock = 512;
  static void to_float(const std::uint16_t* in, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = bfloat16_to_float(in[i]);
  }
  static void from_float(const float* in, std::uint16_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = float_to_bfloat16(in[i]);
  }
};

}  // namespace halyard::kernels::HALYARD_KERNEL_ISA
