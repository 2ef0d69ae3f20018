// SpscCellRing::populate: every page of a ring is mapped after it, none before the ring is used.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "transports/shm/spsc_cell_ring.hpp"

namespace halyard::shm {
namespace {

std::size_t resident_pages(void* start, std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> map((bytes + page - 1) / page);
  if (::mincore(start, bytes, map.data()) != 0) ADD_FAILURE() << "mincore failed";
  std::size_t resident = 0;
  for (unsigned char m : map) resident += m & 1U;
  return resident;
}

TEST(SpscCellRing, PopulateMapsEveryPageOfTheRing) {
  constexpr std::uint32_t kCells = 64;
  constexpr std::uint32_t kCellSize = 4096;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t bytes = SpscCellRing::shared_bytes(kCells, kCellSize);
  const std::size_t pages = (bytes + page - 1) / page;
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);

  SpscCellRing ring(memory, kCells, kCellSize);
  // The constructor reads the control block only: the cells' pages are not mapped yet.
  EXPECT_LE(resident_pages(memory, bytes), 2U);
  if (!ring.populate()) {
    ::munmap(memory, bytes);
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  }
  EXPECT_EQ(resident_pages(memory, bytes), pages);
  ::munmap(memory, bytes);
}

}  // namespace
}  // namespace halyard::shm
