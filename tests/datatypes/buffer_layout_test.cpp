// BufferLayout (runtime/datatypes/buffer_layout.hpp): every range of packed bytes, copied out and
// back in, against a reference built byte by byte from the map; holes never written.
#include "runtime/datatypes/buffer_layout.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace halyard {
namespace {

// The buffer's offsets (from its base) of every packed byte, in order: the reference.
std::vector<std::ptrdiff_t> offsets_of(const std::vector<LayoutRun>& map, std::size_t items,
                                       std::ptrdiff_t extent) {
  std::vector<std::ptrdiff_t> offsets;
  for (std::size_t item = 0; item < items; ++item) {
    for (const LayoutRun& run : map) {
      for (std::size_t b = 0; b < run.blocks; ++b) {
        for (std::size_t i = 0; i < run.block_bytes; ++i) {
          offsets.push_back(static_cast<std::ptrdiff_t>(item) * extent + run.offset +
                            static_cast<std::ptrdiff_t>(b) * run.stride +
                            static_cast<std::ptrdiff_t>(i));
        }
      }
    }
  }
  return offsets;
}

struct Case {
  const char* name;
  std::vector<LayoutRun> map;
  std::size_t items;
  std::ptrdiff_t extent;
};

// Packs and unpacks ranges [from, from + n) for many (from, n) and checks every byte.
void check_every_range(const Case& c) {
  SCOPED_TRACE(c.name);
  const std::vector<std::ptrdiff_t> offsets = offsets_of(c.map, c.items, c.extent);
  std::ptrdiff_t low = 0, high = 0;
  for (std::ptrdiff_t o : offsets) {
    low = std::min(low, o);
    high = std::max(high, o + 1);
  }
  // The memory the layout spans, with the base inside it (negative offsets reach below it).
  std::vector<std::uint8_t> memory(static_cast<std::size_t>(high - low));
  std::uint8_t* base = memory.data() - low;
  const BufferLayout layout(base, c.map, c.items, c.extent);
  ASSERT_EQ(layout.bytes(), offsets.size());
  const std::size_t total = offsets.size();
  std::vector<std::size_t> starts = {0, 1, 7, 8, 9, total / 3, total / 2, total - 1};
  std::vector<std::size_t> lengths = {0, 1, 5, 8, 24, 100, total / 2, total};
  for (std::size_t from : starts) {
    for (std::size_t n : lengths) {
      if (from > total) continue;
      n = std::min(n, total - from);
      for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<std::uint8_t>(i * 7);
      std::vector<std::uint8_t> packed(n + 1, 0xEE);
      layout.pack(from, n, reinterpret_cast<std::byte*>(packed.data()));
      for (std::size_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(offsets[from + i] - low);
        ASSERT_EQ(packed[i], memory[at]) << "pack from " << from << " n " << n << " byte " << i;
      }
      EXPECT_EQ(packed[n], 0xEE) << "pack wrote past n, from " << from << " n " << n;
      // Unpack distinct values; every other byte of memory must keep its pattern.
      for (std::size_t i = 0; i < n; ++i) packed[i] = static_cast<std::uint8_t>(0x80 | (i & 0x7F));
      std::vector<std::uint8_t> expected = memory;
      for (std::size_t i = 0; i < n; ++i) {
        expected[static_cast<std::size_t>(offsets[from + i] - low)] = packed[i];
      }
      layout.unpack(from, n, reinterpret_cast<const std::byte*>(packed.data()));
      ASSERT_EQ(memory, expected) << "unpack from " << from << " n " << n;
    }
  }
}

TEST(BufferLayout, VectorOfSingleDoubles) {
  check_every_range({"doubles at a 16-byte stride", {{0, 8, 300, 16}}, 1, 16 * 300});
}

TEST(BufferLayout, BlocksOfEveryCopiedSize) {
  for (std::size_t block : {1, 3, 4, 8, 16, 24, 32, 64, 100}) {
    check_every_range({"one run",
                       {{0, block, 37, static_cast<std::ptrdiff_t>(block * 2 + 5)}},
                       1,
                       static_cast<std::ptrdiff_t>(37 * (block * 2 + 5))});
  }
}

TEST(BufferLayout, NegativeStrideAndOffset) {
  check_every_range({"negative stride", {{-8, 8, 50, -24}}, 1, 0});
  check_every_range({"negative offset", {{-100, 12, 9, 20}}, 3, 200});
}

TEST(BufferLayout, SeveralRunsAndItems) {
  // A struct-like map: an int, a gap, three doubles apart, repeated over items; an empty run.
  check_every_range(
      {"struct items", {{0, 4, 1, 0}, {8, 8, 3, 16}, {60, 0, 4, 8}, {64, 2, 1, 0}}, 11, 72});
}

TEST(BufferLayout, NothingToCopy) {
  const BufferLayout layout(nullptr, {}, 5, 8);
  EXPECT_EQ(layout.bytes(), 0U);
  layout.pack(0, 0, nullptr);
  layout.unpack(0, 0, nullptr);
}

TEST(BufferLayout, StridedBlockCopies) {
  std::vector<std::byte> strided(16 * 9), packed(8 * 9), back(16 * 9, std::byte{0});
  for (std::size_t i = 0; i < strided.size(); ++i) strided[i] = static_cast<std::byte>(i);
  pack_blocks(strided.data(), 16, 9, 8, packed.data());
  for (std::size_t b = 0; b < 9; ++b) {
    for (std::size_t i = 0; i < 8; ++i) ASSERT_EQ(packed[b * 8 + i], strided[b * 16 + i]);
  }
  unpack_blocks(packed.data(), 9, 8, back.data(), 16);
  for (std::size_t i = 0; i < back.size(); ++i) {
    ASSERT_EQ(back[i], (i % 16) < 8 ? strided[i] : std::byte{0}) << i;
  }
}

}  // namespace
}  // namespace halyard
