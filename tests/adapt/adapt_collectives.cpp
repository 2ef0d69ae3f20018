// Multi-rank checks of ADAPT bcast and reduce, run through hlaunch:
//   hlaunch -n N [--vnodes K] adapt_collectives <scenario>
// Scenarios: matrix (every tree, root, variant, a range of counts and datatype/op pairs),
// large (a few MiB), huge (64 MiB, few ranks), inflight (several calls in flight on one
// communicator and on split communicators), errors (invalid arguments throw), failure (2 ranks:
// a call fails on one rank while it has receives posted; its request completes only once none
// is left), timeout (2 ranks, run with HALYARD_COLL_TIMEOUT and HALYARD_REDUCE_ALG=adapt:*: rank 1
// never joins a reduce; rank 0's times out, with no receive left when it completes, and exits 3).
// Every result is compared element by element with a serial reference; a mismatch prints the
// rank, the index, the expected and received bytes and exits 1. Once a scenario's collectives
// have completed, no receive they posted may still be waiting on the communicator.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/adapt/adapt.hpp"
#include "collectives/collectives.hpp"
#include "halyard/halyard.hpp"
#include "tests/adapt/element_pairs.hpp"

namespace {

using adapt_test::Pair;
using halyard::Communicator;
using halyard::Request;
namespace adapt = halyard::adapt;

std::string g_scenario;
int g_rank = -1;
int g_checked = 0;  // collectives verified by this rank (printed at the end)

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "adapt_collectives %s: rank %d: FAILED: %s\n", g_scenario.c_str(), g_rank,
               what.c_str());
  std::fflush(stderr);
  std::exit(1);
}

// A receive that outlives its collective would match a later message with its tag (tags wrap
// after 2^24 calls) and slows every arrival's matching.
void expect_no_posted_receives(const Communicator& comm, const char* which) {
  const std::size_t left = comm.posted_receives();
  if (left != 0) {
    fail(std::to_string(left) + " receive(s) still posted on " + which +
         " after every collective completed");
  }
}

std::string hex(const std::byte* p, std::size_t n) {
  std::string s = "0x";
  char buf[3];
  for (std::size_t k = n; k > 0; --k) {  // little-endian: most significant byte first
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(p[k - 1]));
    s += buf;
  }
  return s;
}

void check_elements(const std::byte* got, const std::byte* expected, std::size_t count,
                    std::size_t size, const std::string& what) {
  // count 0: empty vectors may have null data(), which memcmp must not get (UBSan).
  if (count == 0 || std::memcmp(got, expected, count * size) == 0) return;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(got + i * size, expected + i * size, size) != 0) {
      fail(what + ": element " + std::to_string(i) + " of " + std::to_string(count) +
           ": expected " + hex(expected + i * size, size) + ", got " + hex(got + i * size, size));
    }
  }
}

std::vector<std::byte> make_input(const Pair& pair, int rank, std::size_t count,
                                  std::uint32_t seed) {
  std::vector<std::byte> v(count * pair.size);
  for (std::size_t i = 0; i < count; ++i) pair.input(rank, i, seed, v.data() + i * pair.size);
  return v;
}

std::vector<std::byte> reference_reduce(const Pair& pair, int ranks, std::size_t count,
                                        std::uint32_t seed) {
  std::vector<std::byte> acc = make_input(pair, 0, count, seed);
  std::vector<std::byte> in(pair.size);
  for (int r = 1; r < ranks; ++r) {
    for (std::size_t i = 0; i < count; ++i) {
      pair.input(r, i, seed, in.data());
      pair.combine(acc.data() + i * pair.size, in.data());
    }
  }
  return acc;
}

std::string describe(const char* coll, const Pair& pair, const adapt::Params& p, int root,
                     std::size_t count, int comm_size) {
  static const char* variants[] = {"event-driven", "blocking", "waitall"};
  return std::string(coll) + " " + pair.name() +
         " tree=" + std::string(adapt::tree_shape_name(p.tree)) +
         " variant=" + variants[static_cast<int>(p.variant)] + " root=" + std::to_string(root) +
         " count=" + std::to_string(count) + " seg=" + std::to_string(p.segment_bytes) +
         " N/M=" + std::to_string(p.sends_in_flight) + "/" + std::to_string(p.recvs_in_flight) +
         " ranks=" + std::to_string(comm_size);
}

// One broadcast, posted; check() verifies it after completion.
struct BcastCheck {
  const Pair* pair;
  std::size_t count;
  int root;
  std::uint32_t seed;
  std::string what;
  std::vector<std::byte> buffer;
  Request request;

  void post(const Communicator& comm, const adapt::Params& params) {
    buffer = comm.rank() == root ? make_input(*pair, root, count, seed)
                                 : std::vector<std::byte>(count * pair->size, std::byte{0xee});
    request = adapt::ibcast(comm, buffer.data(), count, pair->type, root, params);
  }
  void check(int comm_rank) {
    ++g_checked;
    halyard::Status s = request.wait();
    if (!s.ok()) fail(what + ": request failed: " + s.message);
    std::vector<std::byte> expected = make_input(*pair, root, count, seed);
    check_elements(buffer.data(), expected.data(), count, pair->size,
                   what + " (comm rank " + std::to_string(comm_rank) + ")");
  }
};

struct ReduceCheck {
  const Pair* pair;
  std::size_t count;
  int root;
  std::uint32_t seed;
  bool in_place;
  std::string what;
  std::vector<std::byte> send, recv;
  Request request;

  void post(const Communicator& comm, const adapt::Params& params) {
    send = make_input(*pair, comm.rank(), count, seed);
    const bool at_root = comm.rank() == root;
    recv.assign(count * pair->size, std::byte{0xee});
    const void* source = send.data();
    if (at_root && in_place) {
      recv = send;
      source = halyard::kInPlace;
    }
    request = adapt::ireduce(comm, source, at_root ? recv.data() : nullptr, count, pair->type,
                             pair->op, root, params);
  }
  void check(const Communicator& comm) {
    ++g_checked;
    halyard::Status s = request.wait();
    if (!s.ok()) fail(what + ": request failed: " + s.message);
    if (comm.rank() != root) return;
    std::vector<std::byte> expected = reference_reduce(*pair, comm.size(), count, seed);
    check_elements(recv.data(), expected.data(), count, pair->size, what);
  }
};

void run_bcast(const Communicator& comm, const Pair& pair, const adapt::Params& p, int root,
               std::size_t count, std::uint32_t seed) {
  BcastCheck c{&pair, count, root, seed, describe("bcast", pair, p, root, count, comm.size()),
               {},    {}};
  c.post(comm, p);
  c.check(comm.rank());
}

void run_reduce(const Communicator& comm, const Pair& pair, const adapt::Params& p, int root,
                std::size_t count, std::uint32_t seed, bool in_place) {
  ReduceCheck c{
      &pair,
      count,
      root,
      seed,
      in_place,
      describe("reduce", pair, p, root, count, comm.size()) + (in_place ? " in-place" : ""),
      {},
      {},
      {}};
  c.post(comm, p);
  c.check(comm);
}

const adapt::TreeShape kShapes[] = {adapt::TreeShape::kChain, adapt::TreeShape::kBinary,
                                    adapt::TreeShape::kBinomial, adapt::TreeShape::kKnomial,
                                    adapt::TreeShape::kTopo};
const adapt::Variant kVariants[] = {adapt::Variant::kEventDriven, adapt::Variant::kBlocking,
                                    adapt::Variant::kWaitall};
const int kInFlight[][2] = {{1, 2}, {2, 4}, {4, 8}};

// Every tree x root x variant, counts 0, 1, odd and a non-multiple of the segment; the
// datatype/op pair, N/M and segment size rotate so that every value meets every tree.
void matrix(const Communicator& world) {
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  const std::size_t counts[] = {0, 1, 13, 1001};
  const std::size_t segment_sizes[] = {64, 100, 1024};
  std::uint32_t seed = 1;
  std::size_t turn = 0;
  for (adapt::TreeShape shape : kShapes) {
    for (int root = 0; root < world.size(); ++root) {
      for (adapt::Variant variant : kVariants) {
        for (std::size_t count : counts) {
          adapt::Params p;
          p.tree = shape;
          p.variant = variant;
          p.knomial_radix = 2 + static_cast<int>(turn % 4);
          p.segment_bytes = segment_sizes[turn % 3];
          p.sends_in_flight = kInFlight[turn % 3][0];
          p.recvs_in_flight = kInFlight[turn % 3][1];
          const Pair& pair = pairs[turn % pairs.size()];
          run_bcast(world, pair, p, root, count, seed++);
          run_reduce(world, pair, p, root, count, seed++, turn % 2 == 1);
          ++turn;
        }
      }
    }
  }
  // Every datatype/op pair at least once with a multi-segment message on a fixed tree.
  for (const Pair& pair : pairs) {
    adapt::Params p;
    p.segment_bytes = 256;
    run_reduce(world, pair, p, world.size() - 1, 777, seed++, false);
    run_bcast(world, pair, p, 0, 777, seed++);
  }
}

// A few MiB, default parameters (64 KiB segments), binary and topo trees, all variants.
void large(const Communicator& world) {
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  const std::size_t count = (3u << 20) / 4 + 3;  // 3 MiB of float32 and a bit: not a multiple
  std::uint32_t seed = 100;
  for (adapt::TreeShape shape : {adapt::TreeShape::kBinary, adapt::TreeShape::kTopo}) {
    for (adapt::Variant variant : kVariants) {
      adapt::Params p;
      p.tree = shape;
      p.variant = variant;
      const int root = world.size() / 2;
      run_bcast(world, pairs[0], p, root, count, seed++);
      run_reduce(world, pairs[0], p, root, count, seed++, false);
    }
  }
}

// 64 MiB of float32, event-driven, 1 MiB segments, on a chain (so that with 3 ranks one of
// them forwards and accumulates).
void huge(const Communicator& world) {
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  const std::size_t count = (64u << 20) / 4;
  adapt::Params p;
  p.tree = adapt::TreeShape::kChain;
  p.segment_bytes = 1 << 20;
  run_bcast(world, pairs[0], p, world.size() - 1, count, 7);
  run_reduce(world, pairs[0], p, 0, count, 8, false);
}

// Several collectives posted before any is waited for, on the world and on two halves of it;
// the calls differ in root, tree, N/M and segment size, so their segments interleave.
void inflight(const Communicator& world) {
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  Communicator half = world.split(world.rank() % 2, world.size() - world.rank());
  std::vector<BcastCheck> bcasts;
  std::vector<ReduceCheck> reduces;
  std::vector<adapt::Params> bcast_params, reduce_params;
  std::vector<const Communicator*> bcast_comms, reduce_comms;
  std::uint32_t seed = 500;
  bcasts.reserve(16);
  reduces.reserve(16);
  for (int k = 0; k < 12; ++k) {
    const Communicator& comm = k % 3 == 2 ? half : world;
    adapt::Params p;
    p.tree = kShapes[k % 5];
    p.segment_bytes = 128u << (k % 4);
    p.sends_in_flight = kInFlight[k % 3][0];
    p.recvs_in_flight = kInFlight[k % 3][1];
    const Pair& pair = pairs[k % pairs.size()];
    const int root = (k * 3) % comm.size();
    const std::size_t count = 5000 + static_cast<std::size_t>(k) * 37;
    bcasts.push_back(BcastCheck{&pair,
                                count,
                                root,
                                seed++,
                                describe("inflight bcast", pair, p, root, count, comm.size()),
                                {},
                                {}});
    bcasts.back().post(comm, p);
    reduces.push_back(ReduceCheck{
        &pair,
        count,
        (root + 1) % comm.size(),
        seed++,
        k % 2 == 0,
        describe("inflight reduce", pair, p, (root + 1) % comm.size(), count, comm.size()),
        {},
        {},
        {}});
    reduces.back().post(comm, p);
    reduce_comms.push_back(&comm);
    bcast_comms.push_back(&comm);
  }
  // Wait in reverse order of posting: completion must not depend on waiting order.
  for (std::size_t k = reduces.size(); k > 0; --k) reduces[k - 1].check(*reduce_comms[k - 1]);
  for (std::size_t k = bcasts.size(); k > 0; --k) bcasts[k - 1].check(bcast_comms[k - 1]->rank());
  expect_no_posted_receives(half, "the split communicator");
}

template <typename F>
void expect_invalid(const char* what, F f) {
  try {
    f();
  } catch (const halyard::Error& e) {
    if (e.code() != halyard::ErrorCode::kInvalidArgument) fail(std::string(what) + ": wrong code");
    return;
  }
  fail(std::string(what) + ": no exception");
}

// The caller's arguments are checked once, at the public entry (core/validate.hpp), before any
// algorithm or tag; ADAPT's parameters where they are built (adapt/params.hpp).
void errors(const Communicator& world) {
  std::vector<float> buf(4);
  adapt::Params p;
  using halyard::Datatype;
  using halyard::Op;
  expect_invalid("bad root",
                 [&] { halyard::ibcast(world, buf.data(), 4, Datatype::kFloat32, world.size()); });
  expect_invalid("null buffer", [&] { halyard::ibcast(world, nullptr, 4, Datatype::kFloat32, 0); });
  expect_invalid("band on float", [&] {
    halyard::ireduce(world, buf.data(), buf.data(), 4, Datatype::kFloat32, Op::kBand, 0);
  });
  adapt::Params bad = p;
  bad.sends_in_flight = 0;
  expect_invalid("N = 0", [&] { adapt::check_params(bad); });
  bad = p;
  bad.knomial_radix = 1;
  bad.tree = adapt::TreeShape::kKnomial;
  expect_invalid("radix 1", [&] { adapt::check_params(bad); });
  if (world.size() > 1) {
    expect_invalid("in place off root", [&] {
      halyard::ireduce(world, halyard::kInPlace, buf.data(), 4, Datatype::kFloat32, Op::kSum,
                       (world.rank() + 1) % world.size());
    });
  }
  // The throws drew no tags: a real call afterwards still matches on every rank.
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  run_bcast(world, pairs[0], p, 0, 100, 9);
}

// Runs `post` (one rank's side of a bcast or reduce that fails on `failing_rank` with
// kTruncated: the peer sends a segment larger than its receive) and checks the outcome: the
// failing rank's request completes only once no receive of the call is left posted (the
// engine contract; before it, the event-driven machines completed with M - 1 receives still
// posted into the user's buffer and the Waitall variants returned with one posted into freed
// slots). The peer succeeds.
template <typename Post>
void expect_failure_drained(const Communicator& comm, int failing_rank, const std::string& what,
                            Post post) {
  ++g_checked;
  std::size_t posted_at_completion = 0;
  Request request = post();
  request.on_complete(
      [&](const halyard::Status&) { posted_at_completion = comm.posted_receives(); });
  const halyard::Status s = request.wait();
  for (int i = 0; i < 4; ++i) comm.loop().poll();  // run the callback above
  if (comm.rank() != failing_rank) {
    if (!s.ok()) fail(what + ": the peer's side failed: " + s.message);
    return;
  }
  if (s.code != halyard::ErrorCode::kTruncated) {
    fail(what + ": expected a truncation, got " + std::string(halyard::error_code_name(s.code)) +
         ": " + s.message);
  }
  if (posted_at_completion != 0) {
    fail(what + ": the request completed with " + std::to_string(posted_at_completion) +
         " receive(s) still posted");
  }
  expect_no_posted_receives(comm, what.c_str());
}

// Two ranks, rank 0 the root. Rank 1 cuts its message into 8 segments of 1 KiB and keeps up
// to M = 4 receives posted; rank 0 sends one segment of 2 KiB, which truncates rank 1's first
// receive (bcast). The same upwards: rank 1 sends 2 KiB to rank 0's 1 KiB receive (reduce).
void failure(const Communicator& world) {
  if (world.size() != 2) fail("the failure scenario runs on 2 ranks");
  const std::size_t small_segments = 2048, whole = 2048 / 4, cut = 8192 / 4;
  for (adapt::Variant variant : kVariants) {
    adapt::Params p;
    p.tree = adapt::TreeShape::kChain;
    p.variant = variant;
    p.sends_in_flight = 2;
    p.recvs_in_flight = 4;
    const bool sender = world.rank() == 0;
    std::vector<std::int32_t> data(cut, 5);
    adapt::Params mine = p;
    mine.segment_bytes = sender ? small_segments : 1024;
    static const char* variant_names[] = {" event-driven", " blocking", " waitall"};
    const std::string variant_name = variant_names[static_cast<int>(variant)];
    expect_failure_drained(world, 1, "failing bcast" + variant_name, [&] {
      return adapt::ibcast(world, data.data(), sender ? whole : cut, halyard::Datatype::kInt32, 0,
                           mine);
    });
    mine.segment_bytes = sender ? 1024 : small_segments;
    std::vector<std::int32_t> result(cut, 0);
    expect_failure_drained(world, 0, "failing reduce" + variant_name, [&] {
      return adapt::ireduce(world, data.data(), sender ? result.data() : nullptr,
                            sender ? cut : whole, halyard::Datatype::kInt32, halyard::Op::kSum, 0,
                            mine);
    });
  }
  // The communicator still works: nothing of the failed calls is left to match later ones.
  const std::vector<Pair> pairs = adapt_test::all_pairs();
  adapt::Params p;
  p.segment_bytes = 1024;
  run_bcast(world, pairs[0], p, 0, 5000, 11);
  run_reduce(world, pairs[0], p, 0, 5000, 12, false);
}

// Rank 1 never joins; rank 0's reduce (through the public API, so the watchdog watches it) has
// up to M receives posted from rank 1 when HALYARD_COLL_TIMEOUT fails the process.
void timeout(const Communicator& world) {
  if (world.size() != 2) fail("the timeout scenario runs on 2 ranks");
  if (world.rank() == 1) {
    std::printf("rank 1 stalls\n");
    std::fflush(stdout);
    ::sleep(60);  // hlaunch ends it once rank 0 exited
    std::exit(1);
  }
  const std::size_t count = 1 << 20;  // 4 MiB of int32: many segments
  std::vector<std::int32_t> send(count, 1), recv(count, 0);
  std::size_t posted_at_completion = 0;
  Request request = halyard::ireduce(world, send.data(), recv.data(), count,
                                     halyard::Datatype::kInt32, halyard::Op::kSum, 0);
  request.on_complete(
      [&](const halyard::Status&) { posted_at_completion = world.posted_receives(); });
  const halyard::Status s = request.wait();
  for (int i = 0; i < 4; ++i) world.loop().poll();  // run the callback above
  std::printf("rank 0: reduce %s with %zu receive(s) posted at completion: %s\n",
              s.code == halyard::ErrorCode::kTimeout ? "timed out" : "did not time out",
              posted_at_completion, s.message.c_str());
  std::fflush(stdout);
  std::_Exit(s.code == halyard::ErrorCode::kTimeout && posted_at_completion == 0 ? 3 : 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: adapt_collectives matrix|large|huge|inflight|errors|failure|timeout\n");
    return 2;
  }
  g_scenario = argv[1];
  halyard::Runtime runtime;
  g_rank = runtime.rank();
  const Communicator& world = runtime.world();
  if (g_scenario == "matrix") {
    matrix(world);
  } else if (g_scenario == "large") {
    large(world);
  } else if (g_scenario == "huge") {
    huge(world);
  } else if (g_scenario == "inflight") {
    inflight(world);
  } else if (g_scenario == "errors") {
    errors(world);
  } else if (g_scenario == "failure") {
    failure(world);
  } else if (g_scenario == "timeout") {
    timeout(world);
  } else {
    fail("unknown scenario");
  }
  expect_no_posted_receives(world, "the world communicator");
  if (g_rank == 0) {
    std::printf("adapt_collectives %s: %d collectives checked on %d ranks: OK\n",
                g_scenario.c_str(), g_checked, runtime.size());
  }
  runtime.finalize();
  return 0;
}
