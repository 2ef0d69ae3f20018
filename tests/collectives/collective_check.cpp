// Multi-rank checks of the public collectives against serial references, run through hlaunch:
//   hlaunch -n N [--vnodes K] collective_check SUITE [ALGORITHM] [VAR=VALUE ...]
// SUITE is bcast, reduce, allreduce, allgather, gather, scatter, alltoall, barrier,
// barrier_order, gatherv, scatterv, allgatherv, alltoallv, reduce_scatter_block, reduce_scatter,
// scan, exscan, inflight, inflight_more, channels, shm_blocks, errors, off_node or huge. ALGORITHM
// (e.g. base:ring, adapt:binary) is exported as HALYARD_<SUITE>_ALG and VAR=VALUE pairs are
// exported as given, both before the runtime starts (the selection layer reads them once);
// CHECK_CPUS=own|shared asks the job to have seen its host's CPUs that way first. Any mismatch
// prints rank, case, index, expected and got, and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "halyard/halyard.hpp"
#include "tests/collectives/suites.hpp"

namespace {

using halyard::testing::SuiteContext;

struct Suite {
  const char* algorithm_variable;  // nullptr: the suite takes no ALGORITHM
  void (*run)(const SuiteContext&);
};

const std::map<std::string, Suite>& suites() {
  using namespace halyard::testing;
  static const std::map<std::string, Suite> table = {
      {"bcast", {"HALYARD_BCAST_ALG", bcast_suite}},
      {"reduce", {"HALYARD_REDUCE_ALG", reduce_suite}},
      {"allreduce", {"HALYARD_ALLREDUCE_ALG", allreduce_suite}},
      {"allgather", {"HALYARD_ALLGATHER_ALG", allgather_suite}},
      {"gather", {"HALYARD_GATHER_ALG", gather_suite}},
      {"scatter", {"HALYARD_SCATTER_ALG", scatter_suite}},
      {"alltoall", {"HALYARD_ALLTOALL_ALG", alltoall_suite}},
      {"barrier", {"HALYARD_BARRIER_ALG", barrier_suite}},
      {"barrier_order", {nullptr, barrier_order_suite}},
      {"gatherv", {"HALYARD_GATHERV_ALG", gatherv_suite}},
      {"gatherv_late_root", {"HALYARD_GATHERV_ALG", gatherv_late_root_suite}},
      {"scatterv", {"HALYARD_SCATTERV_ALG", scatterv_suite}},
      {"allgatherv", {"HALYARD_ALLGATHERV_ALG", allgatherv_suite}},
      {"alltoallv", {"HALYARD_ALLTOALLV_ALG", alltoallv_suite}},
      {"reduce_scatter_block", {"HALYARD_REDUCE_SCATTER_BLOCK_ALG", reduce_scatter_block_suite}},
      {"reduce_scatter", {"HALYARD_REDUCE_SCATTER_ALG", reduce_scatter_suite}},
      {"scan", {"HALYARD_SCAN_ALG", scan_suite}},
      {"exscan", {"HALYARD_EXSCAN_ALG", exscan_suite}},
      {"inflight", {nullptr, inflight_suite}},
      {"inflight_more", {nullptr, inflight_more_suite}},
      {"channels", {nullptr, channels_suite}},
      {"shm_blocks", {nullptr, shm_blocks_suite}},
      {"errors", {nullptr, errors_suite}},
      {"off_node", {nullptr, off_node_suite}},
      {"huge", {nullptr, huge_suite}},
  };
  return table;
}

int usage() {
  std::fprintf(stderr, "usage: collective_check SUITE [ALGORITHM] [VAR=VALUE ...]; suites:");
  for (const auto& [name, suite] : suites()) std::fprintf(stderr, " %s", name.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

namespace halyard::testing {

void expect_ok(const Request& request, const std::string& what) {
  Status status = request.wait();
  if (!status.ok()) {
    fail(what + ": " + std::string(error_code_name(status.code)) + ": " + status.message);
  }
}

}  // namespace halyard::testing

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  auto found = suites().find(argv[1]);
  if (found == suites().end()) return usage();
  const Suite& suite = found->second;
  std::string program = std::string("collective_check ") + argv[1];
  for (int i = 2; i < argc; ++i) {
    const char* equals = std::strchr(argv[i], '=');
    if (equals != nullptr) {
      setenv(std::string(argv[i], static_cast<std::size_t>(equals - argv[i])).c_str(), equals + 1,
             1);
    } else if (suite.algorithm_variable != nullptr) {
      setenv(suite.algorithm_variable, argv[i], 1);
    } else {
      return usage();
    }
    program += std::string(" ") + argv[i];
  }
  if (std::string(argv[1]) == "errors") {
    setenv("HALYARD_GATHER_ALG", "base:nope", 1);
    setenv("HALYARD_BARRIER_ALG", "han", 1);
    setenv("HALYARD_BCAST_ALG", "adapt:binary", 1);
    setenv("HALYARD_ADAPT_RECVS_IN_FLIGHT", "1", 1);
  }
  try {
    halyard::Runtime runtime;
    halyard::testing::set_failure_context(runtime.rank(), program);
    SuiteContext ctx;
    ctx.world = runtime.world();
    // CHECK_CPUS=own|shared: the job must see the host's CPUs that way (a test that forces a
    // topology checks that it took).
    if (const char* cpus = std::getenv("CHECK_CPUS"); cpus != nullptr) {
      const std::string want(cpus);
      if (want != "own" && want != "shared") {
        halyard::testing::fail("CHECK_CPUS is '" + want + "', not own or shared");
      }
      const bool shared = ctx.world.loop().cpu_shared();
      if (shared != (want == "shared")) {
        halyard::testing::fail(std::string("the host's CPUs are ") +
                               (shared ? "shared" : "one per rank") + ", not " + cpus);
      }
    }
    // 14 and 15: the last count inline in a flag line (56 bytes) and the first in a cell; 1024
    // and 1025: the last count of the shm engine's single-chunk calls (4 KiB) and the first of
    // its general path. 40001 is odd and not a multiple of any power-of-two segment size.
    ctx.small_counts = {0, 1, 7, 14, 15, 1024, 1025, 40001};
    ctx.large_count = std::size_t{1} << 20;  // 4 MiB of int32
    suite.run(ctx);
    // Every collective of the suite has completed, so none may have left a receive posted: it
    // would match a later call's message once tags wrap, and slows every arrival's matching.
    if (const std::size_t left = ctx.world.posted_receives(); left != 0) {
      halyard::testing::fail(std::to_string(left) +
                             " receive(s) still posted on the world communicator after the suite");
    }
    runtime.finalize();
    if (runtime.rank() == 0) std::printf("%s: ok on %d ranks\n", program.c_str(), runtime.size());
  } catch (const std::exception& error) {
    halyard::testing::fail(std::string("exception: ") + error.what());
  }
  return 0;
}
