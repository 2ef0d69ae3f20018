// Small non-negative integers stored as any Datatype: every type represents them and every
// partial sum or product of a few of them exactly, so reductions can be checked bit for bit
// whatever order an algorithm combines contributions in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/datatypes/datatype.hpp"

namespace halyard::testing {

// Bit pattern of the small non-negative integer `n` (< 2048) as an IEEE binary16.
inline std::uint16_t float16_bits(unsigned n) {
  if (n == 0) return 0;
  int exponent = 0;
  while ((n >> (exponent + 1)) != 0) ++exponent;
  unsigned mantissa = (n << (10 - exponent)) & 0x3ffu;
  return static_cast<std::uint16_t>(((exponent + 15) << 10) | mantissa);
}

// Bit pattern of `n` as a bfloat16: the upper half of the float32 (exact for small integers).
inline std::uint16_t bfloat16_bits(unsigned n) {
  float f = static_cast<float>(n);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<std::uint16_t>(bits >> 16);
}

// Stores the small integer `n` as element `i` of a buffer of `type`.
inline void store(Datatype type, std::vector<std::byte>& buffer, std::size_t i, unsigned n) {
  std::byte* p = buffer.data() + i * datatype_size(type);
  auto put = [p](auto value) { std::memcpy(p, &value, sizeof value); };
  switch (type) {
    case Datatype::kInt8:
      put(static_cast<std::int8_t>(n));
      break;
    case Datatype::kInt16:
      put(static_cast<std::int16_t>(n));
      break;
    case Datatype::kInt32:
      put(static_cast<std::int32_t>(n));
      break;
    case Datatype::kInt64:
      put(static_cast<std::int64_t>(n));
      break;
    case Datatype::kUint8:
      put(static_cast<std::uint8_t>(n));
      break;
    case Datatype::kUint16:
      put(static_cast<std::uint16_t>(n));
      break;
    case Datatype::kUint32:
      put(static_cast<std::uint32_t>(n));
      break;
    case Datatype::kUint64:
      put(static_cast<std::uint64_t>(n));
      break;
    case Datatype::kFloat16:
      put(float16_bits(n));
      break;
    case Datatype::kBFloat16:
      put(bfloat16_bits(n));
      break;
    case Datatype::kFloat32:
      put(static_cast<float>(n));
      break;
    case Datatype::kFloat64:
      put(static_cast<double>(n));
      break;
  }
}

}  // namespace halyard::testing
