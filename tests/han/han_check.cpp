// Multi-rank checks of HAN's hierarchical collectives, run through hlaunch with every
// HALYARD_<COLL>_ALG=han (so the selection routing is exercised too):
//   hlaunch -n N [--vnodes K] -x HALYARD_BCAST_ALG=han ... han_check [MODE]
// Every result is compared element by element with a serial reference (tests/collectives/
// test_data). Modes:
//   full   (default) every root, counts 0, 1, odd and a few MiB, several datatype/op pairs, in
//          place and not, many calls in flight, barriers;
//   quick  one datatype per collective, every root, counts 0 to ~300 KiB, calls in flight: for
//          the many submodule combinations;
//   comms  HAN calls in flight on several communicators at once (world, a dup, two splits),
//          started in a different order on every rank;
//   huge   one 64 MiB bcast, allreduce and reduce.
// Every mode also checks the number of leaders HAN chose (HALYARD_HAN_LEADERS and the testing
// aid HALYARD_HAN_TEST_NUMA_DOMAINS) and that no rank leaves a barrier before all entered.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/han/hierarchy.hpp"
#include "halyard/halyard.hpp"
#include "tests/collectives/test_data.hpp"
#include "tests/han/han_batch.hpp"
#include "tests/han/han_shape_checks.hpp"

namespace {

using halyard::Communicator;
using halyard::Datatype;
using halyard::Op;
using halyard::Request;
using halyard::testing::case_label;
using halyard::testing::ElementCase;
using halyard::testing::expect_elements;
using halyard::testing::fail;
using halyard::testing::HanBatch;
using halyard::testing::junk;
using halyard::testing::make_input;
using halyard::testing::reference_reduction;

using Bytes = std::vector<std::byte>;

void wait_ok(const Request& r, const std::string& what) {
  halyard::Status s = r.wait();
  if (!s.ok()) fail(what + ": " + std::string(halyard::error_code_name(s.code)) + ": " + s.message);
}

std::size_t elements_in(std::size_t bytes, Datatype t) {
  return bytes / halyard::datatype_size(t);
}

struct Checker {
  Communicator comm;
  std::uint32_t seed = 1;

  void bcast(const ElementCase& c, std::size_t count, int root) {
    ++seed;
    Bytes expected = make_input(c, root, count, seed);
    Bytes buf = comm.rank() == root ? expected : junk(expected.size());
    std::string what = case_label("bcast", c, count, root, seed);
    wait_ok(halyard::ibcast(comm, buf.data(), count, c.type, root), what);
    expect_elements(what, c, buf.data(), expected.data(), count);
  }

  void allreduce(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what =
        case_label(in_place ? "allreduce in place" : "allreduce", c, count, -1, seed);
    Bytes send = make_input(c, comm.rank(), count, seed);
    Bytes recv = in_place ? send : junk(send.size());
    const void* s = in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::iallreduce(comm, s, recv.data(), count, c.type, c.op), what);
    Bytes expected = reference_reduction(c, comm.size(), count, seed);
    expect_elements(what, c, recv.data(), expected.data(), count);
  }

  void reduce(const ElementCase& c, std::size_t count, int root, bool in_place) {
    ++seed;
    std::string what = case_label(in_place ? "reduce in place" : "reduce", c, count, root, seed);
    bool at_root = comm.rank() == root;
    Bytes send = make_input(c, comm.rank(), count, seed);
    Bytes recv = at_root && in_place ? send : junk(send.size());
    const void* s = at_root && in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::ireduce(comm, s, recv.data(), count, c.type, c.op, root), what);
    if (at_root) {
      Bytes expected = reference_reduction(c, comm.size(), count, seed);
      expect_elements(what, c, recv.data(), expected.data(), count);
    }
  }

  void allgather(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what =
        case_label(in_place ? "allgather in place" : "allgather", c, count, -1, seed);
    Bytes send = make_input(c, comm.rank(), count, seed);
    Bytes recv = junk(send.size() * static_cast<std::size_t>(comm.size()));
    if (in_place && !send.empty()) {
      std::memcpy(recv.data() + static_cast<std::size_t>(comm.rank()) * send.size(), send.data(),
                  send.size());
    }
    const void* s = in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::iallgather(comm, s, recv.data(), count, c.type), what);
    Bytes expected = halyard::testing::allgather_reference(c, comm.size(), count, seed);
    expect_elements(what, c, recv.data(), expected.data(),
                    count * static_cast<std::size_t>(comm.size()));
  }

  // Several HAN calls in flight at once on this communicator: from every root, interleaved.
  void in_flight(std::size_t count) {
    HanBatch batch;
    for (int root = 0; root < comm.size(); ++root) {
      batch.start_bcast(comm, count, root, ++seed);
      batch.start_allreduce(comm, count, ++seed);
      batch.start_reduce(comm, count, root, ++seed);
      batch.start_allgather(comm, count, ++seed);
      batch.start_barrier(comm, "in-flight barrier");
    }
    batch.finish();
  }

  void full() {
    auto counts = [](Datatype t) {
      return std::vector<std::size_t>{0, 1, 7, 1001, elements_in(3 * 1024 * 1024 + 12, t) + 3};
    };
    for (ElementCase c :
         {ElementCase{Datatype::kInt32, Op::kSum}, ElementCase{Datatype::kUint8, Op::kSum}}) {
      for (std::size_t count : counts(c.type)) {
        for (int root = 0; root < comm.size(); ++root) bcast(c, count, root);
      }
    }
    for (ElementCase c :
         {ElementCase{Datatype::kInt32, Op::kSum}, ElementCase{Datatype::kFloat64, Op::kMax},
          ElementCase{Datatype::kInt64, Op::kProd}, ElementCase{Datatype::kUint8, Op::kBxor}}) {
      for (std::size_t count : counts(c.type)) {
        allreduce(c, count, false);
        allreduce(c, count, true);
      }
    }
    for (ElementCase c :
         {ElementCase{Datatype::kInt32, Op::kSum}, ElementCase{Datatype::kFloat32, Op::kMin}}) {
      for (std::size_t count : counts(c.type)) {
        for (int root = 0; root < comm.size(); ++root) reduce(c, count, root, (root + count) % 2);
      }
    }
    for (ElementCase c :
         {ElementCase{Datatype::kInt32, Op::kSum}, ElementCase{Datatype::kUint8, Op::kSum}}) {
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1001},
                                elements_in(300 * 1024, c.type) + 1}) {
        allgather(c, count, false);
        allgather(c, count, true);
      }
    }
    in_flight(1001);
    in_flight(elements_in(600 * 1024, Datatype::kFloat64) + 1);
  }

  void quick() {
    const ElementCase c{Datatype::kInt32, Op::kSum};
    for (std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{1001}, elements_in(300 * 1024, c.type) + 3}) {
      for (int root = 0; root < comm.size(); ++root) {
        bcast(c, count, root);
        reduce(c, count, root, root % 2 == 1);
      }
      allreduce(c, count, count % 2 == 1);
      allgather(c, count, false);
    }
    in_flight(20000);
  }

  // 64 MiB, the largest count the issue asks for: once per collective, roots away from 0.
  void huge() {
    const ElementCase c{Datatype::kInt32, Op::kSum};
    const std::size_t count = elements_in(std::size_t{64} << 20, c.type);
    bcast(c, count, comm.size() - 1);
    allreduce(c, count, false);
    reduce(c, count, comm.size() / 2, false);
  }
};

// HAN calls in flight on several communicators that share nodes: world, a dup, and two splits
// (by parity, and in halves). Each rank starts them in its own rotated order: only the order
// within one communicator is common, which is all MPI asks of non-blocking collectives.
void several_communicators(const Communicator& world) {
  const int me = world.rank();
  std::vector<Communicator> comms{world, world.dup(), world.split(me % 2, me),
                                  world.split(me < world.size() / 2 ? 0 : 1, me)};
  // The first HAN call on a communicator builds its hierarchy (blocking, like a split), so do
  // that in the same order everywhere.
  for (const Communicator& c : comms) halyard::barrier(c);
  std::uint32_t seed = 1000;
  for (std::size_t count : {std::size_t{1001}, std::size_t{70000}}) {
    HanBatch batch;
    for (int round = 0; round < 3; ++round) {
      for (std::size_t k = 0; k < comms.size(); ++k) {
        const Communicator& c = comms[(k + static_cast<std::size_t>(me)) % comms.size()];
        // Seeds must agree per communicator, whatever order this rank visits them in.
        std::uint32_t s = seed + static_cast<std::uint32_t>(100 * round + 10 * c.context());
        batch.start_allreduce(c, count, s);
        batch.start_bcast(c, count, round % c.size(), s + 1);
        batch.start_reduce(c, count, (round + 1) % c.size(), s + 2);
        batch.start_allgather(c, count / 8, s + 3);
        batch.start_barrier(c, "barrier between communicators");
      }
    }
    batch.finish();
    seed += 10000;
  }
}

}  // namespace

int main(int argc, char** argv) {
  halyard::Runtime runtime;
  const std::string mode = argc > 1 ? argv[1] : "full";
  halyard::testing::set_failure_context(runtime.rank(), "han_check " + mode);
  const Communicator& world = runtime.world();
  halyard::testing::check_leader_count(world);
  halyard::testing::check_barrier_waits_for_everyone(world);
  Checker checker{world};
  if (mode == "full") {
    checker.full();
  } else if (mode == "quick") {
    checker.quick();
  } else if (mode == "comms") {
    several_communicators(world);
  } else if (mode == "huge") {
    checker.huge();
  } else {
    fail("unknown mode '" + mode + "' (expected full, quick, comms or huge)");
  }
  // Every call has completed, so no receive may still be posted on the communicator or on its
  // two HAN levels (a stale one would match a later call's message once tags wrap).
  const halyard::han::Hierarchy& levels = halyard::han::hierarchy_of(world);
  for (const auto& [name, comm] : {std::pair{"world", &world}, std::pair{"node", &levels.node},
                                   std::pair{"leader", &levels.leader}}) {
    if (!comm->valid()) continue;
    if (const std::size_t left = comm->posted_receives(); left != 0) {
      fail(std::to_string(left) + " receive(s) still posted on the " + name +
           " communicator after every call completed");
    }
  }
  if (runtime.rank() == 0) std::printf("han_check %s: %d ranks: ok\n", mode.c_str(), world.size());
  halyard::barrier(world);
  return 0;
}
