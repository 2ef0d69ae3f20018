// Barriers in loops of rooted calls. The shm engine orders a barrier for the call it expects
// next (collectives/shm/barrier_order.cpp: before a bcast or scatter its root leaves first,
// before a reduce or gather its root leaves last), so members that just ran different sides of a
// call must still agree on the barrier, and it must still hold everyone until the last member
// arrives. For every root and each of bcast, scatter, reduce and gather, twice the call (its
// result checked) and a barrier, the second barrier entered kLateEntry late by one member (the
// root, then the next rank), which no other member may leave before; then all of them in
// flight at once, each followed by a barrier. Run with the engine forced (collective_check
// barrier_order HALYARD_..._ALG=shm).
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

// How late the late member enters the barrier (a name of its own: the suites share one
// translation unit in unity builds).
constexpr auto kLateEntry = std::chrono::milliseconds(60);

enum class Rooted { kBcast, kScatter, kReduce, kGather };
constexpr Rooted kRooted[] = {Rooted::kBcast, Rooted::kScatter, Rooted::kReduce, Rooted::kGather};

const char* name_of(Rooted call) {
  switch (call) {
    case Rooted::kBcast:
      return "bcast";
    case Rooted::kScatter:
      return "scatter";
    case Rooted::kReduce:
      return "reduce";
    case Rooted::kGather:
      return "gather";
  }
  return "?";
}

// One rooted call's buffers, filled so that every rank knows what each must hold afterwards.
struct RootedCall {
  Rooted call;
  int root;
  std::vector<int> send;
  std::vector<int> recv;

  RootedCall(Rooted c, int r, const Communicator& comm) : call(c), root(r) {
    const int p = comm.size();
    const int me = comm.rank();
    send.assign(static_cast<std::size_t>(p), 0);
    recv.assign(static_cast<std::size_t>(p), -1);
    for (int i = 0; i < p; ++i) send[static_cast<std::size_t>(i)] = 1000 * (me + 1) + i + root;
  }

  Request post(const Communicator& comm) {
    switch (call) {
      case Rooted::kBcast:
        if (comm.rank() == root) recv = send;
        return ibcast(comm, recv.data(), recv.size(), Datatype::kInt32, root);
      case Rooted::kScatter:
        return iscatter(comm, send.data(), recv.data(), 1, Datatype::kInt32, root);
      case Rooted::kReduce:
        return ireduce(comm, send.data(), recv.data(), send.size(), Datatype::kInt32, Op::kSum,
                       root);
      case Rooted::kGather:
        return igather(comm, send.data(), recv.data(), 1, Datatype::kInt32, root);
    }
    return Request();
  }

  // Element i of rank r's send vector.
  int sent(int r, int i) const { return 1000 * (r + 1) + i + root; }

  void check(const Communicator& comm, const std::string& what) const {
    const int p = comm.size();
    const int me = comm.rank();
    for (int i = 0; i < p; ++i) {
      int want = -1;  // as it was where the call writes nothing
      switch (call) {
        case Rooted::kBcast:
          want = sent(root, i);
          break;
        case Rooted::kScatter:
          if (i == 0) want = sent(root, me);
          break;
        case Rooted::kReduce:
          if (me == root) {
            want = 0;
            for (int r = 0; r < p; ++r) want += sent(r, i);
          }
          break;
        case Rooted::kGather:
          if (me == root) want = sent(i, 0);
          break;
      }
      if (recv[static_cast<std::size_t>(i)] != want) {
        fail(what + ": element " + std::to_string(i) + " is " +
             std::to_string(recv[static_cast<std::size_t>(i)]) + ", expected " +
             std::to_string(want));
      }
    }
  }
};

// `call` from `root` and a barrier, then `call` again and the barrier that rank `late` enters
// kLateEntry after the others: the first round teaches the channel the loop, so the second
// barrier takes the order `call` asks for.
void rooted_then_late_barrier(const Communicator& comm, Rooted call, int root, int late) {
  const std::string what = std::string(name_of(call)) + " from root " + std::to_string(root) +
                           ", then a barrier with rank " + std::to_string(late) + " late";
  expect_ok(ibarrier(comm), what + ": the barrier that lines everyone up");
  for (int round = 0; round < 2; ++round) {
    RootedCall rooted(call, root, comm);
    expect_ok(rooted.post(comm), what + ": the call");
    rooted.check(comm, what);
    if (round == 0) expect_ok(ibarrier(comm), what + ": the barrier of the first round");
  }
  const auto entered = std::chrono::steady_clock::now();
  if (comm.rank() == late) std::this_thread::sleep_for(kLateEntry);
  expect_ok(ibarrier(comm), what);
  const auto waited = std::chrono::steady_clock::now() - entered;
  if (comm.rank() != late && waited < kLateEntry / 2) {
    fail(what + ": rank " + std::to_string(comm.rank()) + " left after " +
         std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(waited).count()) +
         " us, before the late rank arrived");
  }
}

}  // namespace

void barrier_order_suite(const SuiteContext& ctx) {
  const Communicator& comm = ctx.world;
  const int p = comm.size();
  for (Rooted call : kRooted) {
    for (int root = 0; root < p; ++root) {
      rooted_then_late_barrier(comm, call, root, root);
      if (p > 1) rooted_then_late_barrier(comm, call, root, (root + 1) % p);
    }
  }
  // Every rooted call from every root in flight at once, a barrier after each: queued barriers
  // take the orders learnt from the calls posted before them.
  std::vector<RootedCall> calls;
  for (Rooted call : kRooted) {
    for (int root = 0; root < p; ++root) calls.emplace_back(call, root, comm);
  }
  std::vector<Request> requests;
  for (RootedCall& call : calls) {
    requests.push_back(call.post(comm));
    requests.push_back(ibarrier(comm));
  }
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const RootedCall& call = calls[i / 2];
    expect_ok(requests[i], std::string("in flight: ") + name_of(call.call) + " from root " +
                               std::to_string(call.root) + (i % 2 ? ", its barrier" : ""));
  }
  for (const RootedCall& call : calls) {
    call.check(comm, std::string("in flight: ") + name_of(call.call) + " from root " +
                         std::to_string(call.root));
  }
}

}  // namespace halyard::testing
