// cuda_driver_loaded() remembers "no driver" only for the coarse clock's current tick
// (cuda_pointer_query.cpp): a driver loaded after a look that found none is seen once the tick
// has passed. Loads the CUDA toolkit's stub libcuda.so (HALYARD_STUB_LIBCUDA), which answers
// every call with cudaErrorStubLibrary but is a loaded libcuda.so all the same.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <thread>

#include "transports/cuda_ipc/cuda_pointer_query.hpp"

namespace {

timespec coarse_resolution() {
  timespec resolution{};
  clock_getres(CLOCK_MONOTONIC_COARSE, &resolution);
  return resolution;
}

}  // namespace

TEST(DriverLook, ADriverLoadedAfterALookIsSeenOnceTheTickPassed) {
  ASSERT_EQ(::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), nullptr)
      << "this test needs a process without the CUDA driver";
  EXPECT_FALSE(halyard::cuda_ipc::cuda_driver_loaded());
  void* stub = ::dlopen(HALYARD_STUB_LIBCUDA, RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(stub, nullptr) << ::dlerror();
  // Two ticks later the remembered absence no longer holds.
  const timespec tick = coarse_resolution();
  std::this_thread::sleep_for(
      2 * (std::chrono::seconds(tick.tv_sec) + std::chrono::nanoseconds(tick.tv_nsec)));
  EXPECT_TRUE(halyard::cuda_ipc::cuda_driver_loaded());
}
