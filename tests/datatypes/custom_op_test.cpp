// Custom ops: registration, names, the (op, type) pairs they accept, and reduce_into /
// reduce_to applying them in MPI's convention (inout = in op inout) whatever the aliasing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/datatypes/custom_op.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// The 2x2 matrices [[a, b], [0, 1]] as (a, b) int32 pairs; left op right is their product:
// associative, not commutative.
struct Affine {
  std::int32_t a;
  std::int32_t b;
};

Affine product(Affine left, Affine right) {
  return {left.a * right.a, left.a * right.b + left.b};
}

CustomOp affine_op() {
  CustomOp op;
  op.combine = [](const void* in, void* inout, std::size_t elements) {
    const auto* left = static_cast<const Affine*>(in);
    auto* right = static_cast<Affine*>(inout);
    for (std::size_t i = 0; i < elements; ++i) right[i] = product(left[i], right[i]);
  };
  op.element_bytes = sizeof(Affine);
  op.commutative = false;
  op.name = "affine product";
  return op;
}

bool same(const Affine& x, const Affine& y) {
  return x.a == y.a && x.b == y.b;
}

TEST(CustomOp, RegisteredOpIsValidNamedAndDefinedOnBytesOnly) {
  const Op op = register_custom_op(affine_op());
  EXPECT_GE(static_cast<std::size_t>(op), kOpCount);
  EXPECT_TRUE(op_is_valid(op));
  EXPECT_TRUE(op_is_custom(op));
  EXPECT_FALSE(op_is_commutative(op));
  EXPECT_EQ(op_name(op), "affine product");
  EXPECT_TRUE(op_supports(op, Datatype::kUint8));
  EXPECT_FALSE(op_supports(op, Datatype::kInt32));
  EXPECT_FALSE(op_is_custom(Op::kSum));
  EXPECT_TRUE(op_is_commutative(Op::kSum));
  release_custom_op(op);
  EXPECT_FALSE(op_is_valid(op));
  EXPECT_EQ(op_name(op), "invalid");
}

TEST(CustomOp, ReduceToKeepsTheLeftOperandLeftWhateverAliases) {
  const Op op = register_custom_op(affine_op());
  const Affine f{2, 3};
  const Affine g{5, 7};
  const Affine want = product(f, g);
  const std::size_t bytes = sizeof(Affine);

  Affine out{};
  reduce_to(op, Datatype::kUint8, &out, &f, &g, bytes);
  EXPECT_TRUE(same(out, want));
  Affine a = f;
  reduce_to(op, Datatype::kUint8, &a, &a, &g, bytes);  // out is the left operand
  EXPECT_TRUE(same(a, want));
  Affine b = g;
  reduce_to(op, Datatype::kUint8, &b, &f, &b, bytes);  // out is the right operand
  EXPECT_TRUE(same(b, want));
  Affine acc = f;
  reduce_into(op, Datatype::kUint8, &acc, &g, bytes);  // inout = inout op in
  EXPECT_TRUE(same(acc, want));

  try {
    reduce_into(op, Datatype::kUint8, &acc, &g, bytes - 1);
    ADD_FAILURE() << "a partial element was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
  }
  release_custom_op(op);
}

TEST(CustomOp, RegistryIsBoundedAndSlotsAreReused) {
  std::vector<Op> ops;
  for (std::size_t i = 0; i < kMaxCustomOps; ++i) ops.push_back(register_custom_op(affine_op()));
  try {
    register_custom_op(affine_op());
    ADD_FAILURE() << "registered beyond kMaxCustomOps";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  }
  release_custom_op(ops[7]);
  EXPECT_EQ(register_custom_op(affine_op()), ops[7]);
  for (Op op : ops) release_custom_op(op);
  CustomOp empty;
  EXPECT_THROW(register_custom_op(empty), Error);
}

}  // namespace
}  // namespace halyard
