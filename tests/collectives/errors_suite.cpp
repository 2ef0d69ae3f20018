// Invalid arguments and algorithm names: each must throw the documented Error on the calling
// rank without consuming a collective tag, so that collectives afterwards still match.
// off_node: the intranode algorithms, forced (HALYARD_<COLL>_ALG=intranode:...) on a world that
// spans several nodes, are refused with kInvalidArgument and run on the node communicator.
// collective_check sets HALYARD_GATHER_ALG=base:nope, HALYARD_BARRIER_ALG=han (which must work) and
// HALYARD_ADAPT_RECVS_IN_FLIGHT=1 with HALYARD_BCAST_ALG=adapt:binary before the runtime starts.
#include <cstdlib>
#include <functional>
#include <string>

#include "collectives/collectives.hpp"
#include "runtime/support/error.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

void expect_error(const std::string& what, ErrorCode code, const std::string& needle,
                  const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& error) {
    std::string message = error.what();
    if (error.code() != code) {
      fail(what + ": expected error " + std::string(error_code_name(code)) + ", got " +
           std::string(error_code_name(error.code())) + ": " + message);
    }
    if (message.find(needle) == std::string::npos) {
      fail(what + ": message \"" + message + "\" does not mention \"" + needle + "\"");
    }
    return;
  }
  fail(what + ": no error thrown");
}

}  // namespace

void errors_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::vector<int> data(8 * static_cast<std::size_t>(w.size()), 1);
  std::vector<int> out(data.size());
  const ErrorCode kInvalid = ErrorCode::kInvalidArgument;
  expect_error("bad root", kInvalid, "root",
               [&] { ibcast(w, data.data(), 4, Datatype::kInt32, w.size()); });
  expect_error("negative root", kInvalid, "root",
               [&] { ireduce(w, data.data(), out.data(), 4, Datatype::kInt32, Op::kSum, -1); });
  expect_error("null buffer", kInvalid, "buffer",
               [&] { ibcast(w, nullptr, 4, Datatype::kInt32, 0); });
  expect_error("op not for type", kInvalid, "band",
               [&] { iallreduce(w, data.data(), out.data(), 4, Datatype::kFloat32, Op::kBand); });
  expect_error("invalid communicator", kInvalid, "comm", [&] {
    iallreduce(Communicator{}, data.data(), out.data(), 4, Datatype::kInt32, Op::kSum);
  });
  expect_error("in place alltoall", kInvalid, "kInPlace",
               [&] { ialltoall(w, kInPlace, out.data(), 4, Datatype::kInt32); });
  expect_error("unknown algorithm", kInvalid, "base:linear",
               [&] { igather(w, data.data(), out.data(), 4, Datatype::kInt32, 0); });
  // The collectives of issue 25: per-rank counts checked at the entry.
  std::vector<std::size_t> counts(static_cast<std::size_t>(w.size()), 1);
  std::vector<std::size_t> displacements(counts.size(), 0);
  expect_error("allgatherv without counts", kInvalid, "counts is null", [&] {
    iallgatherv(w, data.data(), 1, out.data(), nullptr, displacements.data(), Datatype::kInt32);
  });
  expect_error("alltoallv without send displacements", kInvalid, "send_displacements is null", [&] {
    ialltoallv(w, data.data(), counts.data(), nullptr, out.data(), counts.data(),
               displacements.data(), Datatype::kInt32);
  });
  expect_error("gatherv null recv at root", kInvalid, "recv is null", [&] {
    // Each rank its own root: the receive side is significant there.
    igatherv(w, data.data(), 1, nullptr, counts.data(), displacements.data(), Datatype::kInt32,
             w.rank());
  });
  expect_error("allgatherv count not its own", kInvalid, "count 2 does not match counts[", [&] {
    iallgatherv(w, data.data(), 2, out.data(), counts.data(), displacements.data(),
                Datatype::kInt32);
  });
  std::vector<std::size_t> two(counts.size(), 2);
  expect_error("alltoallv own block sizes differ", kInvalid, "does not match recv_counts[", [&] {
    ialltoallv(w, data.data(), counts.data(), displacements.data(), out.data(), two.data(),
               displacements.data(), Datatype::kInt32);
  });
  expect_error("scatterv bad root", kInvalid, "root", [&] {
    iscatterv(w, data.data(), counts.data(), displacements.data(), out.data(), 1, Datatype::kInt32,
              w.size());
  });
  if (w.size() > 1) {
    // Each rank names another as the root, where kInPlace may not stand for recv.
    expect_error("in place scatterv recv off the root", kInvalid, "kInPlace", [&] {
      iscatterv(w, data.data(), counts.data(), displacements.data(), const_cast<void*>(kInPlace), 1,
                Datatype::kInt32, (w.rank() + 1) % w.size());
    });
  }
  expect_error("reduce_scatter without counts", kInvalid, "counts is null", [&] {
    ireduce_scatter(w, data.data(), out.data(), nullptr, Datatype::kInt32, Op::kSum);
  });
  expect_error("scan op not for type", kInvalid, "band",
               [&] { iscan(w, data.data(), out.data(), 4, Datatype::kFloat32, Op::kBand); });
  expect_error("exscan in place recv", kInvalid, "kInPlace", [&] {
    iexscan(w, data.data(), const_cast<void*>(kInPlace), 4, Datatype::kInt32, Op::kSum);
  });
  // HAN's barrier exists now: forced by HALYARD_BARRIER_ALG=han, it runs like any barrier.
  expect_ok(ibarrier(w), "han barrier");
  expect_error("adapt parameter", kInvalid, "HALYARD_ADAPT_RECVS_IN_FLIGHT",
               [&] { ibcast(w, data.data(), 4, Datatype::kInt32, 0); });
  // Nothing above consumed a tag: a real collective still matches across ranks.
  std::vector<int> mine(4, w.rank() + 1);
  std::vector<int> sum(4, -1);
  expect_ok(iallreduce(w, mine.data(), sum.data(), 4, Datatype::kInt32, Op::kSum),
            "allreduce after errors");
  int expected = w.size() * (w.size() + 1) / 2;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (sum[i] != expected) {
      fail("allreduce after errors: index " + std::to_string(i) + ": expected " +
           std::to_string(expected) + ", got " + std::to_string(sum[i]));
    }
  }
}

void off_node_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::vector<int> mine(4, w.rank() + 1);
  std::vector<int> out(mine.size() * static_cast<std::size_t>(w.size()), -1);
  const std::string needle = "runs only on a communicator whose ranks share one node";
  const ErrorCode kInvalid = ErrorCode::kInvalidArgument;
  // Only the collectives whose algorithm the test forced.
  auto forced = [](const char* variable) { return std::getenv(variable) != nullptr; };
  if (forced("HALYARD_BCAST_ALG")) {
    expect_error("bcast on several nodes", kInvalid, needle,
                 [&] { ibcast(w, mine.data(), 4, Datatype::kInt32, 0); });
  }
  if (forced("HALYARD_REDUCE_ALG")) {
    expect_error("reduce on several nodes", kInvalid, needle,
                 [&] { ireduce(w, mine.data(), out.data(), 4, Datatype::kInt32, Op::kSum, 0); });
  }
  expect_error("allreduce on several nodes", kInvalid, needle,
               [&] { iallreduce(w, mine.data(), out.data(), 4, Datatype::kInt32, Op::kSum); });
  if (forced("HALYARD_GATHER_ALG")) {
    expect_error("gather on several nodes", kInvalid, needle,
                 [&] { igather(w, mine.data(), out.data(), 4, Datatype::kInt32, 0); });
  }
  if (forced("HALYARD_ALLGATHER_ALG")) {
    expect_error("allgather on several nodes", kInvalid, needle,
                 [&] { iallgather(w, mine.data(), out.data(), 4, Datatype::kInt32); });
  }
  if (forced("HALYARD_SCATTER_ALG")) {
    expect_error("scatter on several nodes", kInvalid, needle,
                 [&] { iscatter(w, out.data(), mine.data(), 4, Datatype::kInt32, 0); });
  }
  if (forced("HALYARD_ALLTOALL_ALG")) {
    std::vector<int> blocks(out.size(), w.rank() + 1);
    expect_error("alltoall on several nodes", kInvalid, needle,
                 [&] { ialltoall(w, blocks.data(), out.data(), 4, Datatype::kInt32); });
  }
  const std::vector<std::size_t> counts(static_cast<std::size_t>(w.size()), 4);
  if (forced("HALYARD_REDUCE_SCATTER_ALG")) {
    expect_error("reduce_scatter on several nodes", kInvalid, needle, [&] {
      ireduce_scatter(w, out.data(), mine.data(), counts.data(), Datatype::kInt32, Op::kSum);
    });
  }
  if (forced("HALYARD_GATHERV_ALG")) {
    std::vector<std::size_t> displacements;
    for (std::size_t r = 0; r < counts.size(); ++r) displacements.push_back(4 * r);
    expect_error("gatherv on several nodes", kInvalid, needle, [&] {
      igatherv(w, mine.data(), 4, out.data(), counts.data(), displacements.data(), Datatype::kInt32,
               0);
    });
  }
  if (forced("HALYARD_ALLTOALLV_ALG")) {
    std::vector<std::size_t> displacements;
    for (std::size_t r = 0; r < counts.size(); ++r) displacements.push_back(4 * r);
    std::vector<int> blocks(out.size(), w.rank() + 1);
    expect_error("alltoallv on several nodes", kInvalid, needle, [&] {
      ialltoallv(w, blocks.data(), counts.data(), displacements.data(), out.data(), counts.data(),
                 displacements.data(), Datatype::kInt32);
    });
  }
  // The same name runs on this rank's node communicator: the refusal is the communicator's.
  const Communicator node = w.node_comm();
  std::vector<int> sum(mine.size(), -1);
  expect_ok(iallreduce(node, mine.data(), sum.data(), 4, Datatype::kInt32, Op::kSum),
            "allreduce on the node communicator");
  int expected = 0;
  for (int r = 0; r < node.size(); ++r) expected += node.world_rank(r) + 1;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (sum[i] != expected) {
      fail("allreduce on the node communicator: index " + std::to_string(i) + ": expected " +
           std::to_string(expected) + ", got " + std::to_string(sum[i]));
    }
  }
  expect_ok(ibarrier(w), "barrier after the refusals");
}

}  // namespace halyard::testing
