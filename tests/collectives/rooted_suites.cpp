// bcast, reduce, gather and scatter: every root, every small count, a few datatype/op pairs,
// kInPlace where the API allows it, and one large count.
#include <string>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

std::string label(const char* collective, std::size_t count, int root, const char* variant = "") {
  return std::string(collective) + variant + " count " + std::to_string(count) + " root " +
         std::to_string(root);
}

void check_bcast(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                 std::uint32_t seed) {
  std::vector<std::byte> expected = make_input(c, root, count, seed);
  std::vector<std::byte> buffer =
      comm.rank() == root ? expected : junk(count * datatype_size(c.type));
  expect_ok(ibcast(comm, buffer.data(), count, c.type, root), label("bcast", count, root));
  expect_elements(label("bcast", count, root), c, buffer.data(), expected.data(), count);
}

void check_reduce(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                  std::uint32_t seed, bool in_place) {
  std::vector<std::byte> send = make_input(c, comm.rank(), count, seed);
  bool is_root = comm.rank() == root;
  std::vector<std::byte> recv = (is_root && in_place) ? send : junk(send.size());
  const void* source = (is_root && in_place) ? kInPlace : send.data();
  std::string what = label("reduce", count, root, in_place ? " in-place" : "");
  expect_ok(ireduce(comm, source, recv.data(), count, c.type, c.op, root), what);
  if (is_root) {
    std::vector<std::byte> expected = reference_reduction(c, comm.size(), count, seed);
    expect_elements(what, c, recv.data(), expected.data(), count);
  }
}

void check_gather(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                  std::uint32_t seed, bool in_place) {
  std::size_t block = count * datatype_size(c.type);
  bool is_root = comm.rank() == root;
  std::vector<std::byte> send = make_input(c, comm.rank(), count, seed);
  std::vector<std::byte> recv = junk(block * static_cast<std::size_t>(comm.size()));
  const void* source = send.data();
  if (is_root && in_place) {
    std::copy(send.begin(), send.end(), recv.begin() + static_cast<std::ptrdiff_t>(root * block));
    source = kInPlace;
  }
  std::string what = label("gather", count, root, in_place ? " in-place" : "");
  expect_ok(igather(comm, source, is_root ? recv.data() : nullptr, count, c.type, root), what);
  if (!is_root) return;
  for (int r = 0; r < comm.size(); ++r) {
    std::vector<std::byte> expected = make_input(c, r, count, seed);
    expect_elements(what + " block " + std::to_string(r), c,
                    recv.data() + static_cast<std::size_t>(r) * block, expected.data(), count);
  }
}

void check_scatter(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                   std::uint32_t seed, bool in_place) {
  std::size_t block = count * datatype_size(c.type);
  bool is_root = comm.rank() == root;
  std::vector<std::byte> send;
  if (is_root) {
    for (int r = 0; r < comm.size(); ++r) {
      std::vector<std::byte> part = make_input(c, r, count, seed);
      send.insert(send.end(), part.begin(), part.end());
    }
  }
  const std::vector<std::byte> sent = send;
  std::vector<std::byte> recv = junk(block);
  in_place = in_place && is_root;
  std::string what = label("scatter", count, root, in_place ? " in-place" : "");
  void* destination = in_place ? const_cast<void*>(kInPlace) : recv.data();
  expect_ok(iscatter(comm, is_root ? send.data() : nullptr, destination, count, c.type, root),
            what);
  if (in_place) {
    // The root's block stays in send, which is unchanged.
    expect_elements(what, c, send.data(), sent.data(),
                    count * static_cast<std::size_t>(comm.size()));
    return;
  }
  std::vector<std::byte> expected = make_input(c, comm.rank(), count, seed);
  expect_elements(what, c, recv.data(), expected.data(), count);
}

// Datatypes cover 1-, 2-, 4- and 8-byte elements; ops only matter for reduce.
const ElementCase kMoveCases[] = {{Datatype::kInt32, Op::kSum},
                                  {Datatype::kUint8, Op::kSum},
                                  {Datatype::kFloat16, Op::kSum},
                                  {Datatype::kFloat64, Op::kSum}};
const ElementCase kReduceCases[] = {
    {Datatype::kInt32, Op::kSum},   {Datatype::kFloat32, Op::kSum, false},
    {Datatype::kUint8, Op::kBxor},  {Datatype::kFloat64, Op::kMax},
    {Datatype::kFloat16, Op::kSum}, {Datatype::kBFloat16, Op::kMin},
    {Datatype::kInt64, Op::kProd},  {Datatype::kInt16, Op::kLor}};

}  // namespace

void bcast_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::uint32_t seed = 1;
  for (const ElementCase& c : kMoveCases) {
    for (std::size_t count : ctx.small_counts) {
      for (int root = 0; root < w.size(); ++root) check_bcast(w, c, count, root, seed++);
    }
  }
  check_bcast(w, kMoveCases[0], ctx.large_count, w.size() - 1, seed++);
}

void reduce_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::uint32_t seed = 2;
  for (std::size_t i = 0; i < std::size(kReduceCases); ++i) {
    const ElementCase& c = kReduceCases[i];
    for (std::size_t count : ctx.small_counts) {
      for (int root = 0; root < w.size(); ++root) {
        check_reduce(w, c, count, root, seed++, /*in_place=*/(root + i) % 2 == 1);
      }
    }
  }
  check_reduce(w, kReduceCases[0], ctx.large_count, w.size() - 1, seed++, false);
  check_reduce(w, kReduceCases[1], ctx.large_count / 4, 0, seed++, true);
}

void gather_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::uint32_t seed = 3;
  for (const ElementCase& c : kMoveCases) {
    for (std::size_t count : ctx.small_counts) {
      for (int root = 0; root < w.size(); ++root) {
        check_gather(w, c, count, root, seed++, root % 2 == 1);
      }
    }
  }
  check_gather(w, kMoveCases[0], ctx.large_count / 4, w.size() - 1, seed++, false);
}

void scatter_suite(const SuiteContext& ctx) {
  const Communicator& w = ctx.world;
  std::uint32_t seed = 4;
  for (const ElementCase& c : kMoveCases) {
    for (std::size_t count : ctx.small_counts) {
      for (int root = 0; root < w.size(); ++root) {
        check_scatter(w, c, count, root, seed++, root % 2 == 1);
      }
    }
  }
  check_scatter(w, kMoveCases[0], ctx.large_count / 4, w.size() - 1, seed++, false);
}

}  // namespace halyard::testing
