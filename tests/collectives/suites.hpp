// The scenarios of collective_check, one function per collective (plus in-flight and errors).
// Each compares results element by element with a serial reference and exits 1 on a mismatch.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/request.hpp"
#include "tests/collectives/test_data.hpp"

namespace halyard::testing {

struct SuiteContext {
  Communicator world;
  // Element counts every algorithm runs with every root: 0, 1, odd, not a segment multiple.
  std::vector<std::size_t> small_counts;
  // One large count per suite (4 MiB of int32 by default), root size-1 only.
  std::size_t large_count = 0;
};

// Waits and fails with `what` when the request completes with an error.
void expect_ok(const Request& request, const std::string& what);

void bcast_suite(const SuiteContext& ctx);
void reduce_suite(const SuiteContext& ctx);
void gather_suite(const SuiteContext& ctx);
void scatter_suite(const SuiteContext& ctx);
void allreduce_suite(const SuiteContext& ctx);
void allgather_suite(const SuiteContext& ctx);
void alltoall_suite(const SuiteContext& ctx);
void barrier_suite(const SuiteContext& ctx);
// Issue 25's collectives (vector_suites.cpp, prefix_suites.cpp); scan checks reduce_local too.
void gatherv_suite(const SuiteContext& ctx);
void scatterv_suite(const SuiteContext& ctx);
void allgatherv_suite(const SuiteContext& ctx);
void alltoallv_suite(const SuiteContext& ctx);
// Gatherv whose root comes late (gatherv_late_root_suite.cpp).
void gatherv_late_root_suite(const SuiteContext& ctx);
void reduce_scatter_block_suite(const SuiteContext& ctx);
void reduce_scatter_suite(const SuiteContext& ctx);
void scan_suite(const SuiteContext& ctx);
void exscan_suite(const SuiteContext& ctx);
// Barriers in loops of bcast, scatter, reduce and gather from every root (barrier_order_suite.cpp).
void barrier_order_suite(const SuiteContext& ctx);
// All of them in flight at once, their count arrays overwritten once posted.
void inflight_more_suite(const SuiteContext& ctx);
// Several collectives in flight at once on the world and on a split communicator.
void inflight_suite(const SuiteContext& ctx);
// Invalid arguments and bad algorithm names throw the documented errors.
void errors_suite(const SuiteContext& ctx);
// HALYARD_<COLL>_ALG=intranode:... on a world over several nodes: refused, as documented.
void off_node_suite(const SuiteContext& ctx);
// More communicators than the shm engine has channels, made and freed over and over.
void channels_suite(const SuiteContext& ctx);
// The shm engine's block collectives on two communicators, in flight and blocking in place.
void shm_blocks_suite(const SuiteContext& ctx);
// One 64 MiB allreduce and bcast (run on few ranks only).
void huge_suite(const SuiteContext& ctx);

}  // namespace halyard::testing
