#include "tests/cuda_ipc/fake_device.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/datatypes/reduction.hpp"
#include "runtime/runtime_services.hpp"

namespace halyard::testing {

namespace {

std::byte* map_arena(Runtime& runtime, std::size_t bytes) {
  const Communicator& world = runtime.world();
  int where[2] = {-1, -1};  // rank 0's pid and memfd
  if (world.rank() == 0) {
    where[0] = static_cast<int>(::getpid());
    where[1] = ::memfd_create("halyard-fake-device", 0);
    if (where[1] < 0 || ::ftruncate(where[1], static_cast<off_t>(bytes)) != 0) {
      throw Error(ErrorCode::kInternal, "fake device: memfd_create/ftruncate failed");
    }
  }
  bcast(world, where, 2, Datatype::kInt32, 0);
  int fd = where[1];
  if (world.rank() != 0) {
    const std::string path = "/proc/" + std::to_string(where[0]) + "/fd/" + std::to_string(fd);
    fd = ::open(path.c_str(), O_RDWR);
    if (fd < 0) throw Error(ErrorCode::kInternal, "fake device: cannot open " + path);
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) throw Error(ErrorCode::kInternal, "fake device: mmap failed");
  barrier(world);  // everyone mapped: rank 0 may close its descriptor
  ::close(fd);
  return static_cast<std::byte*>(base);
}

}  // namespace

FakeDevice::FakeDevice(Runtime& runtime, int failing_rank)
    : runtime_(runtime),
      failing_rank_(failing_rank),
      mappings_([this](const DeviceBufferExport& e) -> void* { return arena_ + e.allocation_base; },
                [](void*) {}) {
  arena_bytes_ = kRegionBytes * static_cast<std::size_t>(runtime.size());
  arena_ = map_arena(runtime, arena_bytes_);
  region_ = arena_ + kRegionBytes * static_cast<std::size_t>(runtime.rank());
  runtime.services().device_support = this;
}

FakeDevice::~FakeDevice() {
  runtime_.services().device_support = runtime_.device_support();
  ::munmap(arena_, arena_bytes_);
}

std::byte* FakeDevice::allocate(std::size_t bytes) {
  const std::size_t aligned = (std::max<std::size_t>(bytes, 1) + 255) & ~std::size_t{255};
  if (next_ + aligned > kRegionBytes) throw Error(ErrorCode::kInternal, "fake device: full");
  std::byte* p = region_ + next_;
  // A re-used address range belongs to a new allocation from now on.
  std::erase_if(allocations_, [&](const Allocation& a) {
    return a.offset < static_cast<std::uint64_t>(p - arena_) + aligned &&
           static_cast<std::uint64_t>(p - arena_) < a.offset + a.bytes;
  });
  allocations_.push_back({static_cast<std::uint64_t>(p - arena_), aligned, next_id_++});
  next_ += aligned;
  return p;
}

const FakeDevice::Allocation& FakeDevice::allocation_of(const void* pointer) const {
  const auto offset = static_cast<std::uint64_t>(static_cast<const std::byte*>(pointer) - arena_);
  for (const Allocation& a : allocations_) {
    if (offset >= a.offset && offset < a.offset + a.bytes) return a;
  }
  throw Error(ErrorCode::kInvalidArgument, "fake device: not an allocation of this rank");
}

MemoryKind FakeDevice::kind_of(const void* pointer) {
  const auto* p = static_cast<const std::byte*>(pointer);
  return p >= arena_ && p < arena_ + arena_bytes_ ? MemoryKind::kDevice : MemoryKind::kHost;
}

DeviceBufferExport FakeDevice::export_buffer(const void* pointer, std::size_t bytes) {
  if (runtime_.rank() == failing_rank_) {
    throw Error(ErrorCode::kTransport, "fake device: export refused on purpose");
  }
  const Allocation& a = allocation_of(pointer);
  const auto address = static_cast<std::uint64_t>(static_cast<const std::byte*>(pointer) - arena_);
  return export_inside_allocation(address, bytes, a.offset, a.bytes, a.id);
}

PeerMapping FakeDevice::map_peer_buffer(int world_rank, const DeviceBufferExport& exported) {
  return mappings_.map(world_rank, exported);
}

Request FakeDevice::copy(void* destination, const void* source, std::size_t bytes) {
  if (bytes > 0) std::memmove(destination, source, bytes);
  return Request::make_completed(runtime_.loop(), Status{});
}

Request FakeDevice::reduce(Op op, Datatype type, void* out, std::span<const void* const> inputs,
                           std::size_t count) {
  const std::size_t bytes = count * datatype_size(type);
  std::vector<std::byte> acc(bytes);
  if (bytes > 0) std::memcpy(acc.data(), inputs[0], bytes);
  for (std::size_t k = 1; k < inputs.size(); ++k)
    reduce_into(op, type, acc.data(), inputs[k], count);
  if (bytes > 0) std::memcpy(out, acc.data(), bytes);
  return Request::make_completed(runtime_.loop(), Status{});
}

PinnedBuffer FakeDevice::pinned(std::size_t bytes) {
  return PinnedBuffer(new std::byte[std::max<std::size_t>(bytes, 1)],
                      std::default_delete<std::byte[]>());
}

}  // namespace halyard::testing
