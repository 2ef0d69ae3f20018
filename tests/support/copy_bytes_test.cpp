// copy_bytes (runtime/support/copy_bytes.hpp): byte-exact like memcpy at every relative offset,
// the backward path included, and nothing written outside the destination.
#include "runtime/support/copy_bytes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace halyard {
namespace {

TEST(CopyBytes, AliasingIsOneToThirtyOneBytesAheadModuloFourKiB) {
  EXPECT_FALSE(copy_aliases(4096, 4096));
  EXPECT_TRUE(copy_aliases(4097, 4096));
  EXPECT_TRUE(copy_aliases(4096 + 31, 4096));
  EXPECT_FALSE(copy_aliases(4096 + 32, 4096));
  EXPECT_FALSE(copy_aliases(4096 + 72, 4096));       // 8 past a line: not alike modulo 64
  EXPECT_TRUE(copy_aliases(4096 + 4096 + 8, 4096));  // a page and 8 bytes ahead
  EXPECT_FALSE(copy_aliases(4096 - 8, 4096));        // behind
  EXPECT_TRUE(copy_aliases(8, 4096 + 4096));         // lower in memory, 8 ahead modulo 4 KiB
}

TEST(CopyBytes, EveryOffsetAndLengthArrivesByteExact) {
  constexpr std::size_t kPad = 4096 + 64;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{2047}, std::size_t{2048},
                            std::size_t{2048 + 63}, std::size_t{64 * 1024 + 7}}) {
    std::vector<unsigned char> source(bytes + kPad), target(bytes + 2 * kPad);
    for (std::size_t i = 0; i < source.size(); ++i) {
      source[i] = static_cast<unsigned char>(i * 13 + 5);
    }
    for (std::size_t from : {0, 8, 40}) {
      // Every relative placement within a page ahead (the backward path at 1-31) and a few
      // behind, each measured from where the source lies.
      for (std::size_t ahead : {0, 1, 8, 16, 31, 32, 33, 63, 64, 4095, 4096 + 8}) {
        const unsigned char* src = source.data() + from;
        const std::uintptr_t wanted = reinterpret_cast<std::uintptr_t>(src) + ahead;
        const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(target.data()) + kPad / 2;
        // The destination at `wanted` modulo 4 KiB, inside target's padding.
        unsigned char* dst = target.data() + kPad / 2 + (wanted - base) % 4096;
        std::fill(target.begin(), target.end(), 0xee);
        copy_bytes(dst, src, bytes);
        ASSERT_EQ(std::memcmp(dst, src, bytes), 0) << bytes << " bytes, " << ahead << " ahead";
        for (unsigned char* p = target.data(); p < dst; ++p) ASSERT_EQ(*p, 0xee) << "before";
        for (unsigned char* p = dst + bytes; p < target.data() + target.size(); ++p) {
          ASSERT_EQ(*p, 0xee) << "after";
        }
      }
    }
  }
}

// From 1 MiB on AMD CPUs with ERMS the copy goes by `rep movsb` in 256 KiB pieces; a length
// that is not a whole number of pieces must still end exactly where it should (elsewhere the
// same sizes take memcpy and must come out the same).
TEST(CopyBytes, LargeCopiesInPiecesArriveByteExact) {
  constexpr std::size_t kPad = 4096;
  for (std::size_t bytes : {kStringCopyMinBytes + 7, 17 * kStringCopyPieceBytes + 13}) {
    std::vector<unsigned char> source(bytes + 64), target(bytes + 2 * kPad);
    for (std::size_t i = 0; i < source.size(); ++i) {
      source[i] = static_cast<unsigned char>(i * 7 + i / 4099);
    }
    for (std::size_t from : {0, 40}) {
      for (std::size_t to : {kPad, kPad + 40, kPad + 8}) {  // 8: the backward path when from is 0
        std::fill(target.begin(), target.end(), 0xee);
        copy_bytes(target.data() + to, source.data() + from, bytes);
        ASSERT_EQ(std::memcmp(target.data() + to, source.data() + from, bytes), 0)
            << bytes << " bytes from " << from << " to " << to;
        for (std::size_t i = 0; i < to; ++i) ASSERT_EQ(target[i], 0xee) << "before";
        for (std::size_t i = to + bytes; i < target.size(); ++i) ASSERT_EQ(target[i], 0xee);
      }
    }
  }
}

}  // namespace
}  // namespace halyard
