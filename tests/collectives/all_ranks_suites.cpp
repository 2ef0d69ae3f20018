// allreduce, allgather, alltoall and barrier: every small count, several datatype/op pairs,
// kInPlace where the API allows it, and one large count.
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

std::string label(const char* collective, std::size_t count, const char* variant = "") {
  return std::string(collective) + variant + " count " + std::to_string(count);
}

// Every rank must hold the same bits after an allreduce, not merely values within tolerance.
void expect_same_on_all_ranks(const Communicator& comm, const std::vector<std::byte>& result,
                              const std::string& what) {
  std::uint64_t mine = fingerprint(result.data(), result.size());
  std::vector<std::uint64_t> all(static_cast<std::size_t>(comm.size()));
  expect_ok(iallgather(comm, &mine, all.data(), 1, Datatype::kUint64), what + " fingerprints");
  for (int r = 0; r < comm.size(); ++r) {
    if (all[static_cast<std::size_t>(r)] != mine) {
      fail(what + ": result differs between this rank and rank " + std::to_string(r));
    }
  }
}

void check_allreduce(const Communicator& comm, const ElementCase& c, std::size_t count,
                     std::uint32_t seed, bool in_place) {
  std::vector<std::byte> send = make_input(c, comm.rank(), count, seed);
  std::vector<std::byte> recv = in_place ? send : junk(send.size());
  std::string what = label("allreduce", count, in_place ? " in-place" : "");
  expect_ok(iallreduce(comm, in_place ? kInPlace : send.data(), recv.data(), count, c.type, c.op),
            what);
  std::vector<std::byte> expected = reference_reduction(c, comm.size(), count, seed);
  expect_elements(what, c, recv.data(), expected.data(), count);
  if (!c.exact) expect_same_on_all_ranks(comm, recv, what);
}

void check_allgather(const Communicator& comm, const ElementCase& c, std::size_t count,
                     std::uint32_t seed, bool in_place) {
  std::size_t block = count * datatype_size(c.type);
  std::vector<std::byte> send = make_input(c, comm.rank(), count, seed);
  std::vector<std::byte> recv = junk(block * static_cast<std::size_t>(comm.size()));
  if (in_place) {
    std::copy(
        send.begin(), send.end(),
        recv.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(comm.rank()) * block));
  }
  std::string what = label("allgather", count, in_place ? " in-place" : "");
  expect_ok(iallgather(comm, in_place ? kInPlace : send.data(), recv.data(), count, c.type), what);
  for (int r = 0; r < comm.size(); ++r) {
    std::vector<std::byte> expected = make_input(c, r, count, seed);
    expect_elements(what + " block " + std::to_string(r), c,
                    recv.data() + static_cast<std::size_t>(r) * block, expected.data(), count);
  }
}

// Block d of rank s's send is make_input(s, seed + d): distinct for every (sender, receiver).
void check_alltoall(const Communicator& comm, const ElementCase& c, std::size_t count,
                    std::uint32_t seed) {
  std::size_t block = count * datatype_size(c.type);
  std::size_t p = static_cast<std::size_t>(comm.size());
  std::vector<std::byte> send;
  for (std::size_t d = 0; d < p; ++d) {
    std::vector<std::byte> part =
        make_input(c, comm.rank(), count, seed + static_cast<std::uint32_t>(d) * 1000u);
    send.insert(send.end(), part.begin(), part.end());
  }
  std::vector<std::byte> recv = junk(block * p);
  std::string what = label("alltoall", count);
  expect_ok(ialltoall(comm, send.data(), recv.data(), count, c.type), what);
  for (int s = 0; s < comm.size(); ++s) {
    std::vector<std::byte> expected =
        make_input(c, s, count, seed + static_cast<std::uint32_t>(comm.rank()) * 1000u);
    expect_elements(what + " block from " + std::to_string(s), c,
                    recv.data() + static_cast<std::size_t>(s) * block, expected.data(), count);
  }
}

const ElementCase kAllreduceCases[] = {
    {Datatype::kInt32, Op::kSum},   {Datatype::kFloat32, Op::kSum, false},
    {Datatype::kUint8, Op::kBxor},  {Datatype::kFloat64, Op::kMax},
    {Datatype::kFloat16, Op::kSum}, {Datatype::kBFloat16, Op::kMin},
    {Datatype::kInt64, Op::kProd},  {Datatype::kUint16, Op::kLand}};
const ElementCase kAllRanksMoveCases[] = {
    {Datatype::kInt32, Op::kSum}, {Datatype::kUint8, Op::kSum}, {Datatype::kFloat64, Op::kSum}};

}  // namespace

void allreduce_suite(const SuiteContext& ctx) {
  std::uint32_t seed = 10;
  for (std::size_t i = 0; i < std::size(kAllreduceCases); ++i) {
    for (std::size_t count : ctx.small_counts) {
      check_allreduce(ctx.world, kAllreduceCases[i], count, seed++, (i + count) % 2 == 1);
    }
  }
  check_allreduce(ctx.world, kAllreduceCases[0], ctx.large_count, seed++, false);
  check_allreduce(ctx.world, kAllreduceCases[1], ctx.large_count / 4, seed++, true);
}

void allgather_suite(const SuiteContext& ctx) {
  std::uint32_t seed = 20;
  for (std::size_t i = 0; i < std::size(kAllRanksMoveCases); ++i) {
    for (std::size_t count : ctx.small_counts) {
      check_allgather(ctx.world, kAllRanksMoveCases[i], count, seed++, (i + count) % 2 == 1);
    }
  }
  check_allgather(ctx.world, kAllRanksMoveCases[0], ctx.large_count / 4, seed++, true);
}

void alltoall_suite(const SuiteContext& ctx) {
  std::uint32_t seed = 30;
  for (const ElementCase& c : kAllRanksMoveCases) {
    for (std::size_t count : ctx.small_counts) check_alltoall(ctx.world, c, count, seed++);
  }
  check_alltoall(ctx.world, kAllRanksMoveCases[0], ctx.large_count / 4, seed++);
}

// A barrier's effect cannot be observed without timing, so check that many barriers complete,
// back to back and several in flight at once, and that p2p traffic around them is undisturbed.
void barrier_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  for (int i = 0; i < 20; ++i) expect_ok(ibarrier(w), "barrier " + std::to_string(i));
  std::vector<Request> inflight;
  for (int i = 0; i < 5; ++i) inflight.push_back(ibarrier(w));
  for (const Request& r : inflight) expect_ok(r, "barrier in flight");
  int right = (w.rank() + 1) % w.size();
  int left = (w.rank() + w.size() - 1) % w.size();
  int token = w.rank();
  int got = -1;
  Request receive = w.irecv(left, 7, &got, sizeof got);
  expect_ok(ibarrier(w), "barrier between p2p");
  expect_ok(w.isend(right, 7, &token, sizeof token), "p2p send around barrier");
  expect_ok(receive, "p2p receive around barrier");
  if (got != left)
    fail("p2p token around barrier: expected " + std::to_string(left) + ", got " +
         std::to_string(got));
  // Nobody leaves before the last member arrives: rank 0, then the last rank, comes 60 ms late
  // (after a barrier that lines everyone up); the others must have waited for it.
  using Clock = std::chrono::steady_clock;
  constexpr auto kLate = std::chrono::milliseconds(60);
  for (int late : {0, w.size() - 1}) {
    expect_ok(ibarrier(w), "barrier before the late one");
    const Clock::time_point entered = Clock::now();
    if (w.rank() == late) std::this_thread::sleep_for(kLate);
    expect_ok(ibarrier(w), "barrier with rank " + std::to_string(late) + " late");
    const auto waited = Clock::now() - entered;
    if (w.size() > 1 && waited < kLate / 2) {
      fail("barrier: rank " + std::to_string(w.rank()) + " left after " +
           std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(waited).count()) +
           " us, before rank " + std::to_string(late) + " (60 ms late) arrived");
    }
  }
}

}  // namespace halyard::testing
