// pairs  every (datatype, op) pair, counts 0 .. 4099: allreduce (and in place), reduce to the
//        last rank and to rank 1 (not a node leader with --vnodes), bcast from rank 1
// sizes  float32 sum and bcast from 0 bytes up to the context's largest size
// cache  the IPC mappings are reused across calls, and replaced after the buffers are freed
// mixed  buffers mixed on one rank, and host on rank 0 with device elsewhere (run with
//        HALYARD_CHECK=1): clear errors on every rank, and the communicator works afterwards
#include "tests/cuda_ipc/device_collective_suites.hpp"

#include <cstdio>
#include <cstring>
#include <functional>

#include "runtime/datatypes/reduction.hpp"
#include "tests/helpers/small_integers.hpp"

namespace halyard::testing {

namespace {

struct Checker {
  const SuiteContext& context;
  int failures = 0;

  const Communicator& world() const { return context.runtime.world(); }
  int rank() const { return world().rank(); }

  void fail(const std::string& what) {
    std::fprintf(stderr, "rank %d: %s\n", rank(), what.c_str());
    ++failures;
  }

  void compare(const std::string& what, const std::vector<std::byte>& got,
               const std::vector<std::byte>& want) {
    if (got.size() == want.size() &&
        (want.empty() || std::memcmp(got.data(), want.data(), want.size()) == 0)) {
      return;
    }
    std::size_t i = 0;
    while (i < want.size() && i < got.size() && got[i] == want[i]) ++i;
    fail(what + " differs at byte " + std::to_string(i));
  }

  static std::vector<std::byte> contribution(Datatype type, Op op, int rank, std::size_t count) {
    std::vector<std::byte> data(count * datatype_size(type));
    const unsigned spread = op == Op::kProd ? 2 : 3;
    for (std::size_t i = 0; i < count; ++i) {
      store(type, data, i,
            static_cast<unsigned>((static_cast<std::size_t>(rank) + i) % spread) + 1);
    }
    return data;
  }

  std::vector<std::byte> expected(Datatype type, Op op, std::size_t count) const {
    std::vector<std::byte> result = contribution(type, op, 0, count);
    for (int r = 1; r < world().size(); ++r) {
      reduce_into(op, type, result.data(), contribution(type, op, r, count).data(), count);
    }
    return result;
  }

  std::byte* device_copy_of(const std::vector<std::byte>& host) {
    std::byte* p = context.memory.allocate(host.size());
    context.memory.upload(p, host);
    return p;
  }

  std::vector<std::byte> read(const std::byte* p, std::size_t bytes) {
    return context.memory.download(p, bytes);
  }

  void check_reductions(Datatype type, Op op, std::size_t count, bool with_bcast) {
    const int size = world().size();
    const std::string name = std::string(datatype_name(type)) + "/" + std::string(op_name(op)) +
                             " count " + std::to_string(count);
    const std::size_t bytes = count * datatype_size(type);
    const auto mine = contribution(type, op, rank(), count);
    const auto want = expected(type, op, count);
    std::byte* send = device_copy_of(mine);
    std::byte* recv = context.memory.allocate(bytes);

    allreduce(world(), send, recv, count, type, op);
    compare("allreduce " + name, read(recv, bytes), want);
    context.memory.upload(recv, mine);
    allreduce(world(), kInPlace, recv, count, type, op);
    compare("allreduce in place " + name, read(recv, bytes), want);

    for (int root : {size - 1, 1 % size}) {
      std::byte* at_root = rank() == root ? context.memory.allocate(bytes) : nullptr;
      reduce(world(), send, at_root, count, type, op, root);
      if (rank() == root)
        compare("reduce to " + std::to_string(root) + " " + name, read(at_root, bytes), want);
    }
    if (with_bcast) {
      const int root = 1 % size;
      const auto data = contribution(type, Op::kSum, 1000, count);
      std::byte* buffer = device_copy_of(rank() == root ? data : std::vector<std::byte>(bytes));
      bcast(world(), buffer, count, type, root);
      compare("bcast " + name, read(buffer, bytes), data);
    }
    context.memory.release_all();
  }

  void pairs() {
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{4099}}) {
      for (std::size_t o = 0; o < kOpCount; ++o) {
        for (std::size_t t = 0; t < kDatatypeCount; ++t) {
          const auto op = static_cast<Op>(o);
          const auto type = static_cast<Datatype>(t);
          if (op_supports(op, type)) check_reductions(type, op, count, op == Op::kSum);
        }
      }
    }
  }

  void sizes() {
    for (std::size_t bytes = 0; bytes <= context.largest_bytes;
         bytes = bytes == 0 ? 4096 : bytes * 16) {
      check_reductions(Datatype::kFloat32, Op::kSum, bytes / 4, true);
    }
  }

  void cache() {
    if (context.mappings == nullptr) return fail("no IPC mapping cache to look at");
    const cuda_ipc::IpcMappingCache& m = *context.mappings;
    constexpr std::size_t kCount = 1 << 16;
    const bool peers = world().size() > 1;
    const auto want = expected(Datatype::kInt32, Op::kSum, kCount);
    std::byte* send = device_copy_of(contribution(Datatype::kInt32, Op::kSum, rank(), kCount));
    std::byte* recv = context.memory.allocate(kCount * 4);
    allreduce(world(), send, recv, kCount, Datatype::kInt32, Op::kSum);
    compare("first call", read(recv, kCount * 4), want);
    const auto opens = m.opens();
    const auto hits = m.hits();
    if (peers && opens == 0) fail("the first call opened no IPC mapping");
    allreduce(world(), send, recv, kCount, Datatype::kInt32, Op::kSum);
    compare("second call", read(recv, kCount * 4), want);
    if (m.opens() != opens) fail("the second call on the same buffers opened mappings again");
    if (peers && m.hits() <= hits) fail("the second call hit no mapping");
    // Freed and allocated again (at the same addresses where the allocator re-uses them): new
    // buffer ids, so the peers must map anew, or they would read the freed allocations.
    for (int round = 0; round < 3; ++round) {
      context.memory.release_all();
      const auto before = m.opens();
      std::byte* again = device_copy_of(contribution(Datatype::kInt32, Op::kSum, rank(), kCount));
      std::byte* out = context.memory.allocate(kCount * 4);
      allreduce(world(), again, out, kCount, Datatype::kInt32, Op::kSum);
      compare("call on re-allocated buffers", read(out, kCount * 4), want);
      if (peers && m.opens() == before) fail("re-allocated buffers were not mapped anew");
    }
    context.memory.release_all();
    std::printf("rank %d: %llu opens, %llu hits, %llu closes, %zu cached\n", rank(),
                static_cast<unsigned long long>(m.opens()),
                static_cast<unsigned long long>(m.hits()),
                static_cast<unsigned long long>(m.closes()), m.size());
  }

  void expect_error(const char* what, const std::string& needle,
                    const std::function<void()>& call) {
    try {
      call();
      fail(std::string(what) + ": no error");
    } catch (const Error& e) {
      if (std::string(e.what()).find(needle) == std::string::npos) {
        fail(std::string(what) + ": unexpected message: " + e.what());
      } else if (rank() == 0) {
        std::printf("%s: %s\n", what, e.what());
      }
    }
  }

  void mixed() {
    constexpr std::size_t kCount = 1024;
    std::byte* device = context.memory.allocate(kCount * 4);
    std::vector<float> host(kCount, 1.0f);
    expect_error("send on host, recv on device", "send is host memory but recv is device", [&] {
      allreduce(world(), host.data(), device, kCount, Datatype::kFloat32, Op::kSum);
    });
    void* buffer = rank() == 0 ? static_cast<void*>(host.data()) : device;
    expect_error("host on rank 0, device elsewhere", "buffers (", [&] {
      allreduce(world(), kInPlace, buffer, kCount, Datatype::kFloat32, Op::kSum);
    });
    context.memory.release_all();
    check_reductions(Datatype::kFloat32, Op::kSum, kCount, true);  // still usable
  }
};

}  // namespace

int run_device_suite(const SuiteContext& context, const std::string& suite) {
  Checker checker{context};
  try {
    if (suite == "pairs") {
      checker.pairs();
    } else if (suite == "sizes") {
      checker.sizes();
    } else if (suite == "cache") {
      checker.cache();
    } else if (suite == "mixed") {
      checker.mixed();
    } else {
      checker.fail("unknown suite '" + suite + "'");
    }
  } catch (const std::exception& e) {
    checker.fail(std::string("exception: ") + e.what());
  }
  return checker.failures;
}

}  // namespace halyard::testing
