// Datatype/op pairs for the ADAPT job tests, each with its own input pattern and a plain C++
// serial reference (independent of the library's reduction kernels).
//
// Float inputs are small integers, so every summation order gives the same exact result and
// the tree's arrival order cannot make a correct reduce look wrong.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace adapt_test {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::uint64_t input_bits(int rank, std::size_t i, std::uint32_t seed) {
  return mix((static_cast<std::uint64_t>(seed) << 40) ^ (static_cast<std::uint64_t>(rank) << 32) ^
             i);
}

// binary16 bits of a small non-negative integer (< 2048, exactly representable).
inline std::uint16_t half_from_int(unsigned n) {
  if (n == 0) return 0;
  const int e = std::bit_width(n) - 1;
  const unsigned mantissa = (n << (10 - e)) & 0x3ffu;
  return static_cast<std::uint16_t>(((e + 15) << 10) | mantissa);
}
inline unsigned int_from_half(std::uint16_t h) {
  if (h == 0) return 0;
  const int e = (h >> 10) - 15;
  return ((h & 0x3ffu) | 0x400u) >> (10 - e);
}
inline std::uint16_t bfloat_from_int(unsigned n) {
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(n)) >> 16);
}
inline unsigned int_from_bfloat(std::uint16_t b) {
  return static_cast<unsigned>(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
}

struct Pair {
  halyard::Datatype type;
  halyard::Op op;
  std::size_t size;  // bytes per element
  // Writes rank's element i.
  std::function<void(int rank, std::size_t i, std::uint32_t seed, std::byte* out)> input;
  // acc = acc (op) in, element-wise for one element.
  std::function<void(std::byte* acc, const std::byte* in)> combine;
  std::string name() const {
    return std::string(halyard::datatype_name(type)) + "/" + std::string(halyard::op_name(op));
  }
};

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <typename T, typename Gen, typename Op>
Pair typed(halyard::Datatype type, halyard::Op op, Gen gen, Op combine) {
  Pair p{type, op, sizeof(T), {}, {}};
  p.input = [gen](int rank, std::size_t i, std::uint32_t seed, std::byte* out) {
    store<T>(out, gen(input_bits(rank, i, seed)));
  };
  p.combine = [combine](std::byte* acc, const std::byte* in) {
    store<T>(acc, combine(load<T>(acc), load<T>(in)));
  };
  return p;
}

inline std::vector<Pair> all_pairs() {
  using halyard::Datatype;
  using halyard::Op;
  std::vector<Pair> pairs;
  pairs.push_back(typed<float>(
      Datatype::kFloat32, Op::kSum, [](std::uint64_t b) { return static_cast<float>(b % 16); },
      [](float a, float b) { return a + b; }));
  pairs.push_back(typed<std::int32_t>(
      Datatype::kInt32, Op::kMax, [](std::uint64_t b) { return static_cast<std::int32_t>(b); },
      [](std::int32_t a, std::int32_t b) { return a > b ? a : b; }));
  pairs.push_back(typed<std::int64_t>(
      Datatype::kInt64, Op::kBxor, [](std::uint64_t b) { return static_cast<std::int64_t>(b); },
      [](std::int64_t a, std::int64_t b) { return a ^ b; }));
  pairs.push_back(typed<std::uint16_t>(
      Datatype::kFloat16, Op::kSum,
      [](std::uint64_t b) { return half_from_int(static_cast<unsigned>(b % 8)); },
      [](std::uint16_t a, std::uint16_t b) {
        return half_from_int(int_from_half(a) + int_from_half(b));
      }));
  pairs.push_back(typed<std::uint16_t>(
      Datatype::kBFloat16, Op::kSum,
      [](std::uint64_t b) { return bfloat_from_int(static_cast<unsigned>(b % 8)); },
      [](std::uint16_t a, std::uint16_t b) {
        return bfloat_from_int(int_from_bfloat(a) + int_from_bfloat(b));
      }));
  pairs.push_back(typed<double>(
      Datatype::kFloat64, Op::kProd,
      [](std::uint64_t b) { return b % 3 == 0 ? -1.0 : (b % 3 == 1 ? 2.0 : 0.5); },
      [](double a, double b) { return a * b; }));
  pairs.push_back(typed<std::uint8_t>(
      Datatype::kUint8, Op::kBand,
      [](std::uint64_t b) { return static_cast<std::uint8_t>(b | b >> 8); },
      [](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(a & b); }));
  pairs.push_back(typed<std::int8_t>(
      Datatype::kInt8, Op::kMin, [](std::uint64_t b) { return static_cast<std::int8_t>(b); },
      [](std::int8_t a, std::int8_t b) { return a < b ? a : b; }));
  pairs.push_back(typed<std::int16_t>(
      Datatype::kInt16, Op::kSum, [](std::uint64_t b) { return static_cast<std::int16_t>(b); },
      [](std::int16_t a, std::int16_t b) {
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(a) +
                                         static_cast<std::uint16_t>(b));
      }));
  pairs.push_back(typed<std::uint64_t>(
      Datatype::kUint64, Op::kLor, [](std::uint64_t b) { return b % 5 == 0 ? b : 0; },
      [](std::uint64_t a, std::uint64_t b) -> std::uint64_t {
        return (a != 0 || b != 0) ? 1 : 0;
      }));
  return pairs;
}

}  // namespace adapt_test
