// float16 and bfloat16: every bit pattern through the kernels' conversions, rounding to
// nearest-even at ties, overflow to infinity, subnormals and NaN.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/datatypes/reduction_isa.hpp"
#include "tests/datatypes/isa_test_name.hpp"
#include "tests/datatypes/reference_reduction.hpp"

namespace halyard {
namespace {

using testing::MiniFloatFormat;

struct HalfCase {
  Datatype type;
  const MiniFloatFormat* format;
};

std::vector<std::uint16_t> every_bit_pattern() {
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint16_t>(i);
  return all;
}

bool same_half(const MiniFloatFormat& f, std::uint16_t got, std::uint16_t want) {
  return f.is_nan(want) ? f.is_nan(got) : got == want;
}

class HalfPrecision : public ::testing::TestWithParam<ReductionIsa> {
 protected:
  void SetUp() override { use_reduction_isa(GetParam()); }
  static constexpr HalfCase kCases[] = {{Datatype::kFloat16, &testing::kFloat16Format},
                                        {Datatype::kBFloat16, &testing::kBFloat16Format}};
};

// x + (-0) == x exactly for every x (including -0 + -0 = -0), so this checks the widening and
// narrowing conversions on all 65536 patterns, subnormals and NaNs included.
TEST_P(HalfPrecision, EveryPatternSurvivesAddingNegativeZero) {
  for (const HalfCase& c : kCases) {
    std::vector<std::uint16_t> values = every_bit_pattern();
    const std::vector<std::uint16_t> negative_zero(values.size(), 0x8000);
    reduce_into(Op::kSum, c.type, values.data(), negative_zero.data(), values.size());
    int mismatches = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!same_half(*c.format, values[i], static_cast<std::uint16_t>(i)) && ++mismatches <= 3) {
        ADD_FAILURE() << datatype_name(c.type) << " pattern " << i << " became " << values[i];
      }
    }
    EXPECT_EQ(mismatches, 0) << datatype_name(c.type);
  }
}

// Every pattern combined with operands chosen to round in every way: against the reference
// computed in double and rounded by frexp/nearbyint.
TEST_P(HalfPrecision, EveryPatternAgainstReference) {
  for (const HalfCase& c : kCases) {
    const MiniFloatFormat& f = *c.format;
    const std::uint16_t partners[] = {f.encode(1.0),   f.encode(-1.0),     f.encode(1.0 / 3),
                                      f.encode(-1e-3), f.encode(3.140625), 0x0001,
                                      0x8003,          f.encode(-65504.0), f.infinity(),
                                      f.encode(0.5),   f.encode(-1.75),    f.encode(1e-5)};
    for (Op op : {Op::kSum, Op::kProd, Op::kMin, Op::kMax, Op::kLxor}) {
      for (std::uint16_t partner : partners) {
        std::vector<std::uint16_t> values = every_bit_pattern();
        const std::vector<std::uint16_t> other(values.size(), partner);
        reduce_into(op, c.type, values.data(), other.data(), values.size());
        int mismatches = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
          const std::uint16_t want = f.encode(testing::reference_float<double>(
              op, f.decode(static_cast<std::uint16_t>(i)), f.decode(partner)));
          if (!same_half(f, values[i], want) && ++mismatches <= 3) {
            ADD_FAILURE() << datatype_name(c.type) << " " << op_name(op) << " pattern " << i
                          << " with " << partner << " gave " << values[i] << ", expected " << want;
          }
        }
        EXPECT_EQ(mismatches, 0) << datatype_name(c.type) << " " << op_name(op) << " " << partner;
      }
    }
  }
}

struct Expected {
  std::uint16_t a, b, sum;
  const char* why;
};

TEST_P(HalfPrecision, Float16TiesOverflowAndSubnormals) {
  const Expected cases[] = {
      {0x3C00, 0x1000, 0x3C00, "1 + 2^-11 is a tie: stays at even 1.0"},
      {0x3C01, 0x1000, 0x3C02, "(1 + 2^-10) + 2^-11 is a tie: rounds up to even"},
      {0x3C00, 0x1001, 0x3C01, "just above the tie rounds up"},
      {0x7BFF, 0x4C00, 0x7C00, "65504 + 16 = 65520 rounds to infinity"},
      {0x7BFF, 0x4800, 0x7BFF, "65504 + 8 rounds back to 65504"},
      {0x0001, 0x0001, 0x0002, "subnormal + subnormal"},
      {0x03FF, 0x0001, 0x0400, "largest subnormal + smallest = smallest normal"},
      {0x7C00, 0xFC00, 0x7E00, "inf + -inf is NaN"},
  };
  for (const Expected& e : cases) {
    std::uint16_t x = e.a;
    reduce_into(Op::kSum, Datatype::kFloat16, &x, &e.b, 1);
    EXPECT_TRUE(same_half(testing::kFloat16Format, x, e.sum)) << e.why << ": got " << x;
  }
  std::uint16_t p = 0x0400;  // 2^-14 * 0.5 = 2^-15, a subnormal
  const std::uint16_t half = 0x3800;
  reduce_into(Op::kProd, Datatype::kFloat16, &p, &half, 1);
  EXPECT_EQ(p, 0x0200);
}

TEST_P(HalfPrecision, BFloat16TiesAndOverflow) {
  const Expected cases[] = {
      {0x3F80, 0x3B80, 0x3F80, "1 + 2^-8 is a tie: stays at even 1.0"},
      {0x3F81, 0x3B80, 0x3F82, "(1 + 2^-7) + 2^-8 is a tie: rounds up to even"},
      {0x7F7F, 0x7F7F, 0x7F80, "max + max overflows to infinity"},
      {0xFF80, 0x3F80, 0xFF80, "-inf + 1 = -inf"},
      {0x7FC1, 0x3F80, 0x7FC0, "NaN stays NaN"},
  };
  for (const Expected& e : cases) {
    std::uint16_t x = e.a;
    reduce_into(Op::kSum, Datatype::kBFloat16, &x, &e.b, 1);
    EXPECT_TRUE(same_half(testing::kBFloat16Format, x, e.sum)) << e.why << ": got " << x;
  }
}

TEST_P(HalfPrecision, LogicalOpsYieldOneOfTheType) {
  std::uint16_t h[] = {0x3555, 0x0000, 0x8000, 0x7E00};
  const std::uint16_t g[] = {0xC000, 0x3C00, 0x0000, 0x3C00};
  reduce_into(Op::kLand, Datatype::kFloat16, h, g, 4);
  EXPECT_EQ(h[0], 0x3C00);
  EXPECT_EQ(h[1], 0x0000);
  EXPECT_EQ(h[2], 0x0000);  // -0 is false
  EXPECT_EQ(h[3], 0x3C00);  // NaN is not 0, so true
  std::uint16_t b[] = {0x0001, 0x0000};
  const std::uint16_t c[] = {0x0000, 0x0000};
  reduce_into(Op::kLor, Datatype::kBFloat16, b, c, 2);
  EXPECT_EQ(b[0], 0x3F80);
  EXPECT_EQ(b[1], 0x0000);
}

INSTANTIATE_TEST_SUITE_P(AvailableIsas, HalfPrecision,
                         ::testing::ValuesIn(available_reduction_isas()), testing::isa_test_name);

}  // namespace
}  // namespace halyard
