// gatherv, scatterv, allgatherv and alltoallv: uneven counts (zeros among them), blocks placed
// in reverse rank order with one-element gaps (which must stay untouched), every root,
// kInPlace where the API allows it.
#include <algorithm>
#include <string>

#include "collectives/collectives.hpp"
#include "tests/collectives/suites.hpp"

namespace halyard::testing {

namespace {

// Per-rank counts and displacements of a buffer with one block per rank.
struct Layout {
  std::vector<std::size_t> counts;
  std::vector<std::size_t> displacements;
  std::size_t elements = 0;  // the buffer's length, gaps included
};

// Rank r's block has `count + r` elements, except every third rank's, which is empty; `salt`
// varies the pattern between the sides of alltoallv. Blocks lie in reverse rank order, after a
// one-element gap each.
Layout uneven_layout(int ranks, std::size_t count, int salt = 0) {
  Layout layout;
  layout.counts.resize(static_cast<std::size_t>(ranks));
  layout.displacements.resize(layout.counts.size());
  std::size_t next = 1;
  for (int r = ranks - 1; r >= 0; --r) {
    const auto i = static_cast<std::size_t>(r);
    layout.counts[i] = (r + salt) % 3 == 1 ? 0 : count + i;
    layout.displacements[i] = next;
    next += layout.counts[i] + 1;
  }
  layout.elements = next;
  return layout;
}

std::string label(const char* collective, std::size_t count, int root, bool in_place) {
  return std::string(collective) + (in_place ? " in-place" : "") + " count " +
         std::to_string(count) + (root >= 0 ? " root " + std::to_string(root) : "");
}

// Block r of `buffer` holds `expected(r)`; the gaps still hold what `before` held.
template <typename Expected>
void expect_blocks(const std::string& what, const ElementCase& c, const Layout& layout,
                   const std::vector<std::byte>& buffer, const std::vector<std::byte>& before,
                   Expected expected) {
  const std::size_t element = datatype_size(c.type);
  std::vector<bool> covered(layout.elements, false);
  for (std::size_t r = 0; r < layout.counts.size(); ++r) {
    const std::size_t at = layout.displacements[r];
    std::vector<std::byte> block = expected(static_cast<int>(r));
    expect_elements(what + " block " + std::to_string(r), c, buffer.data() + at * element,
                    block.data(), layout.counts[r]);
    std::fill_n(covered.begin() + static_cast<std::ptrdiff_t>(at), layout.counts[r], true);
  }
  for (std::size_t i = 0; i < layout.elements; ++i) {
    if (!covered[i]) {
      expect_elements(what + " gap element " + std::to_string(i), c, buffer.data() + i * element,
                      before.data() + i * element, 1);
    }
  }
}

// `layout` filled with each rank's input as its block (the gaps junk).
std::vector<std::byte> filled(const ElementCase& c, const Layout& layout, std::uint32_t seed,
                              int owner = -1) {
  const std::size_t element = datatype_size(c.type);
  std::vector<std::byte> buffer = junk(layout.elements * element);
  for (std::size_t r = 0; r < layout.counts.size(); ++r) {
    int rank = owner >= 0 ? owner : static_cast<int>(r);
    std::vector<std::byte> block = make_input(c, rank, layout.counts[r], seed + r);
    std::copy(block.begin(), block.end(),
              buffer.begin() + static_cast<std::ptrdiff_t>(layout.displacements[r] * element));
  }
  return buffer;
}

void check_gatherv(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                   std::uint32_t seed, bool in_place) {
  const Layout layout = uneven_layout(comm.size(), count);
  const bool is_root = comm.rank() == root;
  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<std::byte> send = make_input(c, comm.rank(), layout.counts[me], seed);
  std::vector<std::byte> recv = junk(layout.elements * datatype_size(c.type));
  const void* source = send.data();
  if (is_root && in_place) {
    std::copy(send.begin(), send.end(),
              recv.begin() +
                  static_cast<std::ptrdiff_t>(layout.displacements[me] * datatype_size(c.type)));
    source = kInPlace;
  }
  const std::vector<std::byte> before = recv;
  const std::string what = label("gatherv", count, root, is_root && in_place);
  // Counts and displacements are significant at the root only: others pass none.
  expect_ok(igatherv(comm, source, layout.counts[me], is_root ? recv.data() : nullptr,
                     is_root ? layout.counts.data() : nullptr,
                     is_root ? layout.displacements.data() : nullptr, c.type, root),
            what);
  if (!is_root) return;
  expect_blocks(what, c, layout, recv, before,
                [&](int r) { return make_input(c, r, layout.counts[std::size_t(r)], seed); });
}

void check_scatterv(const Communicator& comm, const ElementCase& c, std::size_t count, int root,
                    std::uint32_t seed, bool in_place) {
  const Layout layout = uneven_layout(comm.size(), count);
  const bool is_root = comm.rank() == root;
  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<std::byte> send = is_root ? filled(c, layout, seed) : std::vector<std::byte>{};
  const std::vector<std::byte> sent = send;
  std::vector<std::byte> recv = junk(layout.counts[me] * datatype_size(c.type));
  void* destination = (is_root && in_place) ? const_cast<void*>(kInPlace) : recv.data();
  const std::string what = label("scatterv", count, root, is_root && in_place);
  expect_ok(
      iscatterv(comm, is_root ? send.data() : nullptr, is_root ? layout.counts.data() : nullptr,
                is_root ? layout.displacements.data() : nullptr, destination, layout.counts[me],
                c.type, root),
      what);
  if (is_root) {
    expect_elements(what + " send unchanged", {Datatype::kUint8, Op::kSum}, send.data(),
                    sent.data(), send.size());
  }
  if (is_root && in_place) return;
  std::vector<std::byte> expected = make_input(c, comm.rank(), layout.counts[me], seed + me);
  expect_elements(what, c, recv.data(), expected.data(), layout.counts[me]);
}

void check_allgatherv(const Communicator& comm, const ElementCase& c, std::size_t count,
                      std::uint32_t seed, bool in_place) {
  const Layout layout = uneven_layout(comm.size(), count);
  const auto me = static_cast<std::size_t>(comm.rank());
  std::vector<std::byte> send = make_input(c, comm.rank(), layout.counts[me], seed + me);
  std::vector<std::byte> recv = junk(layout.elements * datatype_size(c.type));
  const std::vector<std::byte> before = recv;
  if (in_place) recv = filled(c, layout, seed);  // only this rank's block matters
  const std::string what = label("allgatherv", count, -1, in_place);
  expect_ok(iallgatherv(comm, in_place ? kInPlace : send.data(), layout.counts[me], recv.data(),
                        layout.counts.data(), layout.displacements.data(), c.type),
            what);
  expect_blocks(what, c, layout, recv, before, [&](int r) {
    return make_input(c, r, layout.counts[std::size_t(r)], seed + std::size_t(r));
  });
}

// Rank s sends rank r a block of count_between(s, r) elements (some empty), with its input for
// seed + r; the send side lays blocks out in reverse order, the receive side forward.
template <typename CountBetween>
void check_alltoallv(const Communicator& comm, const ElementCase& c, std::size_t count,
                     std::uint32_t seed, bool in_place, CountBetween count_between) {
  const int p = comm.size();
  const int me = comm.rank();
  Layout to_send = uneven_layout(p, 0);
  Layout to_recv = to_send;
  std::size_t next = 0;
  for (int r = 0; r < p; ++r) {
    const auto i = static_cast<std::size_t>(r);
    to_send.counts[i] = count_between(me, r);
    to_recv.counts[i] = count_between(r, me);
    to_recv.displacements[i] = next;
    next += to_recv.counts[i] + 2;
  }
  to_recv.elements = next;
  next = 1;
  for (int r = p - 1; r >= 0; --r) {
    to_send.displacements[std::size_t(r)] = next;
    next += to_send.counts[std::size_t(r)] + 1;
  }
  to_send.elements = next;
  if (in_place) to_send = to_recv;  // MPI_IN_PLACE: one layout for both sides
  std::vector<std::byte> send = filled(c, to_send, seed, me);
  std::vector<std::byte> recv = in_place ? send : junk(to_recv.elements * datatype_size(c.type));
  const std::vector<std::byte> before = junk(to_recv.elements * datatype_size(c.type));
  const std::string what = label("alltoallv", count, -1, in_place);
  expect_ok(ialltoallv(comm, in_place ? kInPlace : send.data(), to_send.counts.data(),
                       to_send.displacements.data(), recv.data(), to_recv.counts.data(),
                       to_recv.displacements.data(), c.type),
            what);
  expect_blocks(what, c, to_recv, recv, before, [&](int r) {
    return make_input(c, r, to_recv.counts[std::size_t(r)], seed + std::size_t(me));
  });
}

const ElementCase kVectorMoveCases[] = {
    {Datatype::kInt32, Op::kSum}, {Datatype::kUint8, Op::kSum}, {Datatype::kFloat64, Op::kSum}};

// Runs `check(case, count, seed)` for every case and small count, with a new seed each.
template <typename Check>
void each_vector_case(const SuiteContext& ctx, std::uint32_t seed, Check check) {
  for (const ElementCase& c : kVectorMoveCases) {
    for (std::size_t count : ctx.small_counts) check(c, count, seed++);
  }
}

}  // namespace

void gatherv_suite(const SuiteContext& ctx) {
  each_vector_case(ctx, 11, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    for (int root = 0; root < ctx.world.size(); ++root) {
      check_gatherv(ctx.world, c, count, root, seed + 1000 * root, root % 2 == 1);
    }
  });
}

void scatterv_suite(const SuiteContext& ctx) {
  each_vector_case(ctx, 12, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    for (int root = 0; root < ctx.world.size(); ++root) {
      check_scatterv(ctx.world, c, count, root, seed + 1000 * root, root % 2 == 1);
    }
  });
}

void allgatherv_suite(const SuiteContext& ctx) {
  each_vector_case(ctx, 13, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    check_allgatherv(ctx.world, c, count, seed, false);
    check_allgatherv(ctx.world, c, count, seed + 1000, true);
  });
}

void alltoallv_suite(const SuiteContext& ctx) {
  each_vector_case(ctx, 14, [&](const ElementCase& c, std::size_t count, std::uint32_t seed) {
    const auto count_between = [&](int from, int to) {
      return (count + static_cast<std::size_t>(from + to)) % (count + 3);
    };
    check_alltoallv(ctx.world, c, count, seed, false, count_between);
    check_alltoallv(ctx.world, c, count, seed + 1000, true, count_between);
  });
  // One member sends much, the others a little: with the shm engine its stream spans several
  // cells while theirs fit one chunk, and every member must run as many chunks as the longest.
  // In place the counts must be symmetric: the first and the last member exchange much.
  std::uint32_t seed = 5000;
  const int last = ctx.world.size() - 1;
  for (const ElementCase& c : kVectorMoveCases) {
    for (int heavy : {0, last}) {
      const auto skewed = [&](int from, int) -> std::size_t { return from == heavy ? 40000 : 1; };
      check_alltoallv(ctx.world, c, 40000, seed++, false, skewed);
    }
    const auto pair = [&](int from, int to) -> std::size_t {
      return from != to && (from == 0 || from == last) && (to == 0 || to == last) ? 40000 : 1;
    };
    check_alltoallv(ctx.world, c, 40000, seed++, true, pair);
  }
}

}  // namespace halyard::testing
