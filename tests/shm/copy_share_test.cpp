// The CopyShare claim protocol on its own: two copiers sharing one transfer's chunks.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "transports/shm/copy_share.hpp"
#include "transports/shm/shm_config.hpp"

namespace halyard::shm {
namespace {

TEST(CopyShare, ChunksAreClaimedOnceEachInOrder) {
  CopyShareSlot slot{};
  CopyShare share(&slot);
  const std::uint64_t bytes = 3 * CopyShare::kChunkBytes + 10;
  const std::uint32_t generation = share.open(0x1000, bytes, 42);
  EXPECT_EQ(share.chunks(), 4u);
  EXPECT_EQ(share.destination(), 0x1000u);
  EXPECT_EQ(share.receiver_pid(), 42);
  for (std::uint32_t expected = 0; expected < 4; ++expected) {
    std::optional<std::uint32_t> chunk = share.claim(generation);
    ASSERT_TRUE(chunk.has_value());
    EXPECT_EQ(*chunk, expected);
    EXPECT_EQ(share.offset(*chunk), expected * CopyShare::kChunkBytes);
  }
  EXPECT_EQ(share.length(3), 10u);
  EXPECT_EQ(share.length(0), CopyShare::kChunkBytes);
  EXPECT_FALSE(share.claim(generation).has_value());
}

TEST(CopyShare, AReusedSlotRefusesClaimsOfTheOldGeneration) {
  CopyShareSlot slot{};
  CopyShare share(&slot);
  const std::uint32_t first = share.open(0, 8 * CopyShare::kChunkBytes, 1);
  ASSERT_TRUE(share.claim(first).has_value());
  share.finished_chunk();
  const std::uint32_t second = share.open(0, 8 * CopyShare::kChunkBytes, 1);
  EXPECT_NE(first, second);
  EXPECT_FALSE(share.claim(first).has_value()) << "a stale helper claimed a chunk";
  EXPECT_EQ(share.done(), 0u) << "open() must reset the count of a reused slot";
  EXPECT_EQ(share.claim(second), std::optional<std::uint32_t>{0});
}

TEST(CopyShare, CloseStopsClaimsAndCountsWhatWasClaimed) {
  CopyShareSlot slot{};
  CopyShare share(&slot);
  const std::uint32_t generation = share.open(0, 10 * CopyShare::kChunkBytes, 7);
  ASSERT_TRUE(share.claim(generation).has_value());
  ASSERT_TRUE(share.claim(generation).has_value());
  ASSERT_TRUE(share.claim(generation).has_value());
  EXPECT_EQ(share.close(generation), 3u);
  EXPECT_FALSE(share.claim(generation).has_value());
}

TEST(CopyShare, AHelperFailureNamesTheChunkToRecover) {
  CopyShareSlot slot{};
  CopyShare share(&slot);
  const std::uint32_t generation = share.open(0, 4 * CopyShare::kChunkBytes, 7);
  EXPECT_FALSE(share.failed_chunk().has_value());
  ASSERT_EQ(share.claim(generation), std::optional<std::uint32_t>{0});
  share.helper_failed(0);
  EXPECT_EQ(share.failed_chunk(), std::optional<std::uint32_t>{0});
}

// Two threads stand for the two processes: each claims chunks until none is left and copies
// them; every byte must arrive once, and done() must count every chunk.
TEST(CopyShare, TwoCopiersMoveEveryByte) {
  const std::size_t bytes = 64 * CopyShare::kChunkBytes + 12345;
  std::vector<unsigned char> src(bytes), dst(bytes, 0);
  for (std::size_t i = 0; i < bytes; ++i) src[i] = static_cast<unsigned char>(i * 7 + i / 4096);
  CopyShareSlot slot{};
  CopyShare receiver(&slot);
  const std::uint32_t generation =
      receiver.open(reinterpret_cast<std::uintptr_t>(dst.data()), bytes, 1);
  std::vector<int> copied_by(receiver.chunks(), -1);
  auto copier = [&](int who) {
    CopyShare share(&slot);
    while (std::optional<std::uint32_t> chunk = share.claim(generation)) {
      std::memcpy(dst.data() + share.offset(*chunk), src.data() + share.offset(*chunk),
                  share.length(*chunk));
      copied_by[*chunk] = who;
      share.finished_chunk();
    }
  };
  std::thread helper(copier, 1);
  copier(0);
  helper.join();
  EXPECT_EQ(receiver.done(), receiver.chunks());
  for (std::size_t c = 0; c < copied_by.size(); ++c) EXPECT_NE(copied_by[c], -1) << "chunk " << c;
  for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(dst[i], src[i]) << "byte " << i;
}

// HALYARD_SHM_SHARED_COPY=auto shares only where every rank of the node has a CPU: a receiver
// must not wait on a chunk held by a sender that is not running.
TEST(CopyShare, AutoSharesOnlyWhereRanksHaveACpuEach) {
  ShmConfig config;
  EXPECT_TRUE(config.shares_copies(2, 2));
  EXPECT_TRUE(config.shares_copies(16, 16));
  EXPECT_FALSE(config.shares_copies(8, 2));
  EXPECT_FALSE(config.shares_copies(2, -1)) << "an unknown CPU count must not share";
  config.shared_copy = ShmConfig::SharedCopy::kOn;
  EXPECT_TRUE(config.shares_copies(8, 2));
  config.shared_copy = ShmConfig::SharedCopy::kOff;
  EXPECT_FALSE(config.shares_copies(2, 16));
}

}  // namespace
}  // namespace halyard::shm
