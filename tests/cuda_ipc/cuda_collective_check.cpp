// GPU-aware collectives through hlaunch: ranks that share the GPU(s) of the machine run bcast,
// reduce and allreduce on device buffers and check every element against a serial reduction
// on the host. Exits 77 ("skipped: no CUDA device") where there is no GPU; CTest reports that
// as skipped (SKIP_RETURN_CODE).
//
//   cuda_collective_check pairs   every (datatype, op) pair, counts 0 .. 4099, in place too
//   cuda_collective_check sizes   float32 sum and bcast from 0 bytes to 256 MiB
//   cuda_collective_check cache   IPC mappings reused across calls, replaced after a free
//   cuda_collective_check mixed   host buffers on one rank, device on the others: an Error
//                                  (run with HALYARD_CHECK=1); mixed buffers on one rank too
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "runtime/reduction.hpp"
#include "tests/cuda_ipc/device_test_support.hpp"
#include "tests/support/small_integers.hpp"
#include "transports/cuda_ipc/cuda_device_support.hpp"

namespace {

using namespace halyard;
using halyard::testing::DeviceBuffer;

int failures = 0;

void fail(int rank, const std::string& what) {
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  ++failures;
}

std::vector<std::byte> contribution(Datatype type, Op op, int rank, std::size_t count) {
  std::vector<std::byte> data(count * datatype_size(type));
  const unsigned spread = op == Op::kProd ? 2 : 3;
  for (std::size_t i = 0; i < count; ++i) {
    testing::store(type, data, i,
                   static_cast<unsigned>((static_cast<std::size_t>(rank) + i) % spread) + 1);
  }
  return data;
}

std::vector<std::byte> expected_reduction(Datatype type, Op op, int size, std::size_t count) {
  std::vector<std::byte> expected = contribution(type, op, 0, count);
  for (int r = 1; r < size; ++r) {
    reduce_into(op, type, expected.data(), contribution(type, op, r, count).data(), count);
  }
  return expected;
}

void compare(int rank, const std::string& what, const std::vector<std::byte>& got,
             const std::vector<std::byte>& want) {
  if (got.size() != want.size() || std::memcmp(got.data(), want.data(), want.size()) != 0) {
    std::size_t i = 0;
    while (i < want.size() && i < got.size() && got[i] == want[i]) ++i;
    fail(rank, what + " differs at byte " + std::to_string(i));
  }
}

// allreduce (out of place and in place), reduce to the last rank, bcast from rank 1 % size.
void check_collectives(const Communicator& comm, Datatype type, Op op, std::size_t count,
                       bool with_bcast) {
  const int rank = comm.rank();
  const int size = comm.size();
  const std::string name = std::string(datatype_name(type)) + "/" + std::string(op_name(op)) +
                           " count " + std::to_string(count);
  const std::size_t bytes = count * datatype_size(type);
  const auto mine = contribution(type, op, rank, count);
  const auto expected = expected_reduction(type, op, size, count);
  DeviceBuffer send(bytes), recv(bytes);
  send.upload(mine);

  allreduce(comm, send.data(), recv.data(), count, type, op);
  compare(rank, "allreduce " + name, recv.download(), expected);

  recv.upload(mine);
  allreduce(comm, kInPlace, recv.data(), count, type, op);
  compare(rank, "allreduce in place " + name, recv.download(), expected);

  const int root = size - 1;
  DeviceBuffer at_root(bytes);
  reduce(comm, send.data(), rank == root ? at_root.data() : nullptr, count, type, op, root);
  if (rank == root) compare(rank, "reduce " + name, at_root.download(), expected);

  if (with_bcast) {
    const int bcast_root = 1 % size;
    DeviceBuffer buffer(bytes);
    const auto data = contribution(type, Op::kSum, 1000, count);
    buffer.upload(rank == bcast_root ? data : std::vector<std::byte>(bytes));
    bcast(comm, buffer.data(), count, type, bcast_root);
    compare(rank, "bcast " + name, buffer.download(), data);
  }
}

void pairs_suite(const Communicator& world) {
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{4099}}) {
    for (const auto& [op, type] : testing::every_op_type()) {
      check_collectives(world, type, op, count, op == Op::kSum);
    }
  }
}

void sizes_suite(const Communicator& world) {
  for (std::size_t bytes : {std::size_t{0}, std::size_t{4} << 10, std::size_t{1} << 20,
                            std::size_t{64} << 20, std::size_t{256} << 20}) {
    check_collectives(world, Datatype::kFloat32, Op::kSum, bytes / 4, true);
  }
}

cuda_ipc::CudaDeviceSupport& cuda_support(Runtime& runtime) {
  auto* support = dynamic_cast<cuda_ipc::CudaDeviceSupport*>(runtime.device_support());
  if (support == nullptr) throw std::runtime_error("the runtime has no CUDA device support");
  return *support;
}

void cache_suite(Runtime& runtime) {
  const Communicator& world = runtime.world();
  const int rank = world.rank();
  const auto& mappings = cuda_support(runtime).mappings();
  constexpr std::size_t kCount = 1 << 18;
  const auto expected = expected_reduction(Datatype::kInt32, Op::kSum, world.size(), kCount);
  auto run = [&](const DeviceBuffer& send, const DeviceBuffer& recv, const char* what) {
    send.upload(contribution(Datatype::kInt32, Op::kSum, rank, kCount));
    allreduce(world, send.data(), recv.data(), kCount, Datatype::kInt32, Op::kSum);
    compare(rank, what, recv.download(), expected);
  };
  {
    DeviceBuffer send(kCount * 4), recv(kCount * 4);
    run(send, recv, "first call");
    const auto opens = mappings.opens();
    const auto hits = mappings.hits();
    if (world.size() > 1 && opens == 0) fail(rank, "the first call opened no IPC mapping");
    run(send, recv, "second call on the same buffers");
    if (mappings.opens() != opens) fail(rank, "the second call opened mappings again");
    if (world.size() > 1 && mappings.hits() <= hits) fail(rank, "the second call hit no mapping");
  }
  // The buffers are freed; new ones (often at the same addresses) carry new buffer ids, so the
  // peers must map them anew and drop the stale mappings, or read freed memory.
  for (int round = 0; round < 4; ++round) {
    const auto opens = mappings.opens();
    DeviceBuffer send(kCount * 4), recv(kCount * 4);
    run(send, recv, "call on re-allocated buffers");
    if (world.size() > 1 && mappings.opens() == opens) {
      fail(rank, "re-allocated buffers were not mapped anew");
    }
  }
  std::printf("rank %d: %llu opens, %llu hits, %llu closes, %zu cached\n", rank,
              static_cast<unsigned long long>(mappings.opens()),
              static_cast<unsigned long long>(mappings.hits()),
              static_cast<unsigned long long>(mappings.closes()), mappings.size());
}

// Runs `call`, which must throw an Error whose message contains `needle`.
void expect_error(int rank, const char* what, const std::string& needle,
                  const std::function<void()>& call) {
  try {
    call();
    fail(rank, std::string(what) + ": no error");
  } catch (const Error& e) {
    if (std::string(e.what()).find(needle) == std::string::npos) {
      fail(rank, std::string(what) + ": unexpected message: " + e.what());
    } else if (rank == 0) {
      std::printf("%s: %s\n", what, e.what());
    }
  }
}

void mixed_suite(const Communicator& world) {
  const int rank = world.rank();
  constexpr std::size_t kCount = 1024;
  DeviceBuffer device(kCount * 4);
  std::vector<float> host(kCount, 1.0f);
  // One rank's own buffers mixed: refused locally, before any message.
  expect_error(rank, "send on host, recv on device", "send is host memory but recv is device", [&] {
    allreduce(world, host.data(), device.data(), kCount, Datatype::kFloat32, Op::kSum);
  });
  // Rank 0 on host, the others on the device: HALYARD_CHECK's exchange names the difference.
  void* buffer = rank == 0 ? static_cast<void*>(host.data()) : device.data();
  expect_error(rank, "host on rank 0, device elsewhere", "buffers (",
               [&] { allreduce(world, kInPlace, buffer, kCount, Datatype::kFloat32, Op::kSum); });
  // The communicator is still usable afterwards.
  check_collectives(world, Datatype::kFloat32, Op::kSum, kCount, true);
}

int select_device_by_local_rank() {
  int devices = 0;
  testing::cuda_ok(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  const char* local = std::getenv("HALYARD_LOCAL_RANK");
  const int device = (local != nullptr ? std::atoi(local) : 0) % devices;
  testing::cuda_ok(cudaSetDevice(device), "cudaSetDevice");
  return device;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string suite = argc > 1 ? argv[1] : "pairs";
  if (!testing::have_cuda_device()) {
    std::printf("cuda_collective_check %s: skipped: no CUDA device\n", suite.c_str());
    return testing::kSkipExitCode;
  }
  select_device_by_local_rank();
  Runtime runtime;
  const Communicator& world = runtime.world();
  const int rank = world.rank();
  const int size = world.size();
  try {
    if (suite == "pairs") {
      pairs_suite(world);
    } else if (suite == "sizes") {
      sizes_suite(world);
    } else if (suite == "cache") {
      cache_suite(runtime);
    } else if (suite == "mixed") {
      mixed_suite(world);
    } else {
      std::fprintf(stderr, "unknown suite '%s'\n", suite.c_str());
      return 2;
    }
  } catch (const std::exception& e) {
    fail(rank, std::string("exception: ") + e.what());
  }
  runtime.finalize();
  if (failures > 0) return 1;
  if (rank == 0)
    std::printf("cuda_collective_check %s: correct on %d ranks\n", suite.c_str(), size);
  return 0;
}
