// Multi-rank checks of HAN's hierarchical collectives, run through hlaunch with
// HALYARD_{BCAST,REDUCE,ALLREDUCE,ALLGATHER}_ALG=han (so the selection routing is exercised too):
//   hlaunch -n N [--vnodes K] -x HALYARD_BCAST_ALG=han -x HALYARD_REDUCE_ALG=han
//   -x HALYARD_ALLREDUCE_ALG=han -x HALYARD_ALLGATHER_ALG=han han_check
// Every root, counts 0, 1, odd and a few MiB, in place and not, several calls in flight; every
// result is compared element by element with a serial reference (tests/collectives/test_data).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "halyard/halyard.hpp"
#include "tests/collectives/test_data.hpp"

namespace {

using halyard::Communicator;
using halyard::Datatype;
using halyard::Op;
using halyard::Request;
using halyard::testing::ElementCase;
using halyard::testing::expect_elements;
using halyard::testing::fail;
using halyard::testing::junk;
using halyard::testing::make_input;
using halyard::testing::reference_reduction;

using Bytes = std::vector<std::byte>;

void wait_ok(const Request& r, const std::string& what) {
  halyard::Status s = r.wait();
  if (!s.ok()) fail(what + ": " + std::string(halyard::error_code_name(s.code)) + ": " + s.message);
}

std::string label(const std::string& op, const ElementCase& c, std::size_t count, int root,
                  std::uint32_t seed) {
  return op + " " + halyard::testing::case_name(c) + " count " + std::to_string(count) +
         (root >= 0 ? " root " + std::to_string(root) : "") + " seed " + std::to_string(seed);
}

std::size_t elements_in(std::size_t bytes, Datatype t) {
  return bytes / halyard::datatype_size(t);
}

struct Checker {
  Communicator comm;
  std::uint32_t seed = 1;

  std::vector<std::size_t> counts(Datatype t) const {
    return {0, 1, 7, 1001, elements_in(3 * 1024 * 1024 + 12, t) + 3};
  }

  void bcast(const ElementCase& c, std::size_t count, int root) {
    ++seed;
    Bytes expected = make_input(c, root, count, seed);
    Bytes buf = comm.rank() == root ? expected : junk(expected.size());
    std::string what = label("bcast", c, count, root, seed);
    wait_ok(halyard::ibcast(comm, buf.data(), count, c.type, root), what);
    expect_elements(what, c, buf.data(), expected.data(), count);
  }

  void allreduce(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "allreduce in place" : "allreduce", c, count, -1, seed);
    Bytes send = make_input(c, comm.rank(), count, seed);
    Bytes recv = in_place ? send : junk(send.size());
    const void* s = in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::iallreduce(comm, s, recv.data(), count, c.type, c.op), what);
    Bytes expected = reference_reduction(c, comm.size(), count, seed);
    expect_elements(what, c, recv.data(), expected.data(), count);
  }

  void reduce(const ElementCase& c, std::size_t count, int root, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "reduce in place" : "reduce", c, count, root, seed);
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

  // Block r of the result is rank r's input: the reference needs no communication.
  Bytes allgather_reference(const ElementCase& c, std::size_t count) const {
    Bytes all;
    for (int r = 0; r < comm.size(); ++r) {
      Bytes block = make_input(c, r, count, seed);
      all.insert(all.end(), block.begin(), block.end());
    }
    return all;
  }

  void allgather(const ElementCase& c, std::size_t count, bool in_place) {
    ++seed;
    std::string what = label(in_place ? "allgather in place" : "allgather", c, count, -1, seed);
    Bytes send = make_input(c, comm.rank(), count, seed);
    Bytes recv = junk(send.size() * static_cast<std::size_t>(comm.size()));
    if (in_place && !send.empty()) {
      std::memcpy(recv.data() + static_cast<std::size_t>(comm.rank()) * send.size(), send.data(),
                  send.size());
    }
    const void* s = in_place ? halyard::kInPlace : send.data();
    wait_ok(halyard::iallgather(comm, s, recv.data(), count, c.type), what);
    Bytes expected = allgather_reference(c, count);
    expect_elements(what, c, recv.data(), expected.data(),
                    count * static_cast<std::size_t>(comm.size()));
  }

  // Several HAN calls in flight at once: bcasts from every root and allreduces, interleaved.
  void in_flight(std::size_t count) {
    ElementCase bc{Datatype::kInt32, Op::kSum};
    ElementCase ar{Datatype::kFloat64, Op::kSum};
    struct Pending {
      Bytes buf, expected;
      ElementCase c;
      std::string what;
    };
    std::vector<Pending> pending;
    std::vector<Request> requests;
    std::vector<Bytes> inputs;  // reduce send buffers: must stay put while in flight
    std::vector<bool> checked;
    pending.reserve(4 * static_cast<std::size_t>(comm.size()));
    inputs.reserve(2 * static_cast<std::size_t>(comm.size()));
    for (int root = 0; root < comm.size(); ++root) {
      ++seed;
      Bytes expected = make_input(bc, root, count, seed);
      Bytes buf = comm.rank() == root ? expected : junk(expected.size());
      pending.push_back({std::move(buf), std::move(expected), bc,
                         label("in-flight bcast", bc, count, root, seed)});
      requests.push_back(halyard::ibcast(comm, pending.back().buf.data(), count, bc.type, root));
      checked.push_back(true);
      ++seed;
      Bytes send = make_input(ar, comm.rank(), count, seed);
      pending.push_back({send, reference_reduction(ar, comm.size(), count, seed), ar,
                         label("in-flight allreduce", ar, count, -1, seed)});
      checked.push_back(true);
      requests.push_back(halyard::iallreduce(comm, halyard::kInPlace, pending.back().buf.data(),
                                             count, ar.type, ar.op));
      // A reduce to this root too; only the root's result is checked.
      ++seed;
      Bytes mine = make_input(ar, comm.rank(), count, seed);
      Bytes expected_sum = comm.rank() == root ? reference_reduction(ar, comm.size(), count, seed)
                                               : Bytes(mine.size());
      Bytes out = junk(mine.size());
      pending.push_back({std::move(out), std::move(expected_sum), ar,
                         label("in-flight reduce", ar, count, root, seed)});
      inputs.push_back(std::move(mine));
      requests.push_back(halyard::ireduce(comm, inputs.back().data(), pending.back().buf.data(),
                                          count, ar.type, ar.op, root));
      checked.push_back(comm.rank() == root);
      ++seed;
      Bytes gathered =
          junk(count * halyard::datatype_size(ar.type) * static_cast<std::size_t>(comm.size()));
      inputs.push_back(make_input(ar, comm.rank(), count, seed));
      pending.push_back({std::move(gathered), allgather_reference(ar, count), ar,
                         label("in-flight allgather", ar, count, -1, seed)});
      requests.push_back(halyard::iallgather(comm, inputs.back().data(), pending.back().buf.data(),
                                             count, ar.type));
      checked.push_back(true);
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
      wait_ok(requests[i], pending[i].what);
      if (!checked[i]) continue;
      expect_elements(pending[i].what, pending[i].c, pending[i].buf.data(),
                      pending[i].expected.data(),
                      pending[i].expected.size() / halyard::datatype_size(pending[i].c.type));
    }
  }

  void run_all() {
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
};

}  // namespace

int main() {
  halyard::Runtime runtime;
  halyard::testing::set_failure_context(runtime.rank(), "han_check");
  Checker checker{runtime.world()};
  checker.run_all();
  if (runtime.rank() == 0) std::printf("han_check: %d ranks: ok\n", runtime.world().size());
  halyard::barrier(runtime.world());
  return 0;
}
