// reduce_scatter_block, reduce_scatter, scan, exscan and reduce_local: several datatype/op
// pairs, every small count, uneven result counts (zeros among them), kInPlace.
#include <string>

#include "collectives/collectives.hpp"
#include "runtime/support/error.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

std::string label(const char* collective, std::size_t count, bool in_place) {
  return std::string(collective) + (in_place ? " in-place" : "") + " count " +
         std::to_string(count);
}

// Result counts of reduce_scatter: count + r, every third rank none.
std::vector<std::size_t> result_counts(int ranks, std::size_t count) {
  std::vector<std::size_t> counts(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < counts.size(); ++r) counts[r] = r % 3 == 1 ? 0 : count + r;
  return counts;
}

// `counts` == null: reduce_scatter_block with `count` per rank.
void check_reduce_scatter(const Communicator& comm, const ElementCase& c, std::size_t count,
                          std::uint32_t seed, bool in_place, bool uneven) {
  const std::size_t element = datatype_size(c.type);
  const std::vector<std::size_t> counts =
      uneven ? result_counts(comm.size(), count)
             : std::vector<std::size_t>(static_cast<std::size_t>(comm.size()), count);
  std::size_t total = 0;
  std::size_t mine_at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (r == comm.rank()) mine_at = total;
    total += counts[std::size_t(r)];
  }
  const std::size_t mine = counts[std::size_t(comm.rank())];
  std::vector<std::byte> send = make_input(c, comm.rank(), total, seed);
  std::vector<std::byte> recv = in_place ? send : junk(mine * element);
  const void* source = in_place ? kInPlace : send.data();
  const std::string what =
      label(uneven ? "reduce_scatter" : "reduce_scatter_block", count, in_place);
  expect_ok(uneven ? ireduce_scatter(comm, source, recv.data(), counts.data(), c.type, c.op)
                   : ireduce_scatter_block(comm, source, recv.data(), count, c.type, c.op),
            what);
  std::vector<std::byte> expected = reference_reduction(c, comm.size(), total, seed);
  expect_elements(what, c, recv.data(), expected.data() + mine_at * element, mine);
}

void check_scan(const Communicator& comm, const ElementCase& c, std::size_t count,
                std::uint32_t seed, bool in_place, bool exclusive) {
  std::vector<std::byte> send = make_input(c, comm.rank(), count, seed);
  std::vector<std::byte> recv = in_place ? send : junk(send.size());
  const std::vector<std::byte> before = recv;
  const std::string what = label(exclusive ? "exscan" : "scan", count, in_place);
  const void* source = in_place ? kInPlace : send.data();
  expect_ok(exclusive ? iexscan(comm, source, recv.data(), count, c.type, c.op)
                      : iscan(comm, source, recv.data(), count, c.type, c.op),
            what);
  if (exclusive && comm.rank() == 0) {
    // Undefined by MPI; Halyard leaves it untouched.
    expect_elements(what + " rank 0 untouched", {Datatype::kUint8, Op::kSum}, recv.data(),
                    before.data(), recv.size());
    return;
  }
  const int ranks = exclusive ? comm.rank() : comm.rank() + 1;
  std::vector<std::byte> expected = reference_reduction(c, ranks, count, seed);
  expect_elements(what, c, recv.data(), expected.data(), count);
}

const ElementCase kScanCases[] = {{Datatype::kInt32, Op::kSum},
                                  {Datatype::kFloat32, Op::kSum, false},
                                  {Datatype::kUint8, Op::kBxor},
                                  {Datatype::kFloat64, Op::kMax},
                                  {Datatype::kInt64, Op::kProd}};

// Runs `check(case, count, seed)` for every case and small count, two seeds apart.
template <typename Check>
void each_scan_case(const SuiteContext& ctx, std::uint32_t seed, Check check) {
  for (const ElementCase& c : kScanCases) {
    for (std::size_t count : ctx.small_counts) {
      check(c, count, seed);
      seed += 2;
    }
  }
}

// reduce_local: one rank's view, against the serial reduction of two inputs; and its error.
void check_reduce_local(std::uint32_t seed) {
  for (const ElementCase& c : kScanCases) {
    std::vector<std::byte> in = make_input(c, 0, 7, seed);
    std::vector<std::byte> inout = make_input(c, 1, 7, seed);
    reduce_local(in.data(), inout.data(), 7, c.type, c.op);
    std::vector<std::byte> expected = reference_reduction(c, 2, 7, seed);
    expect_elements("reduce_local", c, inout.data(), expected.data(), 7);
  }
  try {
    reduce_local(nullptr, nullptr, 1, Datatype::kFloat32, Op::kBand);
    fail("reduce_local with band on float32 did not throw");
  } catch (const Error& error) {
    if (error.code() != ErrorCode::kInvalidArgument ||
        std::string(error.what()).rfind("reduce_local: ", 0) != 0) {
      fail(std::string("reduce_local: unexpected error: ") + error.what());
    }
  }
}

}  // namespace

void reduce_scatter_block_suite(const SuiteContext& ctx) {
  each_scan_case(ctx, 21, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    check_reduce_scatter(ctx.world, c, count, seed, false, false);
    check_reduce_scatter(ctx.world, c, count, seed + 1, true, false);
  });
}

void reduce_scatter_suite(const SuiteContext& ctx) {
  each_scan_case(ctx, 22, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    check_reduce_scatter(ctx.world, c, count, seed, false, true);
    check_reduce_scatter(ctx.world, c, count, seed + 1, true, true);
  });
}

void scan_suite(const SuiteContext& ctx) {
  each_scan_case(ctx, 23, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    check_scan(ctx.world, c, count, seed, false, false);
    check_scan(ctx.world, c, count, seed + 1, true, false);
  });
  check_reduce_local(23);
}

void exscan_suite(const SuiteContext& ctx) {
  each_scan_case(ctx, 24, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    check_scan(ctx.world, c, count, seed, false, true);
    check_scan(ctx.world, c, count, seed + 1, true, true);
  });
}

}  // namespace halyard::testing
