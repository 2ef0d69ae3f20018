// SurelyHostMemory (runtime/support/host_memory.hpp): the brk heap and the live part of the
// calling thread's stack are known host memory; anything else is not known.
#include <alloca.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <thread>

#include "runtime/support/host_memory.hpp"

namespace halyard {
namespace {

// alloca: always the thread's own stack, also where a sanitizer moves locals to a fake stack.
TEST(SurelyHostMemory, TheCallersStackIsHost) {
  void* on_stack = alloca(16);
  EXPECT_TRUE(SurelyHostMemory::now().contains(on_stack));
}

TEST(SurelyHostMemory, TheBrkHeapIsHost) {
  // Grow the break by a page ourselves (malloc may not use brk, e.g. under a sanitizer).
  void* page = sbrk(4096);
  ASSERT_NE(page, reinterpret_cast<void*>(-1));
  EXPECT_TRUE(SurelyHostMemory::now().contains(page));
  EXPECT_TRUE(SurelyHostMemory::now().contains(static_cast<char*>(page) + 4095));
  EXPECT_FALSE(SurelyHostMemory::now().contains(sbrk(0)));  // the break itself is outside
}

TEST(SurelyHostMemory, MappedMemoryIsNotKnown) {
  // CUDA's allocations are mappings like this one: never taken for host by address.
  void* mapped = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  EXPECT_FALSE(SurelyHostMemory::now().contains(mapped));
  munmap(mapped, 1 << 20);
  EXPECT_FALSE(SurelyHostMemory::now().contains(nullptr));
}

TEST(SurelyHostMemory, EachThreadKnowsOnlyItsOwnStack) {
  void* main_stack = alloca(16);
  bool own = false;
  bool other = true;
  std::thread thread([&] {
    void* thread_stack = alloca(16);
    own = SurelyHostMemory::now().contains(thread_stack);
    other = SurelyHostMemory::now().contains(main_stack);
  });
  thread.join();
  EXPECT_TRUE(own);
  EXPECT_FALSE(other);
}

}  // namespace
}  // namespace halyard
