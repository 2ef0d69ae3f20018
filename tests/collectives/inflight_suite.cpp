// Several collectives in flight at once, on the world and on a split communicator, completed
// in an order different from the posting order; then the huge (64 MiB) cases.
#include <functional>
#include <string>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

// A posted collective and the check to run once everything has completed.
using Buffer = std::shared_ptr<std::vector<std::byte>>;

struct Pending {
  std::string what;
  Request request;
  std::function<void()> verify;
  // Buffers the transports may still read or write until the request completes (the verify
  // closure only holds the ones it looks at).
  std::vector<Buffer> in_use;
};

Buffer buffer(std::vector<std::byte> bytes) {
  return std::make_shared<std::vector<std::byte>>(std::move(bytes));
}

Pending post_allreduce(const Communicator& comm, const ElementCase& c, std::size_t count,
                       std::uint32_t seed, const std::string& where) {
  Buffer send = buffer(make_input(c, comm.rank(), count, seed));
  Buffer recv = buffer(junk(send->size()));
  std::string what = where + " allreduce " + case_name(c) + " count " + std::to_string(count);
  Request r = iallreduce(comm, send->data(), recv->data(), count, c.type, c.op);
  int size = comm.size();
  return {what,
          r,
          [=] {
            std::vector<std::byte> expected = reference_reduction(c, size, count, seed);
            expect_elements(what, c, recv->data(), expected.data(), count);
          },
          {send, recv}};
}

Pending post_bcast(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                   std::uint32_t seed, const std::string& where) {
  std::vector<std::byte> expected = make_input(c, root, count, seed);
  Buffer data = buffer(comm.rank() == root ? expected : junk(expected.size()));
  std::string what =
      where + " bcast count " + std::to_string(count) + " root " + std::to_string(root);
  Request r = ibcast(comm, data->data(), count, c.type, root);
  return {what, r, [=] { expect_elements(what, c, data->data(), expected.data(), count); }, {data}};
}

Pending post_reduce(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                    std::uint32_t seed, const std::string& where) {
  Buffer send = buffer(make_input(c, comm.rank(), count, seed));
  Buffer recv = buffer(junk(send->size()));
  std::string what =
      where + " reduce count " + std::to_string(count) + " root " + std::to_string(root);
  Request r = ireduce(comm, send->data(), recv->data(), count, c.type, c.op, root);
  bool is_root = comm.rank() == root;
  int size = comm.size();
  return {what,
          r,
          [=] {
            if (!is_root) return;
            std::vector<std::byte> expected = reference_reduction(c, size, count, seed);
            expect_elements(what, c, recv->data(), expected.data(), count);
          },
          {send, recv}};
}

Pending post_allgather(const Communicator& comm, const ElementCase& c, std::size_t count,
                       std::uint32_t seed, const std::string& where) {
  Buffer send = buffer(make_input(c, comm.rank(), count, seed));
  Buffer recv = buffer(junk(send->size() * static_cast<std::size_t>(comm.size())));
  std::string what = where + " allgather count " + std::to_string(count);
  Request r = iallgather(comm, send->data(), recv->data(), count, c.type);
  int size = comm.size();
  return {what,
          r,
          [=] {
            std::size_t block = count * datatype_size(c.type);
            for (int s = 0; s < size; ++s) {
              std::vector<std::byte> expected = make_input(c, s, count, seed);
              expect_elements(what, c, recv->data() + static_cast<std::size_t>(s) * block,
                              expected.data(), count);
            }
          },
          {send, recv}};
}

Pending post_barrier(const Communicator& comm, const std::string& where) {
  return {where + " barrier", ibarrier(comm), [] {}, {}};
}

}  // namespace

void inflight_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  // Split before posting: split itself is blocking. Reversed keys check rank renumbering.
  Communicator half = w.split(w.rank() % 2, -w.rank());
  const ElementCase ints{Datatype::kInt32, Op::kSum};
  const ElementCase doubles{Datatype::kFloat64, Op::kMax};
  const ElementCase halves{Datatype::kFloat16, Op::kSum};
  std::uint32_t seed = 40;
  for (std::size_t count : {std::size_t{1000}, std::size_t{40001}}) {
    std::vector<Pending> posted;
    posted.push_back(post_bcast(w, ints, count, 0, seed++, "world"));
    posted.push_back(post_allreduce(w, ints, count, seed++, "world"));
    posted.push_back(post_allreduce(half, halves, count, seed++, "split"));
    posted.push_back(post_reduce(w, doubles, count, w.size() - 1, seed++, "world"));
    posted.push_back(post_allgather(w, doubles, count, seed++, "world"));
    posted.push_back(post_bcast(half, doubles, count, half.size() - 1, seed++, "split"));
    posted.push_back(post_barrier(w, "world"));
    posted.push_back(post_reduce(half, ints, count, 0, seed++, "split"));
    posted.push_back(post_allreduce(w, doubles, count, seed++, "world"));
    posted.push_back(post_allgather(half, ints, count, seed++, "split"));
    posted.push_back(post_barrier(half, "split"));
    // Wait newest first: completion must not depend on the order the caller waits in.
    for (auto it = posted.rbegin(); it != posted.rend(); ++it) expect_ok(it->request, it->what);
    for (const Pending& p : posted) p.verify();
  }
}

void huge_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  constexpr std::size_t kBytes = 64u << 20;
  const ElementCase ints{Datatype::kInt32, Op::kSum};
  std::vector<Pending> one;
  one.push_back(post_allreduce(w, ints, kBytes / 4, 50, "huge"));
  expect_ok(one[0].request, one[0].what);
  one[0].verify();
  one[0] = post_bcast(w, {Datatype::kUint8, Op::kSum}, kBytes, w.size() - 1, 51, "huge");
  expect_ok(one[0].request, one[0].what);
  one[0].verify();
}

}  // namespace halyard::testing
