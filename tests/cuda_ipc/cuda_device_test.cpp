// CudaDeviceSupport on one process: memory-kind detection (also without a GPU), the GPU
// reduction kernels against the CPU kernels for every (op, datatype) pair, copies, exports.
// Tests that need a GPU skip with "skipped: no CUDA device" where there is none (CI).
#include "transports/cuda_ipc/cuda_device_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/event_loop.hpp"
#include "tests/cuda_ipc/device_test_support.hpp"
#include "transports/cuda_ipc/cuda_pointer_query.hpp"

namespace halyard::cuda_ipc {
namespace {

using testing::DeviceBuffer;

// Runs first in its own process (ctest runs each test alone): a host-only program must not
// load the CUDA driver just by asking where its buffers are.
TEST(CudaMemoryKind, HostMemoryNeedsNoCudaAtAll) {
  EventLoop loop;
  CudaDeviceSupport support(loop);
  std::vector<int> host(16);
  EXPECT_EQ(support.kind_of(host.data()), MemoryKind::kHost);
  EXPECT_EQ(support.kind_of(nullptr), MemoryKind::kHost);
  EXPECT_FALSE(cuda_driver_loaded());
}

// Also meaningful without a GPU: once the driver is in (or was refused), host memory is still
// host and nothing throws (no device, no driver and CUDA_VISIBLE_DEVICES="" all land here).
TEST(CudaMemoryKind, HostMemoryIsHostAfterCudaStarted) {
  (void)testing::have_cuda_device();
  EventLoop loop;
  CudaDeviceSupport support(loop);
  std::vector<int> host(16);
  EXPECT_EQ(support.kind_of(host.data()), MemoryKind::kHost);
}

class CudaDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_cuda_device()) GTEST_SKIP() << "skipped: no CUDA device";
    support_ = std::make_unique<CudaDeviceSupport>(loop_);
    source_ = loop_.add_source(*support_);
  }
  void TearDown() override {
    if (support_) loop_.remove_source(source_);
  }
  void wait_ok(const Request& r) { ASSERT_TRUE(r.wait().ok()) << r.status().message; }

  EventLoop loop_;
  std::unique_ptr<CudaDeviceSupport> support_;
  EventLoop::SourceId source_ = 0;
};

TEST_F(CudaDeviceTest, KindsOfMemory) {
  DeviceBuffer device(4096);
  EXPECT_EQ(support_->kind_of(device.data()), MemoryKind::kDevice);
  EXPECT_EQ(support_->kind_of(device.data() + 100), MemoryKind::kDevice);
  void* managed = nullptr;
  ASSERT_EQ(cudaMallocManaged(&managed, 4096), cudaSuccess);
  EXPECT_EQ(support_->kind_of(managed), MemoryKind::kHost);
  cudaFree(managed);
  PinnedBuffer pinned = support_->pinned(4096);
  EXPECT_EQ(support_->kind_of(pinned.get()), MemoryKind::kHost);
  std::vector<int> host(16);
  EXPECT_EQ(support_->kind_of(host.data()), MemoryKind::kHost);
}

std::vector<std::byte> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::byte> v(n);
  for (auto& b : v) b = static_cast<std::byte>(rng());
  return v;
}

// Three random inputs (every bit pattern: NaN, infinities, subnormals, wrapping integers),
// folded on the GPU and by the CPU kernels in the same order.
TEST_F(CudaDeviceTest, KernelsMatchTheCpuKernelsForEveryPair) {
  constexpr std::size_t kCount = 4099;
  for (const auto& [op, type] : testing::every_op_type()) {
    SCOPED_TRACE(std::string(op_name(op)) + " " + std::string(datatype_name(type)));
    const std::size_t bytes = kCount * datatype_size(type);
    std::vector<std::vector<std::byte>> inputs;
    std::vector<std::unique_ptr<DeviceBuffer>> device_inputs;
    std::vector<const void*> pointers;
    for (unsigned k = 0; k < 3; ++k) {
      inputs.push_back(random_bytes(
          bytes, 17 * k + static_cast<unsigned>(op) * 31 + static_cast<unsigned>(type)));
      device_inputs.push_back(std::make_unique<DeviceBuffer>(bytes));
      device_inputs.back()->upload(inputs.back());
      pointers.push_back(device_inputs.back()->data());
    }
    DeviceBuffer out(bytes);
    wait_ok(support_->reduce(op, type, out.data(), pointers, kCount));
    std::vector<std::byte> want(bytes);
    reduce_to(op, type, want.data(), inputs[0].data(), inputs[1].data(), kCount);
    reduce_into(op, type, want.data(), inputs[2].data(), kCount);
    EXPECT_EQ(testing::first_difference(type, out.download(), want), -1);

    // In place: the output is the second input.
    wait_ok(support_->reduce(op, type, device_inputs[1]->data(), pointers, kCount));
    EXPECT_EQ(testing::first_difference(type, device_inputs[1]->download(), want), -1);
  }
}

TEST_F(CudaDeviceTest, OneInputAndZeroCount) {
  DeviceBuffer in(64), out(64);
  auto data = random_bytes(64, 5);
  in.upload(data);
  const void* one[] = {in.data()};
  wait_ok(support_->reduce(Op::kSum, Datatype::kInt32, out.data(), one, 16));
  EXPECT_EQ(out.download(), data);
  wait_ok(support_->reduce(Op::kSum, Datatype::kInt32, out.data(), one, 0));
  EXPECT_THROW(support_->reduce(Op::kBand, Datatype::kFloat32, out.data(), one, 16), Error);
}

TEST_F(CudaDeviceTest, CopiesBetweenDeviceAndPinnedMemory) {
  constexpr std::size_t kBytes = (1 << 20) + 3;
  auto data = random_bytes(kBytes, 9);
  DeviceBuffer a(kBytes), b(kBytes);
  a.upload(data);
  wait_ok(support_->copy(b.data(), a.data(), kBytes));
  EXPECT_EQ(b.download(), data);
  PinnedBuffer staging = support_->pinned(kBytes);
  wait_ok(support_->copy(staging.get(), b.data(), kBytes));
  EXPECT_EQ(std::memcmp(staging.get(), data.data(), kBytes), 0);
  wait_ok(support_->copy(a.data() + 1, staging.get(), kBytes - 1));
  auto back = a.download();
  EXPECT_EQ(std::memcmp(back.data() + 1, data.data(), kBytes - 1), 0);
  wait_ok(support_->copy(a.data(), b.data(), 0));
}

TEST_F(CudaDeviceTest, ExportNamesTheAllocationAndTheOffset) {
  DeviceBuffer buffer(1 << 20);
  DeviceBufferExport e = support_->export_buffer(buffer.data() + 4096, 100);
  EXPECT_EQ(e.allocation_base, reinterpret_cast<std::uint64_t>(buffer.data()));
  EXPECT_GE(e.allocation_bytes, std::uint64_t{1} << 20);
  EXPECT_EQ(e.offset, 4096u);
  EXPECT_NE(e.buffer_id, 0u);
  EXPECT_THROW(support_->export_buffer(buffer.data() + (1 << 20) - 10, 100), Error);
}

TEST_F(CudaDeviceTest, AReusedAddressGetsANewBufferId) {
  std::uint64_t first_id = 0;
  std::uint64_t first_base = 0;
  {
    DeviceBuffer buffer(1 << 20);
    auto e = support_->export_buffer(buffer.data(), 16);
    first_id = e.buffer_id;
    first_base = e.allocation_base;
  }
  DeviceBuffer again(1 << 20);
  auto e = support_->export_buffer(again.data(), 16);
  EXPECT_NE(e.buffer_id, first_id);
  if (e.allocation_base != first_base) GTEST_LOG_(INFO) << "the allocator chose another address";
}

TEST_F(CudaDeviceTest, PinnedBuffersAreReused) {
  void* first = nullptr;
  {
    PinnedBuffer a = support_->pinned(1 << 20);
    first = a.get();
  }
  PinnedBuffer b = support_->pinned(1000);
  EXPECT_EQ(b.get(), first);
}

// Issue 27, item 16: a rank on device k != 0 whose work is issued from a thread that never chose
// a device (the progress thread) must still get it on device k, and the issuing thread keeps its
// own current device. Needs two GPUs (skips on one).
TEST_F(CudaDeviceTest, WorkFromAnotherThreadRunsOnTheRanksDevice) {
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (devices < 2) GTEST_SKIP() << "skipped: needs two CUDA devices";
  const int rank_device = devices - 1;
  ASSERT_EQ(cudaSetDevice(rank_device), cudaSuccess);
  constexpr std::size_t kBytes = 1 << 20;
  auto data = random_bytes(kBytes, 27);
  DeviceBuffer a(kBytes), b(kBytes);
  a.upload(data);
  ASSERT_EQ(support_->kind_of(a.data()), MemoryKind::kDevice);  // the rank's device is chosen
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  std::thread other([&] {
    // A fresh thread's current device is 0.
    Request copy = support_->copy(b.data(), a.data(), kBytes);
    int current = -1;
    EXPECT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, 0) << "the issuing thread's device was changed";
    EXPECT_TRUE(copy.wait().ok()) << copy.status().message;
  });
  other.join();
  ASSERT_EQ(cudaSetDevice(rank_device), cudaSuccess);
  EXPECT_EQ(b.download(), data);
}

}  // namespace
}  // namespace halyard::cuda_ipc
