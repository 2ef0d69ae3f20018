// Straightforward reference reductions for the kernel tests, written independently of the
// runtime's kernels: integers through 64-bit unsigned arithmetic, float16/bfloat16 through
// double with an explicit frexp/nearbyint rounding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/datatypes/reduction_isa.hpp"

namespace halyard {
// Lets GoogleTest print "avx2" instead of "1-byte object <01>" in parameterized test names.
inline void PrintTo(ReductionIsa isa, std::ostream* os) {
  *os << reduction_isa_name(isa);
}
}  // namespace halyard

namespace halyard::testing {

// A small binary floating-point format stored in 16 bits.
struct MiniFloatFormat {
  int mantissa_bits;  // stored fraction bits
  int bias;           // also the largest exponent of a finite value

  std::uint16_t infinity() const {
    return static_cast<std::uint16_t>((2 * bias + 1) << mantissa_bits);
  }
  bool is_nan(std::uint16_t bits) const { return (bits & 0x7FFF) > infinity(); }

  double decode(std::uint16_t bits) const {
    const bool negative = (bits & 0x8000) != 0;
    const int exponent = (bits & 0x7FFF) >> mantissa_bits;
    const int fraction = bits & ((1 << mantissa_bits) - 1);
    double magnitude = 0;
    if (exponent == 2 * bias + 1) {
      magnitude = fraction != 0 ? std::numeric_limits<double>::quiet_NaN()
                                : std::numeric_limits<double>::infinity();
    } else if (exponent == 0) {
      magnitude = std::ldexp(fraction, 1 - bias - mantissa_bits);
    } else {
      magnitude = std::ldexp((1 << mantissa_bits) + fraction, exponent - bias - mantissa_bits);
    }
    return negative ? -magnitude : magnitude;
  }

  // Round to nearest, ties to even (nearbyint in the default rounding mode).
  std::uint16_t encode(double x) const {
    if (std::isnan(x)) return static_cast<std::uint16_t>(infinity() | (1 << (mantissa_bits - 1)));
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double magnitude = std::fabs(x);
    if (std::isinf(magnitude)) return static_cast<std::uint16_t>(sign | infinity());
    if (magnitude == 0) return sign;
    int e = 0;
    std::frexp(magnitude, &e);
    int exponent = std::max(e - 1, 1 - bias);  // below the normal range the quantum is fixed
    double q = std::nearbyint(magnitude / std::ldexp(1.0, exponent - mantissa_bits));
    const double implicit_bit = std::ldexp(1.0, mantissa_bits);
    if (q >= 2 * implicit_bit) {  // rounded up into the next binade
      q /= 2;
      ++exponent;
    }
    if (exponent > bias) return static_cast<std::uint16_t>(sign | infinity());
    const auto fraction = static_cast<int>(q);
    if (q < implicit_bit) return static_cast<std::uint16_t>(sign | fraction);  // subnormal or 0
    return static_cast<std::uint16_t>(sign | ((exponent + bias) << mantissa_bits) |
                                      (fraction - (1 << mantissa_bits)));
  }
};

inline constexpr MiniFloatFormat kFloat16Format{10, 15};
inline constexpr MiniFloatFormat kBFloat16Format{7, 127};

// Element types of the test matrix; the two 16-bit float types get wrappers so that overloads
// can tell them from uint16_t.
struct Float16Bits {
  std::uint16_t bits;
  static constexpr const MiniFloatFormat& format() { return kFloat16Format; }
};
struct BFloat16Bits {
  std::uint16_t bits;
  static constexpr const MiniFloatFormat& format() { return kBFloat16Format; }
};

template <class T>
constexpr bool kIsMiniFloat = std::is_same_v<T, Float16Bits> || std::is_same_v<T, BFloat16Bits>;

// Calls f(T{}) with the element type of `type`.
template <class F>
void visit_datatype(Datatype type, F&& f) {
  switch (type) {
    case Datatype::kInt8:
      return f(std::int8_t{});
    case Datatype::kInt16:
      return f(std::int16_t{});
    case Datatype::kInt32:
      return f(std::int32_t{});
    case Datatype::kInt64:
      return f(std::int64_t{});
    case Datatype::kUint8:
      return f(std::uint8_t{});
    case Datatype::kUint16:
      return f(std::uint16_t{});
    case Datatype::kUint32:
      return f(std::uint32_t{});
    case Datatype::kUint64:
      return f(std::uint64_t{});
    case Datatype::kFloat16:
      return f(Float16Bits{});
    case Datatype::kBFloat16:
      return f(BFloat16Bits{});
    case Datatype::kFloat32:
      return f(float{});
    case Datatype::kFloat64:
      return f(double{});
  }
}

// Integers: sum and prod modulo 2^64 then truncated (C++20 conversions are modular).
template <class T>
T reference_integer(Op op, T a, T b) {
  const auto ua = static_cast<std::uint64_t>(a);
  const auto ub = static_cast<std::uint64_t>(b);
  switch (op) {
    case Op::kSum:
      return static_cast<T>(ua + ub);
    case Op::kProd:
      return static_cast<T>(ua * ub);
    case Op::kMin:
      return b < a ? b : a;
    case Op::kMax:
      return b > a ? b : a;
    case Op::kBand:
      return static_cast<T>(ua & ub);
    case Op::kBor:
      return static_cast<T>(ua | ub);
    case Op::kBxor:
      return static_cast<T>(ua ^ ub);
    case Op::kLand:
      return (a != 0 && b != 0) ? 1 : 0;
    case Op::kLor:
      return (a != 0 || b != 0) ? 1 : 0;
    case Op::kLxor:
      return ((a != 0) != (b != 0)) ? 1 : 0;
  }
  return 0;
}

// Floats: NaN in, NaN out for min/max; equal operands give b.
template <class T>
T reference_float(Op op, T a, T b) {
  switch (op) {
    case Op::kSum:
      return a + b;
    case Op::kProd:
      return a * b;
    case Op::kMin:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a < b ? a : b;
    case Op::kMax:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a > b ? a : b;
    case Op::kLand:
      return (a != 0 && b != 0) ? 1 : 0;
    case Op::kLor:
      return (a != 0 || b != 0) ? 1 : 0;
    case Op::kLxor:
      return ((a != 0) != (b != 0)) ? 1 : 0;
    default:
      return std::numeric_limits<T>::quiet_NaN();  // bitwise: never asked
  }
}

// One element of the expected result.
template <class T>
T reference(Op op, T a, T b) {
  if constexpr (kIsMiniFloat<T>) {
    const MiniFloatFormat& f = T::format();
    return T{f.encode(reference_float<double>(op, f.decode(a.bits), f.decode(b.bits)))};
  } else if constexpr (std::is_floating_point_v<T>) {
    return reference_float<T>(op, a, b);
  } else {
    return reference_integer<T>(op, a, b);
  }
}

// Equal bits, or both NaN (NaN payloads may differ between ISAs).
template <class T>
bool same_element(T got, T want) {
  if constexpr (kIsMiniFloat<T>) {
    if (T::format().is_nan(want.bits)) return T::format().is_nan(got.bits);
    return got.bits == want.bits;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(want)) return std::isnan(got);
    return std::memcmp(&got, &want, sizeof(T)) == 0;
  } else {
    return got == want;
  }
}

template <class T>
std::string describe(T v) {
  if constexpr (kIsMiniFloat<T>) {
    return std::to_string(T::format().decode(v.bits)) + " (bits " + std::to_string(v.bits) + ")";
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::to_string(v);
  } else {
    return std::to_string(+v);
  }
}

// Operands that exercise the interesting cases: zeros (for the logical ops), extremes that
// wrap, negative numbers, and for floats infinities, NaN, subnormals and values whose sums
// round. 16-bit floats are random bit patterns, which covers every class.
template <class T>
std::vector<T> operands(std::mt19937_64& rng, std::size_t count) {
  std::vector<T> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t r = rng();
    const unsigned pick = static_cast<unsigned>(r % 16);
    if constexpr (kIsMiniFloat<T>) {
      out[i] = T{pick == 0 ? std::uint16_t{0} : static_cast<std::uint16_t>(r >> 8)};
    } else if constexpr (std::is_floating_point_v<T>) {
      using L = std::numeric_limits<T>;
      const T specials[] = {
          0,        -T{0},           1,           -1, L::infinity(), -L::infinity(), L::quiet_NaN(),
          L::max(), L::denorm_min(), L::min() / 4};
      if (pick < 3) {
        out[i] = specials[(r >> 8) % std::size(specials)];
      } else {
        const double mantissa = static_cast<double>(r >> 11) * 0x1p-53 * 2 - 1;  // [-1, 1)
        const int exponent = static_cast<int>((r >> 4) % 41) - 20;
        out[i] = static_cast<T>(std::ldexp(mantissa, exponent));
      }
    } else {
      using L = std::numeric_limits<T>;
      const T specials[] = {0,        1,        static_cast<T>(-1),
                            L::min(), L::max(), static_cast<T>(L::max() / 2 + 1)};
      out[i] = pick < 4 ? specials[(r >> 8) % std::size(specials)] : static_cast<T>(r >> 7);
    }
  }
  return out;
}

}  // namespace halyard::testing
