// Which path a call takes by where its buffers live, with a fake DeviceSupport that calls a
// fixed address range "device memory" (no GPU needed): the memory-kind check of one rank's
// buffers, the automatic device path by communicator shape, and the call signature that
// HALYARD_CHECK compares across ranks.
#include <gtest/gtest.h>

#include <alloca.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <string>

#include "collectives/collectives.hpp"
#include "collectives/core/memory_kind.hpp"
#include "collectives/guard/call_signature.hpp"
#include "collectives/select/catalog.hpp"
#include "runtime/support/error.hpp"

namespace halyard {
namespace {

// A mapping, like CUDA's device memory: the brk heap and the stack are host memory by address
// (runtime/support/host_memory.hpp), so a fake device range there would never be asked about.
class MappedRange {
 public:
  MappedRange()
      : bytes_(static_cast<std::byte*>(
            mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))) {
    if (bytes_ == MAP_FAILED) throw Error(ErrorCode::kInternal, "mmap failed");
  }
  ~MappedRange() { munmap(bytes_, kBytes); }
  MappedRange(const MappedRange&) = delete;
  MappedRange& operator=(const MappedRange&) = delete;
  std::byte* data() const { return bytes_; }
  static constexpr std::size_t size() { return kBytes; }

 private:
  static constexpr std::size_t kBytes = 4096;
  std::byte* bytes_;
};

// Addresses inside `device_range` are device memory; `unusable` makes them an Error, as
// CudaDeviceSupport does for device memory this process cannot use.
class FakeDeviceSupport final : public DeviceSupport {
 public:
  MappedRange device_range;
  bool unusable = false;
  bool driver_loaded = true;
  int queries = 0;
  int driver_questions = 0;

  bool may_hold_device_memory() override {
    ++driver_questions;
    return driver_loaded;
  }

  MemoryKind kind_of(const void* p) override {
    ++queries;
    const auto* b = static_cast<const std::byte*>(p);
    if (b >= device_range.data() && b < device_range.data() + device_range.size()) {
      if (unusable) throw Error(ErrorCode::kUnsupported, "a buffer is CUDA device memory but");
      return MemoryKind::kDevice;
    }
    return MemoryKind::kHost;
  }
  DeviceBufferExport export_buffer(const void*, std::size_t) override { return {}; }
  PeerMapping map_peer_buffer(int, const DeviceBufferExport&) override { return nullptr; }
  Request copy(void*, const void*, std::size_t) override { return {}; }
  Request reduce(Op, Datatype, void*, std::span<const void* const>, std::size_t) override {
    return {};
  }
  PinnedBuffer pinned(std::size_t) override { return nullptr; }
};

using core::call_memory_kind;

TEST(DeviceDispatch, HostBuffersAreHost) {
  FakeDeviceSupport fake;
  std::array<std::byte, 16> host{};
  EXPECT_EQ(call_memory_kind(&fake, {{host.data(), "send"}, {host.data() + 8, "recv"}}, "op"),
            MemoryKind::kHost);
}

// The driver is asked first, once per call (whether device memory can exist at all: cheap, the
// CUDA support remembers "no driver" for a tick of the coarse clock); where it may, buffers on
// the stack or in the brk heap are host memory by address and are not asked about.
TEST(DeviceDispatch, StackAndHeapBuffersAreNotAskedAbout) {
  FakeDeviceSupport fake;
  auto* on_stack = static_cast<std::byte*>(alloca(16));  // the real stack, under sanitizers too
  void* heap = sbrk(64);  // malloc may not use brk (sanitizers): take heap memory directly
  ASSERT_NE(heap, reinterpret_cast<void*>(-1));
  EXPECT_EQ(call_memory_kind(&fake, {{on_stack, "send"}, {heap, "recv"}}, "iallreduce"),
            MemoryKind::kHost);
  EXPECT_EQ(fake.driver_questions, 1);
  EXPECT_EQ(fake.queries, 0);
  // A mapped host buffer is not known by address: asked like any other.
  MappedRange mapped_host;
  EXPECT_EQ(
      call_memory_kind(&fake, {{on_stack, "send"}, {mapped_host.data(), "recv"}}, "iallreduce"),
      MemoryKind::kHost);
  EXPECT_EQ(fake.driver_questions, 2);
  EXPECT_EQ(fake.queries, 2);
}

TEST(DeviceDispatch, DeviceBuffersAreDevice) {
  FakeDeviceSupport fake;
  EXPECT_EQ(
      call_memory_kind(
          &fake, {{fake.device_range.data(), "send"}, {fake.device_range.data() + 128, "recv"}},
          "op"),
      MemoryKind::kDevice);
}

TEST(DeviceDispatch, NullAndInPlaceBuffersAreSkipped) {
  FakeDeviceSupport fake;
  EXPECT_EQ(call_memory_kind(&fake, {{kInPlace, "send"}, {fake.device_range.data(), "recv"}},
                             "iallreduce"),
            MemoryKind::kDevice);
  EXPECT_EQ(call_memory_kind(&fake, {{nullptr, "buffer"}}, "ibcast"), MemoryKind::kHost);
  EXPECT_EQ(fake.queries, 1);  // neither kInPlace nor null reached kind_of
}

TEST(DeviceDispatch, WithoutPossibleDeviceMemoryNoBufferIsAsked) {
  FakeDeviceSupport fake;
  fake.driver_loaded = false;
  EXPECT_EQ(call_memory_kind(
                &fake, {{fake.device_range.data(), "send"}, {fake.device_range.data(), "recv"}},
                "iallreduce"),
            MemoryKind::kHost);
  EXPECT_EQ(fake.queries, 0);
  fake.driver_loaded = true;  // the program loaded CUDA: its buffers are asked about again
  EXPECT_EQ(call_memory_kind(&fake, {{fake.device_range.data(), "buffer"}}, "ibcast"),
            MemoryKind::kDevice);
  EXPECT_EQ(fake.queries, 1);
}

TEST(DeviceDispatch, MixingHostAndDeviceOnOneRankIsAnErrorNamingBoth) {
  FakeDeviceSupport fake;
  std::array<std::byte, 16> host{};
  try {
    call_memory_kind(&fake, {{host.data(), "send"}, {fake.device_range.data(), "recv"}},
                     "iallreduce");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(std::string(e.what()),
              "iallreduce: send is host memory but recv is device memory; the buffers of one "
              "call must both be host or both be CUDA device memory");
  }
}

TEST(DeviceDispatch, DeviceMemoryThatCannotBeUsedIsAnError) {
  FakeDeviceSupport fake;
  fake.unusable = true;
  EXPECT_THROW(call_memory_kind(&fake, {{fake.device_range.data(), "buffer"}}, "ibcast"), Error);
}

TEST(DeviceDispatch, WithoutDeviceSupportEverythingIsHost) {
  FakeDeviceSupport fake;
  EXPECT_EQ(call_memory_kind(static_cast<DeviceSupport*>(nullptr),
                             {{fake.device_range.data(), "buffer"}}, "ibcast"),
            MemoryKind::kHost);
}

// Device buffers find their catalog entry by memory kind and communicator shape.
TEST(DeviceDispatch, EntryFollowsMemoryAndShape) {
  using core::Algorithm;
  using core::Collective;
  using core::CommShape;
  auto algorithm_for = [](Collective c, const CommShape& shape) {
    const core::AlgorithmEntry* entry = select::entry_for_memory(c, MemoryKind::kDevice, shape);
    EXPECT_NE(entry, nullptr);
    return entry == nullptr ? Algorithm::kLinear : entry->algorithm;
  };
  for (Collective c : {Collective::kBcast, Collective::kReduce, Collective::kAllreduce}) {
    EXPECT_EQ(algorithm_for(c, CommShape::single_node(1)), Algorithm::kNodeIpc);
    EXPECT_EQ(algorithm_for(c, CommShape::single_node(8)), Algorithm::kNodeIpc);
    EXPECT_EQ(algorithm_for(c, CommShape{8, 2, 4}), Algorithm::kStagedNodes);
    EXPECT_EQ(algorithm_for(c, CommShape{4, 4, 1}), Algorithm::kStagedNodes);
  }
  // No device algorithm for the collectives that move blocks.
  EXPECT_EQ(select::entry_for_memory(Collective::kAlltoall, MemoryKind::kDevice,
                                     CommShape::single_node(4)),
            nullptr);
}

TEST(DeviceDispatch, SignaturesOfHostAndDeviceCallsDiffer) {
  using guard::CallSignature;
  auto host =
      CallSignature::reduction(core::Collective::kAllreduce, 8, Datatype::kFloat32, Op::kSum);
  auto device = host.in_memory(MemoryKind::kDevice);
  EXPECT_NE(host, device);
  EXPECT_EQ(guard::differences(device, host), "buffers (device vs host)");
  EXPECT_EQ(guard::describe(device), "allreduce(count 8, float32, sum, device memory)");
  EXPECT_EQ(guard::describe(host), "allreduce(count 8, float32, sum)");
}

TEST(DeviceExport, DescribesTheBufferInsideItsAllocation) {
  DeviceBufferExport e = export_inside_allocation(0x1100, 0x100, 0x1000, 0x1000, 42);
  EXPECT_EQ(e.allocation_base, 0x1000u);
  EXPECT_EQ(e.allocation_bytes, 0x1000u);
  EXPECT_EQ(e.offset, 0x100u);
  EXPECT_EQ(e.buffer_id, 42u);
  EXPECT_NO_THROW(export_inside_allocation(0x1F00, 0x100, 0x1000, 0x1000, 1));  // up to the end
  EXPECT_NO_THROW(export_inside_allocation(0x2000, 0, 0x1000, 0x1000, 1));      // empty, at the end
  EXPECT_THROW(export_inside_allocation(0x1F00, 0x101, 0x1000, 0x1000, 1), Error);
  EXPECT_THROW(export_inside_allocation(0x0F00, 0x10, 0x1000, 0x1000, 1), Error);
  EXPECT_THROW(export_inside_allocation(0x3000, 0, 0x1000, 0x1000, 1), Error);
  EXPECT_THROW(export_inside_allocation(0x1100, ~std::size_t{0}, 0x1000, 0x1000, 1), Error);
}

}  // namespace
}  // namespace halyard
