// Names, sizes, which (op, datatype) pairs exist, and the errors for the others.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

template <class F>
std::string error_message(F&& f, ErrorCode expected_code = ErrorCode::kInvalidArgument) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), expected_code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(Datatype, NamesAndSizes) {
  const std::vector<std::pair<std::string_view, std::size_t>> expected = {
      {"int8", 1},    {"int16", 2},    {"int32", 4},   {"int64", 8},
      {"uint8", 1},   {"uint16", 2},   {"uint32", 4},  {"uint64", 8},
      {"float16", 2}, {"bfloat16", 2}, {"float32", 4}, {"float64", 8}};
  ASSERT_EQ(expected.size(), kDatatypeCount);
  for (std::size_t i = 0; i < kDatatypeCount; ++i) {
    const auto type = static_cast<Datatype>(i);
    EXPECT_EQ(datatype_name(type), expected[i].first);
    EXPECT_EQ(datatype_size(type), expected[i].second) << expected[i].first;
    EXPECT_EQ(datatype_is_integer(type), i < 8) << expected[i].first;
  }
  EXPECT_EQ(datatype_name(static_cast<Datatype>(12)), "invalid");
  EXPECT_EQ(error_message([] { datatype_size(static_cast<Datatype>(40)); }),
            "datatype 40 is not a valid Datatype");
}

TEST(Op, Names) {
  const std::vector<std::string_view> expected = {"sum", "prod", "min",  "max", "band",
                                                  "bor", "bxor", "land", "lor", "lxor"};
  ASSERT_EQ(expected.size(), kOpCount);
  for (std::size_t i = 0; i < kOpCount; ++i) {
    EXPECT_EQ(op_name(static_cast<Op>(i)), expected[i]);
  }
  EXPECT_EQ(op_name(static_cast<Op>(10)), "invalid");
}

TEST(Op, BitwiseOnlyForIntegers) {
  for (std::size_t o = 0; o < kOpCount; ++o) {
    for (std::size_t t = 0; t < kDatatypeCount; ++t) {
      const auto op = static_cast<Op>(o);
      const auto type = static_cast<Datatype>(t);
      const bool bitwise = op == Op::kBand || op == Op::kBor || op == Op::kBxor;
      const bool expected = !bitwise || datatype_is_integer(type);
      EXPECT_EQ(op_supports(op, type), expected) << op_name(op) << " " << datatype_name(type);
      if (expected) {
        EXPECT_NO_THROW(check_op_supported(op, type));
        continue;
      }
      const std::string want = "op " + std::string(op_name(op)) + " is not defined for " +
                               std::string(datatype_name(type));
      EXPECT_EQ(error_message([&] { check_op_supported(op, type); }), want);
      // The reductions refuse the pair too, even with nothing to reduce.
      std::uint64_t x = 0;
      EXPECT_EQ(error_message([&] { reduce_into(op, type, &x, &x, 1); }), want);
      EXPECT_EQ(error_message([&] { reduce_to(op, type, &x, &x, &x, 0); }), want);
    }
  }
  EXPECT_EQ(error_message([] { check_op_supported(Op::kBand, Datatype::kFloat32); }),
            "op band is not defined for float32");
  EXPECT_FALSE(op_supports(static_cast<Op>(99), Datatype::kInt32));
  EXPECT_EQ(error_message([] { check_op_supported(static_cast<Op>(99), Datatype::kInt32); }),
            "op 99 is not a valid Op");
}

TEST(ReduceArguments, NullBuffersAreNamed) {
  float x[4] = {};
  EXPECT_NO_THROW(reduce_into(Op::kSum, Datatype::kFloat32, nullptr, nullptr, 0));
  EXPECT_EQ(error_message([&] { reduce_into(Op::kSum, Datatype::kFloat32, nullptr, x, 4); }),
            "inout is null but count > 0");
  EXPECT_EQ(error_message([&] { reduce_into(Op::kSum, Datatype::kFloat32, x, nullptr, 4); }),
            "in is null but count > 0");
  EXPECT_EQ(error_message([&] { reduce_to(Op::kSum, Datatype::kFloat32, x, nullptr, x, 4); }),
            "a is null but count > 0");
  EXPECT_EQ(error_message([&] { reduce_to(Op::kSum, Datatype::kFloat32, x, x, nullptr, 4); }),
            "b is null but count > 0");
}

TEST(ReduceArguments, PartialOverlapIsRefused) {
  std::int32_t x[8] = {};
  EXPECT_EQ(error_message([&] { reduce_into(Op::kSum, Datatype::kInt32, x + 1, x, 4); }),
            "inout and in overlap partially; they must be identical or disjoint");
  EXPECT_EQ(error_message([&] { reduce_to(Op::kSum, Datatype::kInt32, x, x + 3, x + 4, 4); }),
            "out and a overlap partially; they must be identical or disjoint");
  // Adjacent is disjoint.
  EXPECT_NO_THROW(reduce_into(Op::kSum, Datatype::kInt32, x, x + 4, 4));
}

TEST(ReduceArguments, CountThatOverflowsBytes) {
  double x = 0;
  EXPECT_EQ(error_message(
                [&] { reduce_into(Op::kSum, Datatype::kFloat64, &x, &x, ~std::size_t{0} / 4); }),
            "count " + std::to_string(~std::size_t{0} / 4) + " is too large for float64");
}

}  // namespace
}  // namespace halyard
