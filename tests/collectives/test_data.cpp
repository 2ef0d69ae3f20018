#include "tests/collectives/test_data.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/datatypes/reduction.hpp"

namespace halyard::testing {

namespace {

int g_rank = -1;
std::string g_program = "collective_check";

// Small non-negative integer for (rank, index, seed); the op decides the range so that results
// stay exact in float16/bfloat16 (integers up to 256 are exact in both).
std::uint32_t small_value(Op op, int rank, std::size_t i, std::uint32_t seed) {
  std::uint32_t mix = static_cast<std::uint32_t>(i * 7 + (i >> 5) * 3) +
                      static_cast<std::uint32_t>(rank) * 13u + seed * 5u;
  switch (op) {
    case Op::kProd:
      return mix % 2 + 1;  // products of 1s and 2s: powers of two
    case Op::kLand:
    case Op::kLor:
    case Op::kLxor:
      return mix % 3 == 0 ? 0 : mix % 3;  // zeros included
    case Op::kBand:
    case Op::kBor:
    case Op::kBxor:
      return (mix * 2654435761u) >> 25;  // 0..127, varied bits
    default:
      return mix % 11 + 1;
  }
}

std::uint16_t float_to_half_exact(float value) {
  // Only called with small integers (exactly representable), so truncation is exact.
  if (value == 0.0f) return 0;
  std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  std::uint32_t sign = (bits >> 16) & 0x8000u;
  int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127 + 15;
  std::uint32_t mantissa = (bits >> 13) & 0x3ffu;
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exponent) << 10) | mantissa);
}

double half_to_double(std::uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  double mantissa = h & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(mantissa, -24)
                     : exponent == 31 ? (mantissa == 0 ? HUGE_VAL : std::nan(""))
                                      : std::ldexp(1.0 + mantissa / 1024.0, exponent - 15);
  return (h & 0x8000) ? -magnitude : magnitude;
}

template <typename T>
void store(std::byte* out, T value) {
  std::memcpy(out, &value, sizeof(T));
}

template <typename T>
T load(const std::byte* in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  return value;
}

double element_value(Datatype type, const std::byte* p) {
  switch (type) {
    case Datatype::kInt8:
      return load<std::int8_t>(p);
    case Datatype::kInt16:
      return load<std::int16_t>(p);
    case Datatype::kInt32:
      return load<std::int32_t>(p);
    case Datatype::kInt64:
      return static_cast<double>(load<std::int64_t>(p));
    case Datatype::kUint8:
      return load<std::uint8_t>(p);
    case Datatype::kUint16:
      return load<std::uint16_t>(p);
    case Datatype::kUint32:
      return load<std::uint32_t>(p);
    case Datatype::kUint64:
      return static_cast<double>(load<std::uint64_t>(p));
    case Datatype::kFloat16:
      return half_to_double(load<std::uint16_t>(p));
    case Datatype::kBFloat16:
      return static_cast<double>(
          std::bit_cast<float>(static_cast<std::uint32_t>(load<std::uint16_t>(p)) << 16));
    case Datatype::kFloat32:
      return static_cast<double>(load<float>(p));
    case Datatype::kFloat64:
      return load<double>(p);
  }
  return 0;
}

}  // namespace

std::string case_name(const ElementCase& c) {
  return std::string(datatype_name(c.type)) + "/" + std::string(op_name(c.op)) +
         (c.exact ? "" : "/inexact");
}

void fill_input(const ElementCase& c, int rank, std::size_t count, std::uint32_t seed,
                std::byte* out) {
  std::size_t element = datatype_size(c.type);
  for (std::size_t i = 0; i < count; ++i) {
    std::byte* p = out + i * element;
    std::uint32_t v = small_value(c.op, rank, i, seed);
    double fraction = c.exact ? 0.0 : 0.1 * static_cast<double>(i % 7) + 0.013 * rank;
    switch (c.type) {
      case Datatype::kInt8:
        store(p, static_cast<std::int8_t>(v));
        break;
      case Datatype::kInt16:
        store(p, static_cast<std::int16_t>(v));
        break;
      case Datatype::kInt32:
        store(p, static_cast<std::int32_t>(v));
        break;
      case Datatype::kInt64:
        store(p, static_cast<std::int64_t>(v));
        break;
      case Datatype::kUint8:
        store(p, static_cast<std::uint8_t>(v));
        break;
      case Datatype::kUint16:
        store(p, static_cast<std::uint16_t>(v));
        break;
      case Datatype::kUint32:
        store(p, static_cast<std::uint32_t>(v));
        break;
      case Datatype::kUint64:
        store(p, static_cast<std::uint64_t>(v));
        break;
      case Datatype::kFloat16:
        store(p, float_to_half_exact(static_cast<float>(v)));
        break;
      case Datatype::kBFloat16:
        store(p, static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(v)) >>
                                            16));
        break;
      case Datatype::kFloat32:
        store(p, static_cast<float>(v + fraction));
        break;
      case Datatype::kFloat64:
        store(p, static_cast<double>(v) + fraction);
        break;
    }
  }
}

std::vector<std::byte> make_input(const ElementCase& c, int rank, std::size_t count,
                                  std::uint32_t seed) {
  std::vector<std::byte> out(count * datatype_size(c.type));
  fill_input(c, rank, count, seed, out.data());
  return out;
}

void reference_reduction_into(const ElementCase& c, int size, std::size_t count, std::uint32_t seed,
                              std::vector<std::byte>& out, std::vector<std::byte>& scratch) {
  const std::size_t bytes = count * datatype_size(c.type);
  out.resize(bytes);
  scratch.resize(bytes);
  fill_input(c, 0, count, seed, out.data());
  for (int r = 1; r < size; ++r) {
    fill_input(c, r, count, seed, scratch.data());
    reduce_into(c.op, c.type, out.data(), scratch.data(), count);
  }
}

std::vector<std::byte> reference_reduction(const ElementCase& c, int size, std::size_t count,
                                           std::uint32_t seed) {
  std::vector<std::byte> out, scratch;
  reference_reduction_into(c, size, count, seed, out, scratch);
  return out;
}

void fill_junk(std::vector<std::byte>& out, std::size_t bytes) {
  out.resize(bytes);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<std::byte>(0xA5 ^ (i * 29));
}

std::vector<std::byte> junk(std::size_t bytes) {
  std::vector<std::byte> out;
  fill_junk(out, bytes);
  return out;
}

void expect_elements(const std::string& what, const ElementCase& c, const void* got,
                     const void* expected, std::size_t count) {
  std::size_t element = datatype_size(c.type);
  const auto* g = static_cast<const std::byte*>(got);
  const auto* e = static_cast<const std::byte*>(expected);
  // Zero elements: nothing to compare, and an empty vector's data() may be null, which memcmp
  // must not be given (UBSan).
  if (count == 0) return;
  if (c.exact && std::memcmp(g, e, count * element) == 0) return;
  for (std::size_t i = 0; i < count; ++i) {
    const std::byte* gi = g + i * element;
    const std::byte* ei = e + i * element;
    bool same = std::memcmp(gi, ei, element) == 0;
    if (!same && !c.exact) {
      double gv = element_value(c.type, gi);
      double ev = element_value(c.type, ei);
      same = std::fabs(gv - ev) <= 1e-5 * std::fmax(1.0, std::fabs(ev));
    }
    if (!same) {
      char text[256];
      std::snprintf(text, sizeof text, "%s (%s): index %zu of %zu: expected %.9g, got %.9g",
                    what.c_str(), case_name(c).c_str(), i, count, element_value(c.type, ei),
                    element_value(c.type, gi));
      fail(text);
    }
  }
}

void fail(const std::string& what) {
  std::fprintf(stderr, "%s: rank %d: FAILED: %s\n", g_program.c_str(), g_rank, what.c_str());
  std::fflush(stderr);
  std::exit(1);
}

void set_failure_context(int rank, std::string program) {
  g_rank = rank;
  g_program = std::move(program);
}

std::uint64_t fingerprint(const void* data, std::size_t bytes) {
  std::uint64_t hash = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  return hash;
}

}  // namespace halyard::testing
