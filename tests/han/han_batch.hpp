// A batch of HAN collectives started without waiting (possibly on several communicators, in a
// different order on every rank), then completed and checked one by one against the serial
// references of tests/collectives/test_data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/collectives/test_data.hpp"

namespace halyard::testing {

class HanBatch {
 public:
  // Each start_* posts one collective on `comm` and keeps what it needs to check it.
  void start_bcast(const Communicator& comm, std::size_t count, int root, std::uint32_t seed);
  void start_allreduce(const Communicator& comm, std::size_t count, std::uint32_t seed);
  void start_reduce(const Communicator& comm, std::size_t count, int root, std::uint32_t seed);
  void start_allgather(const Communicator& comm, std::size_t count, std::uint32_t seed);
  void start_barrier(const Communicator& comm, const std::string& what);

  // Waits for every collective, in start order, and checks its result; exits 1 on the first
  // failure.
  void finish();

 private:
  using Bytes = std::vector<std::byte>;
  struct Pending {
    Request request;
    std::string what;
    ElementCase c{Datatype::kInt32, Op::kSum};
    Bytes input;     // what this rank sends: must stay put while in flight
    Bytes result;    // where the collective writes
    Bytes expected;  // empty: nothing to check (a barrier, a reduce away from its root)
  };
  Pending& add(std::string what, ElementCase c);

  std::deque<Pending> pending_;  // a deque: buffers never move while collectives use them
};

// "op <type>/<op> count N root R seed S" for failure messages.
std::string case_label(const std::string& op, const ElementCase& c, std::size_t count, int root,
                       std::uint32_t seed);

// Block r is rank r's input: the allgather reference needs no communication.
std::vector<std::byte> allgather_reference(const ElementCase& c, int size, std::size_t count,
                                           std::uint32_t seed);

}  // namespace halyard::testing
