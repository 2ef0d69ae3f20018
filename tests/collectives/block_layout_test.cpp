// BlockLayout keeps up to kInlineRanks blocks inside itself and more on the heap; copies and
// moves carry every block either way.
#include "collectives/base/block_layout.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace halyard::base {
namespace {

// Blocks r = 0..ranks-1 of (r + 1) elements of 4 bytes at element displacement 10 * r.
BlockLayout layout_of(int ranks) {
  std::vector<std::size_t> counts, displacements;
  for (int r = 0; r < ranks; ++r) {
    counts.push_back(static_cast<std::size_t>(r) + 1);
    displacements.push_back(10 * static_cast<std::size_t>(r));
  }
  return BlockLayout(ranks, counts.data(), displacements.data(), 4);
}

void expect_layout_of(const BlockLayout& layout, int ranks) {
  for (int r = 0; r < ranks; ++r) {
    EXPECT_EQ(layout.bytes(r), 4 * (static_cast<std::size_t>(r) + 1)) << "rank " << r;
    EXPECT_EQ(layout.offset(r), 40 * static_cast<std::size_t>(r)) << "rank " << r;
  }
  EXPECT_EQ(layout.extent(), 40 * static_cast<std::size_t>(ranks - 1) + 4 * ranks);
}

TEST(BlockLayout, InlineAndHeapLayoutsSurviveCopiesAndMoves) {
  for (int ranks : {1, 2, static_cast<int>(BlockLayout::kInlineRanks),
                    static_cast<int>(BlockLayout::kInlineRanks) + 1, 64}) {
    SCOPED_TRACE(ranks);
    BlockLayout original = layout_of(ranks);
    expect_layout_of(original, ranks);
    const BlockLayout copy = original;
    expect_layout_of(copy, ranks);
    BlockLayout assigned = layout_of(3 * ranks);
    assigned = copy;
    expect_layout_of(assigned, ranks);
    BlockLayout moved = std::move(original);
    expect_layout_of(moved, ranks);
    BlockLayout move_assigned = layout_of(1);
    move_assigned = std::move(moved);
    expect_layout_of(move_assigned, ranks);
    expect_layout_of(copy, ranks);  // the source of a copy is untouched
  }
}

TEST(BlockLayout, WithoutDisplacementsBlocksFollowEachOther) {
  const std::size_t counts[] = {2, 0, 5, 1, 3, 3, 3, 3, 3, 7};
  const BlockLayout layout(10, counts, nullptr, 8);
  std::size_t next = 0;
  for (int r = 0; r < 10; ++r) {
    EXPECT_EQ(layout.offset(r), next) << "rank " << r;
    EXPECT_EQ(layout.bytes(r), counts[r] * 8) << "rank " << r;
    next += counts[r] * 8;
  }
  EXPECT_EQ(layout.extent(), next);
  const BlockLayout uniform = BlockLayout::uniform(12, 3, 2);
  for (int r = 0; r < 12; ++r) {
    EXPECT_EQ(uniform.offset(r), 6 * static_cast<std::size_t>(r)) << "rank " << r;
    EXPECT_EQ(uniform.bytes(r), 6u) << "rank " << r;
  }
  EXPECT_EQ(uniform.extent(), 72u);
}

}  // namespace
}  // namespace halyard::base
