// Every (op, datatype) pair against the reference, for each ISA this machine can run, for
// several counts and every aliasing the API allows, plus misaligned buffers.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/datatypes/reduction_isa.hpp"
#include "tests/datatypes/isa_test_name.hpp"
#include "tests/datatypes/reference_reduction.hpp"

namespace halyard {
namespace {

using testing::operands;
using testing::reference;
using testing::same_element;
using testing::visit_datatype;

constexpr std::size_t kCounts[] = {0, 1, 7, 64, 1000, 4099};

// How the output relates to the operands.
enum class Aliasing { kInto, kDistinct, kOutIsB, kAllSame };

const char* aliasing_name(Aliasing a) {
  switch (a) {
    case Aliasing::kInto:
      return "reduce_into";
    case Aliasing::kDistinct:
      return "reduce_to(out, a, b)";
    case Aliasing::kOutIsB:
      return "reduce_to(b, a, b)";
    case Aliasing::kAllSame:
      return "reduce_to(x, x, x)";
  }
  return "?";
}

// Runs one reduction with the given aliasing and checks every element. Returns the number of
// mismatches (the first few are reported).
template <class T>
int check_pair(Op op, Datatype type, std::size_t count, Aliasing aliasing, std::mt19937_64& rng) {
  const std::vector<T> a = operands<T>(rng, count);
  const std::vector<T> b = operands<T>(rng, count);
  std::vector<T> want(count);
  std::vector<T> got(count);
  switch (aliasing) {
    case Aliasing::kInto:
      got = a;
      reduce_into(op, type, got.data(), b.data(), count);
      for (std::size_t i = 0; i < count; ++i) want[i] = reference(op, a[i], b[i]);
      break;
    case Aliasing::kDistinct:
      reduce_to(op, type, got.data(), a.data(), b.data(), count);
      for (std::size_t i = 0; i < count; ++i) want[i] = reference(op, a[i], b[i]);
      break;
    case Aliasing::kOutIsB:
      got = b;
      reduce_to(op, type, got.data(), a.data(), got.data(), count);
      for (std::size_t i = 0; i < count; ++i) want[i] = reference(op, a[i], b[i]);
      break;
    case Aliasing::kAllSame:
      got = a;
      reduce_to(op, type, got.data(), got.data(), got.data(), count);
      for (std::size_t i = 0; i < count; ++i) want[i] = reference(op, a[i], a[i]);
      break;
  }
  int mismatches = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (same_element(got[i], want[i])) continue;
    if (++mismatches <= 3) {
      const T other = aliasing == Aliasing::kAllSame ? a[i] : b[i];
      ADD_FAILURE() << op_name(op) << " " << datatype_name(type) << " count " << count << " "
                    << aliasing_name(aliasing) << " element " << i << ": "
                    << testing::describe(a[i]) << " (op) " << testing::describe(other) << " gave "
                    << testing::describe(got[i]) << ", expected " << testing::describe(want[i]);
    }
  }
  return mismatches;
}

class ReductionKernels : public ::testing::TestWithParam<ReductionIsa> {
 protected:
  void SetUp() override { use_reduction_isa(GetParam()); }
};

TEST_P(ReductionKernels, EverySupportedPairMatchesReference) {
  ASSERT_EQ(reduction_isa(), reduction_isa_name(GetParam()));
  std::mt19937_64 rng(20240605);
  int pairs = 0;
  for (std::size_t o = 0; o < kOpCount; ++o) {
    for (std::size_t t = 0; t < kDatatypeCount; ++t) {
      const auto op = static_cast<Op>(o);
      const auto type = static_cast<Datatype>(t);
      if (!op_supports(op, type)) continue;
      ++pairs;
      visit_datatype(type, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t count : kCounts) {
          EXPECT_EQ(check_pair<T>(op, type, count, Aliasing::kInto, rng), 0);
        }
      });
    }
  }
  EXPECT_EQ(pairs, 10 * 12 - 3 * 4);  // bitwise ops are missing for the four float types
}

TEST_P(ReductionKernels, EveryAliasingOfReduceTo) {
  std::mt19937_64 rng(7);
  for (std::size_t o = 0; o < kOpCount; ++o) {
    for (std::size_t t = 0; t < kDatatypeCount; ++t) {
      const auto op = static_cast<Op>(o);
      const auto type = static_cast<Datatype>(t);
      if (!op_supports(op, type)) continue;
      visit_datatype(type, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t count : {std::size_t{7}, std::size_t{1000}, std::size_t{4099}}) {
          for (Aliasing aliasing : {Aliasing::kDistinct, Aliasing::kOutIsB, Aliasing::kAllSame}) {
            EXPECT_EQ(check_pair<T>(op, type, count, aliasing, rng), 0);
          }
        }
      });
    }
  }
}

// Buffers offset by one byte from their element alignment take the staged path; the result
// must be the same as for aligned ones.
TEST_P(ReductionKernels, MisalignedBuffers) {
  std::mt19937_64 rng(99);
  for (Datatype type : {Datatype::kInt32, Datatype::kFloat16, Datatype::kFloat64, Datatype::kUint64,
                        Datatype::kBFloat16}) {
    visit_datatype(type, [&](auto tag) {
      using T = decltype(tag);
      const std::size_t count = 4099;  // more than one staging block
      const std::vector<T> a = operands<T>(rng, count);
      const std::vector<T> b = operands<T>(rng, count);
      const std::size_t bytes = count * sizeof(T);
      std::vector<unsigned char> inout_storage(bytes + 1);
      std::vector<unsigned char> in_storage(bytes + 1);
      std::memcpy(inout_storage.data() + 1, a.data(), bytes);
      std::memcpy(in_storage.data() + 1, b.data(), bytes);
      reduce_into(Op::kSum, type, inout_storage.data() + 1, in_storage.data() + 1, count);
      std::vector<T> got(count);
      std::memcpy(got.data(), inout_storage.data() + 1, bytes);
      int mismatches = 0;
      for (std::size_t i = 0; i < count; ++i) {
        if (!same_element(got[i], reference(Op::kSum, a[i], b[i]))) ++mismatches;
      }
      EXPECT_EQ(mismatches, 0) << datatype_name(type);
    });
  }
}

// Signed-overflow cases spelled out, so a failure names the arithmetic at fault.
TEST_P(ReductionKernels, IntegerSumAndProdWrap) {
  std::int8_t s8[] = {127, -128, 100};
  const std::int8_t t8[] = {1, -1, 100};
  reduce_into(Op::kSum, Datatype::kInt8, s8, t8, 3);
  EXPECT_EQ(s8[0], -128);
  EXPECT_EQ(s8[1], 127);
  EXPECT_EQ(s8[2], -56);
  std::uint16_t p16[] = {65535, 256};
  const std::uint16_t q16[] = {65535, 256};
  reduce_into(Op::kProd, Datatype::kUint16, p16, q16, 2);
  EXPECT_EQ(p16[0], 1);  // (2^16 - 1)^2 = 1 mod 2^16
  EXPECT_EQ(p16[1], 0);
  std::int64_t p64[] = {INT64_MAX, INT64_MIN};
  const std::int64_t q64[] = {2, -1};
  reduce_into(Op::kProd, Datatype::kInt64, p64, q64, 2);
  EXPECT_EQ(p64[0], -2);
  EXPECT_EQ(p64[1], INT64_MIN);
}

TEST_P(ReductionKernels, FloatMinMaxPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float lo[] = {nan, 1.0f, 2.0f, -0.0f};
  const float other[] = {1.0f, nan, 3.0f, 0.0f};
  float hi[] = {nan, 1.0f, 2.0f, -0.0f};
  reduce_into(Op::kMin, Datatype::kFloat32, lo, other, 4);
  reduce_into(Op::kMax, Datatype::kFloat32, hi, other, 4);
  EXPECT_TRUE(std::isnan(lo[0]));
  EXPECT_TRUE(std::isnan(lo[1]));
  EXPECT_EQ(lo[2], 2.0f);
  EXPECT_TRUE(std::isnan(hi[0]));
  EXPECT_TRUE(std::isnan(hi[1]));
  EXPECT_EQ(hi[2], 3.0f);
  EXPECT_FALSE(std::signbit(lo[3]));  // equal operands: the second one (+0)
  EXPECT_FALSE(std::signbit(hi[3]));
}

INSTANTIATE_TEST_SUITE_P(AvailableIsas, ReductionKernels,
                         ::testing::ValuesIn(available_reduction_isas()), testing::isa_test_name);

}  // namespace
}  // namespace halyard
