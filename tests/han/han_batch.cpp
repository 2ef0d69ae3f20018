#include "tests/han/han_batch.hpp"

#include <utility>

#include "collectives/collectives.hpp"

namespace halyard::testing {

namespace {

const ElementCase kBcastCase{Datatype::kInt32, Op::kSum};
const ElementCase kReduceCase{Datatype::kFloat64, Op::kSum};

std::string comm_label(const Communicator& comm) {
  return " (comm size " + std::to_string(comm.size()) + ", context " +
         std::to_string(comm.context()) + ")";
}

}  // namespace

std::string case_label(const std::string& op, const ElementCase& c, std::size_t count, int root,
                       std::uint32_t seed) {
  return op + " " + case_name(c) + " count " + std::to_string(count) +
         (root >= 0 ? " root " + std::to_string(root) : "") + " seed " + std::to_string(seed);
}

std::vector<std::byte> allgather_reference(const ElementCase& c, int size, std::size_t count,
                                           std::uint32_t seed) {
  std::vector<std::byte> all;
  for (int r = 0; r < size; ++r) {
    std::vector<std::byte> block = make_input(c, r, count, seed);
    all.insert(all.end(), block.begin(), block.end());
  }
  return all;
}

HanBatch::Pending& HanBatch::add(std::string what, ElementCase c) {
  Pending& p = pending_.emplace_back();
  p.what = std::move(what);
  p.c = c;
  return p;
}

void HanBatch::start_bcast(const Communicator& comm, std::size_t count, int root,
                           std::uint32_t seed) {
  Pending& p =
      add(case_label("bcast", kBcastCase, count, root, seed) + comm_label(comm), kBcastCase);
  p.expected = make_input(kBcastCase, root, count, seed);
  p.result = comm.rank() == root ? p.expected : junk(p.expected.size());
  p.request = ibcast(comm, p.result.data(), count, kBcastCase.type, root);
}

void HanBatch::start_allreduce(const Communicator& comm, std::size_t count, std::uint32_t seed) {
  Pending& p =
      add(case_label("allreduce in place", kReduceCase, count, -1, seed) + comm_label(comm),
          kReduceCase);
  p.result = make_input(kReduceCase, comm.rank(), count, seed);
  p.expected = reference_reduction(kReduceCase, comm.size(), count, seed);
  p.request = iallreduce(comm, kInPlace, p.result.data(), count, kReduceCase.type, kReduceCase.op);
}

void HanBatch::start_reduce(const Communicator& comm, std::size_t count, int root,
                            std::uint32_t seed) {
  Pending& p =
      add(case_label("reduce", kReduceCase, count, root, seed) + comm_label(comm), kReduceCase);
  p.input = make_input(kReduceCase, comm.rank(), count, seed);
  p.result = junk(p.input.size());
  if (comm.rank() == root) p.expected = reference_reduction(kReduceCase, comm.size(), count, seed);
  p.request =
      ireduce(comm, p.input.data(), p.result.data(), count, kReduceCase.type, kReduceCase.op, root);
}

void HanBatch::start_allgather(const Communicator& comm, std::size_t count, std::uint32_t seed) {
  Pending& p =
      add(case_label("allgather", kReduceCase, count, -1, seed) + comm_label(comm), kReduceCase);
  p.input = make_input(kReduceCase, comm.rank(), count, seed);
  p.result = junk(p.input.size() * static_cast<std::size_t>(comm.size()));
  p.expected = allgather_reference(kReduceCase, comm.size(), count, seed);
  p.request = iallgather(comm, p.input.data(), p.result.data(), count, kReduceCase.type);
}

void HanBatch::start_barrier(const Communicator& comm, const std::string& what) {
  Pending& p = add(what + comm_label(comm), kBcastCase);
  p.request = ibarrier(comm);
}

void HanBatch::finish() {
  for (Pending& p : pending_) {
    Status s = p.request.wait();
    if (!s.ok()) fail(p.what + ": " + std::string(error_code_name(s.code)) + ": " + s.message);
    if (p.expected.empty()) continue;
    expect_elements(p.what, p.c, p.result.data(), p.expected.data(),
                    p.expected.size() / datatype_size(p.c.type));
  }
  pending_.clear();
}

}  // namespace halyard::testing
