// The typed C++ API (halyard/typed.hpp) through hlaunch: every typed collective, blocking,
// non-blocking and in place, checked element by element; reductions of every reducible element
// type; a custom lambda reduction, commutative and not; a too-small buffer refused. Exits
// non-zero naming the first element that differed.
//
//   hlaunch -n 3 typed_check
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

// The compile-time half of the deduction check: each supported element type's Datatype.
static_assert(datatype_of<std::int8_t> == Datatype::kInt8);
static_assert(datatype_of<std::int16_t> == Datatype::kInt16);
static_assert(datatype_of<std::int32_t> == Datatype::kInt32);
static_assert(datatype_of<std::int64_t> == Datatype::kInt64);
static_assert(datatype_of<std::uint8_t> == Datatype::kUint8);
static_assert(datatype_of<std::uint16_t> == Datatype::kUint16);
static_assert(datatype_of<std::uint32_t> == Datatype::kUint32);
static_assert(datatype_of<std::uint64_t> == Datatype::kUint64);
static_assert(datatype_of<long long> == Datatype::kInt64);
static_assert(datatype_of<unsigned char> == Datatype::kUint8);
static_assert(datatype_of<float> == Datatype::kFloat32);
static_assert(datatype_of<double> == Datatype::kFloat64);
static_assert(datatype_of<std::complex<float>> == Datatype::kFloat32);
static_assert(datatype_of<std::complex<double>> == Datatype::kFloat64);
static_assert(datatype_of<float16> == Datatype::kFloat16);
static_assert(datatype_of<bfloat16> == Datatype::kBFloat16);
#if defined(__FLT16_MAX__)
static_assert(datatype_of<_Float16> == Datatype::kFloat16);
#endif
struct Particle {
  double x, y;
  int id;
  bool operator==(const Particle&) const = default;
};
static_assert(Transferable<Particle> && !Reducible<Particle> && !Reducible<bool>);
static_assert(!Transferable<std::string>);

int rank = 0;
int ranks = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  std::exit(1);
}

template <class T>
void expect_elements(std::span<const T> got, std::span<const T> want, const std::string& call) {
  expect(got.size() >= want.size(), call + ": buffer too short");
  for (std::size_t i = 0; i < want.size(); ++i) {
    expect(got[i] == want[i], call + ": element " + std::to_string(i) + " differs");
  }
}
template <class T>
void expect_elements(const std::vector<T>& got, const std::vector<T>& want,
                     const std::string& call) {
  expect_elements(std::span<const T>(got), std::span<const T>(want), call);
}

// Element i of rank r's input: r * 100 + i.
std::vector<std::int64_t> input(std::size_t n, int r) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = r * 100 + static_cast<std::int64_t>(i);
  return v;
}
// Sum over ranks 0 .. last of input(n, r).
std::vector<std::int64_t> summed(std::size_t n, int last) {
  std::vector<std::int64_t> v(n, 0);
  for (int r = 0; r <= last; ++r) {
    const auto in = input(n, r);
    for (std::size_t i = 0; i < n; ++i) v[i] += in[i];
  }
  return v;
}

template <class T>
void check_sum_of(const Communicator& world, T one, T expected, const char* name) {
  std::vector<T> in(5, one), out(5);
  allreduce(world, in, out);
  expect_elements(out, std::vector<T>(5, expected), std::string("allreduce sum of ") + name);
}

void check_element_types(const Communicator& world) {
  const auto n = static_cast<std::int8_t>(ranks);
  check_sum_of<std::int8_t>(world, 1, n, "int8");
  check_sum_of<std::uint16_t>(world, 1, static_cast<std::uint16_t>(ranks), "uint16");
  check_sum_of<std::int32_t>(world, 1, ranks, "int32");
  check_sum_of<std::uint64_t>(world, 1, static_cast<std::uint64_t>(ranks), "uint64");
  check_sum_of<float>(world, 1.0f, static_cast<float>(ranks), "float");
  check_sum_of<double>(world, 1.0, ranks, "double");
  check_sum_of<std::complex<float>>(world, {1.0f, 2.0f},
                                    {static_cast<float>(ranks), 2.0f * static_cast<float>(ranks)},
                                    "complex<float>");
  check_sum_of<std::complex<double>>(world, {1.0, -1.0}, {1.0 * ranks, -1.0 * ranks},
                                     "complex<double>");
  // 1.0 in binary16 is 0x3C00, 2.0 0x4000, 3.0 0x4200; in bfloat16 0x3F80, 0x4000, 0x4040.
  const std::uint16_t half[] = {0, 0x3C00, 0x4000, 0x4200};
  const std::uint16_t brain[] = {0, 0x3F80, 0x4000, 0x4040};
  check_sum_of<float16>(world, {0x3C00}, {half[ranks]}, "float16");
  check_sum_of<bfloat16>(world, {0x3F80}, {brain[ranks]}, "bfloat16");
#if defined(__FLT16_MAX__)
  check_sum_of<_Float16>(world, 1, static_cast<_Float16>(ranks), "_Float16");
#endif

  // complex prod (a custom op: not element-wise on the parts): i^ranks.
  std::vector<std::complex<double>> z(3, {0.0, 1.0}), zp(3);
  allreduce(world, z, zp, prod);
  std::complex<double> want{1.0, 0.0};
  for (int r = 0; r < ranks; ++r) want *= std::complex<double>{0.0, 1.0};
  expect_elements(zp, std::vector<std::complex<double>>(3, want), "allreduce prod complex");

  // Other predefined ops.
  std::vector<int> v{rank, 1 << rank, -rank}, mx(3), bo(3);
  allreduce(world, v, mx, max);
  expect_elements(mx, {ranks - 1, 1 << (ranks - 1), 0}, "allreduce max");
  allreduce(world, v, bo, bor);
  expect(bo[1] == (1 << ranks) - 1, "allreduce bor");
}

void check_rooted(const Communicator& world) {
  const std::size_t n = 7;
  const auto root = ranks - 1;
  const auto total = summed(n, ranks - 1);

  // bcast of bytes-only structs.
  std::vector<Particle> particles(4);
  if (rank == root) {
    for (int i = 0; i < 4; ++i) particles[static_cast<std::size_t>(i)] = {i * 0.5, -i * 1.5, i};
  }
  bcast(world, particles, root);
  for (int i = 0; i < 4; ++i) {
    expect(particles[static_cast<std::size_t>(i)] == Particle{i * 0.5, -i * 1.5, i},
           "bcast Particle " + std::to_string(i));
  }

  // reduce, receive empty off the root, and in place.
  std::vector<std::int64_t> out(rank == root ? n : 0);
  reduce(world, input(n, rank), out, sum, root);
  if (rank == root) expect_elements(out, total, "reduce");
  auto inout = input(n, rank);
  reduce(world, inout, sum, 0);
  if (rank == 0) expect_elements(inout, total, "reduce in place");

  // gather, and in place.
  std::vector<std::int64_t> gathered(rank == 0 ? n * static_cast<std::size_t>(ranks) : 0);
  gather(world, input(n, rank), gathered, 0);
  std::vector<std::int64_t> all;
  for (int r = 0; r < ranks; ++r) {
    const auto in = input(n, r);
    all.insert(all.end(), in.begin(), in.end());
  }
  if (rank == 0) expect_elements(gathered, all, "gather");
  std::vector<std::int64_t> blocks(all.size(), -1);
  std::copy_n(input(n, rank).begin(), n, blocks.begin() + static_cast<std::ptrdiff_t>(n) * rank);
  gather(world, blocks, root);
  if (rank == root) expect_elements(blocks, all, "gather in place");

  // scatter, and in place: rank r gets input(n, r).
  std::vector<std::int64_t> piece(n);
  scatter(world, rank == 0 ? all : std::vector<std::int64_t>{}, piece, 0);
  expect_elements(piece, input(n, rank), "scatter");
  std::vector<std::int64_t> spread = rank == root ? all : std::vector<std::int64_t>(all.size());
  scatter(world, spread, root);
  expect_elements(std::span<const std::int64_t>(spread).subspan(n * static_cast<std::size_t>(rank)),
                  std::span<const std::int64_t>(input(n, rank)), "scatter in place");
}

void check_everywhere(const Communicator& world) {
  const std::size_t n = 5;
  const auto size = static_cast<std::size_t>(ranks);
  std::vector<std::int64_t> all;
  for (int r = 0; r < ranks; ++r) {
    const auto in = input(n, r);
    all.insert(all.end(), in.begin(), in.end());
  }

  std::vector<std::int64_t> out(n);
  allreduce(world, input(n, rank), out);
  expect_elements(out, summed(n, ranks - 1), "allreduce");
  auto inout = input(n, rank);
  allreduce(world, inout);
  expect_elements(inout, summed(n, ranks - 1), "allreduce in place");

  scan(world, input(n, rank), out);
  expect_elements(out, summed(n, rank), "scan");
  inout = input(n, rank);
  scan(world, inout);
  expect_elements(inout, summed(n, rank), "scan in place");
  if (rank > 0) {
    exscan(world, input(n, rank), out);
    expect_elements(out, summed(n, rank - 1), "exscan");
  } else {
    exscan(world, input(n, rank), out);
  }
  inout = input(n, rank);
  exscan(world, inout);
  if (rank > 0) expect_elements(inout, summed(n, rank - 1), "exscan in place");

  std::vector<std::int64_t> gathered(n * size);
  allgather(world, input(n, rank), gathered);
  expect_elements(gathered, all, "allgather");
  std::vector<std::int64_t> blocks(n * size, -1);
  std::copy_n(input(n, rank).begin(), n, blocks.begin() + static_cast<std::ptrdiff_t>(n) * rank);
  allgather(world, blocks);
  expect_elements(blocks, all, "allgather in place");

  // alltoall: block d of rank s's send is s * 1000 + d * 10 + i; rank d gets block s from s.
  auto exchange_block = [&](int s, int d, std::size_t i) {
    return static_cast<std::int64_t>(s * 1000 + d * 10) + static_cast<std::int64_t>(i);
  };
  std::vector<std::int64_t> send(n * size), recv(n * size), want(n * size);
  for (std::size_t b = 0; b < size; ++b) {
    for (std::size_t i = 0; i < n; ++i) {
      send[b * n + i] = exchange_block(rank, static_cast<int>(b), i);
      want[b * n + i] = exchange_block(static_cast<int>(b), rank, i);
    }
  }
  alltoall(world, send, recv);
  expect_elements(recv, want, "alltoall");
  alltoall(world, send);
  expect_elements(send, want, "alltoall in place");

  // reduce_scatter_block: the vector is `all` reduced over ranks with every rank giving `all`;
  // rank r gets block r times size.
  std::vector<std::int64_t> mine(n), block_want(n);
  for (std::size_t i = 0; i < n; ++i) {
    block_want[i] = all[static_cast<std::size_t>(rank) * n + i] * ranks;
  }
  reduce_scatter_block(world, all, mine);
  expect_elements(mine, block_want, "reduce_scatter_block");
  auto whole = all;
  reduce_scatter_block(world, whole);
  expect_elements(whole, block_want, "reduce_scatter_block in place");
}

void check_non_blocking(const Communicator& world) {
  const std::size_t n = 6;
  std::vector<std::int64_t> out(n), gathered(n * static_cast<std::size_t>(ranks));
  const auto in = input(n, rank);
  bool called = false, called_ok = false;
  Request sum_request = iallreduce(world, in, out);
  sum_request.on_complete([&](const Status& s) {
    called = true;
    called_ok = s.ok();
  });
  Request gather_request = iallgather(world, in, gathered);
  Request barrier_request = ibarrier(world);
  while (!gather_request.test()) {
  }
  expect(sum_request.wait().ok() && barrier_request.wait().ok(), "non-blocking requests failed");
  world.loop().run_until([&called] { return called; });  // callbacks run deferred
  expect(called_ok, "on_complete callback saw a failure");
  expect_elements(out, summed(n, ranks - 1), "iallreduce");
  for (int r = 0; r < ranks; ++r) {
    expect_elements(
        std::span<const std::int64_t>(gathered).subspan(n * static_cast<std::size_t>(r)),
        std::span<const std::int64_t>(input(n, r)), "iallgather");
  }

  std::vector<double> b(3, rank == 0 ? 2.5 : 0.0);
  ibcast(world, b, 0).wait_ok();
  expect_elements(b, std::vector<double>(3, 2.5), "ibcast");
  std::vector<std::int64_t> inplace = input(n, rank), sc(n), ex(n);
  Request reqs[] = {
      iallreduce(world, inplace), iscan(world, in, sc), iexscan(world, in, ex),
      ialltoall(world, std::vector<std::int64_t>(static_cast<std::size_t>(ranks), rank), gathered)};
  expect(wait_all(reqs).ok(), "non-blocking batch failed");
  expect_elements(inplace, summed(n, ranks - 1), "iallreduce in place");
  expect_elements(sc, summed(n, rank), "iscan");
  if (rank > 0) expect_elements(ex, summed(n, rank - 1), "iexscan");

  // The rooted and block-wise i-forms, and their in-place forms, one batch.
  const auto size = static_cast<std::size_t>(ranks);
  std::vector<std::int64_t> all;
  for (int r = 0; r < ranks; ++r) {
    const auto block = input(n, r);
    all.insert(all.end(), block.begin(), block.end());
  }
  std::vector<std::int64_t> at_root(n * size), piece(n), own(n), all_in_place(n * size, -1);
  std::vector<std::int64_t> gather_in_place(n * size, -1), scatter_in_place(n * size, -1);
  std::vector<std::int64_t> block_sum_in_place = all, exchange_in_place(size, rank);
  const auto mine_at = [&](std::vector<std::int64_t>& v) {
    std::copy_n(in.begin(), n, v.begin() + static_cast<std::ptrdiff_t>(n) * rank);
  };
  mine_at(all_in_place);
  mine_at(gather_in_place);
  if (rank == 0) scatter_in_place = all;
  Request batch[] = {igather(world, in, at_root, 0),
                     iscatter(world, all, piece, 0),
                     ireduce_scatter_block(world, all, own),
                     iallgather(world, all_in_place),
                     igather(world, gather_in_place, 0),
                     iscatter(world, scatter_in_place, 0),
                     ireduce_scatter_block(world, block_sum_in_place),
                     ialltoall(world, exchange_in_place)};
  expect(wait_all(batch).ok(), "second non-blocking batch failed");
  std::vector<std::int64_t> block_sum(n), exchanged(size);
  for (std::size_t i = 0; i < n; ++i)
    block_sum[i] = all[static_cast<std::size_t>(rank) * n + i] * ranks;
  for (std::size_t r = 0; r < size; ++r) exchanged[r] = static_cast<std::int64_t>(r);
  if (rank == 0) expect_elements(at_root, all, "igather");
  expect_elements(piece, input(n, rank), "iscatter");
  expect_elements(own, block_sum, "ireduce_scatter_block");
  expect_elements(all_in_place, all, "iallgather in place");
  if (rank == 0) expect_elements(gather_in_place, all, "igather in place");
  expect_elements(std::span<const std::int64_t>(scatter_in_place)
                      .subspan(n * static_cast<std::size_t>(rank), n),
                  std::span<const std::int64_t>(in), "iscatter in place");
  expect_elements(block_sum_in_place, block_sum, "ireduce_scatter_block in place");
  expect_elements(exchange_in_place, exchanged, "ialltoall in place");
}

// An affine map x -> m x + c; combine(a, b) applies a first, then b: associative, not
// commutative, so a wrong order shows in the result.
struct Affine {
  std::int64_t m, c;
  bool operator==(const Affine&) const = default;
};
Affine affine_of(int r) {
  return {r + 2, r + 1};
}

void check_custom(const Communicator& world) {
  // Commutative lambda on a bytes-only struct: the particle with the largest x, ties by id.
  const Particle mine{static_cast<double>(rank % 2), 0.0, rank};
  auto larger_x = [](const Particle& a, const Particle& b) {
    return a.x > b.x || (a.x == b.x && a.id < b.id) ? a : b;
  };
  std::vector<Particle> in(3, mine), out(3);
  allreduce(world, in, out, larger_x);
  expect_elements(out, std::vector<Particle>(3, Particle{1.0, 0.0, 1}), "allreduce lambda");
  ireduce(world, in, larger_x, 0).wait_ok();
  if (rank == 0) expect_elements(in, out, "ireduce lambda in place");

  // Non-commutative: rank order matters.
  auto then = [](const Affine& a, const Affine& b) { return Affine{a.m * b.m, a.c * b.m + b.c}; };
  Affine want = affine_of(0);
  for (int r = 1; r < ranks; ++r) want = then(want, affine_of(r));
  std::vector<Affine> maps(2, affine_of(rank)), composed(2);
  allreduce(world, maps, composed, non_commutative(then));
  expect_elements(composed, std::vector<Affine>(2, want), "allreduce non-commutative lambda");
  std::vector<Affine> at_root(rank == 1 ? 2 : 0);
  ireduce(world, maps, at_root, non_commutative(then), 1).wait_ok();
  if (rank == 1) expect_elements(at_root, composed, "ireduce non-commutative lambda");
}

// Persistent collectives: planned once, started for several rounds with the inputs refilled
// between them (a function object stays registered for as long as its plan lives).
void check_persistent(const Communicator& world) {
  const std::size_t n = 5, size = static_cast<std::size_t>(ranks);
  auto then = [](const Affine& a, const Affine& b) { return Affine{a.m * b.m, a.c * b.m + b.c}; };
  std::vector<std::int64_t> in(n), sum(n), sum_in_place(n), sc(n), ex(n), at_root(n * size);
  std::vector<std::int64_t> all(n * size), piece(n), own(n), gathered_in_place(n * size);
  std::vector<std::int64_t> exchange(size), exchanged(size), b(n);
  std::vector<Affine> maps(2), composed(2);
  PersistentCollective plans[] = {allreduce_init(world, in, sum),
                                  allreduce_init(world, sum_in_place),
                                  allreduce_init(world, maps, composed, non_commutative(then)),
                                  scan_init(world, in, sc),
                                  exscan_init(world, in, ex, halyard::sum),
                                  bcast_init(world, b, ranks - 1),
                                  gather_init(world, in, at_root, 0),
                                  scatter_init(world, all, piece, 0),
                                  reduce_scatter_block_init(world, all, own),
                                  allgather_init(world, gathered_in_place),
                                  alltoall_init(world, exchange, exchanged),
                                  barrier_init(world)};
  for (std::int64_t round = 0; round < 4; ++round) {
    // Rank r's input this round: input(n, r) + round; `all` holds every rank's, in rank order.
    const auto input_of = [&](int r) {
      auto v = input(n, r);
      for (auto& x : v) x += round;
      return v;
    };
    // Refilled in place: the plans point at these buffers (assigning a new vector would not).
    std::ranges::copy(input_of(rank), in.begin());
    std::ranges::copy(in, sum_in_place.begin());
    for (int r = 0; r < ranks; ++r) {
      const auto block = input_of(r);
      std::copy(block.begin(), block.end(), all.begin() + static_cast<std::ptrdiff_t>(n) * r);
    }
    std::fill(gathered_in_place.begin(), gathered_in_place.end(), -1);
    std::copy(in.begin(), in.end(),
              gathered_in_place.begin() + static_cast<std::ptrdiff_t>(n) * rank);
    for (std::size_t r = 0; r < size; ++r)
      exchange[r] = rank * 1000 + static_cast<std::int64_t>(r) + round;
    std::fill(maps.begin(), maps.end(), Affine{rank + 2 + round, rank + 1});
    std::fill(b.begin(), b.end(), rank == ranks - 1 ? 7 * round : -1);
    std::vector<Request> rounds;
    for (PersistentCollective& plan : plans) rounds.push_back(plan.start());
    expect(wait_all(rounds).ok(), "a persistent round failed");

    const std::string at = " (persistent, round " + std::to_string(round) + ")";
    std::vector<std::int64_t> want_sum(n, 0), want_scan(n, 0), want_exscan(n, 0), block_sum(n, 0);
    Affine want = {2 + round, 1};
    for (int r = 0; r < ranks; ++r) {
      const auto v = input_of(r);
      for (std::size_t i = 0; i < n; ++i) {
        want_sum[i] += v[i];
        if (r <= rank) want_scan[i] += v[i];
        if (r < rank) want_exscan[i] += v[i];
        block_sum[i] += all[static_cast<std::size_t>(rank) * n + i];
      }
      if (r > 0) want = then(want, Affine{r + 2 + round, r + 1});
    }
    for (std::size_t r = 0; r < size; ++r) {
      exchange[r] = static_cast<std::int64_t>(r) * 1000 + rank + round;
    }
    expect_elements(sum, want_sum, "allreduce" + at);
    expect_elements(sum_in_place, want_sum, "allreduce in place" + at);
    expect_elements(composed, std::vector<Affine>(2, want), "allreduce non-commutative" + at);
    expect_elements(sc, want_scan, "scan" + at);
    if (rank > 0) expect_elements(ex, want_exscan, "exscan" + at);
    expect_elements(b, std::vector<std::int64_t>(n, 7 * round), "bcast" + at);
    if (rank == 0) expect_elements(at_root, all, "gather" + at);
    expect_elements(piece, input_of(rank), "scatter" + at);
    expect_elements(own, block_sum, "reduce_scatter_block" + at);
    expect_elements(gathered_in_place, all, "allgather in place" + at);
    expect_elements(exchanged, exchange, "alltoall" + at);
  }

  // A start while the previous round is in flight throws: rank 0 starts first and tries again
  // before it lets the others start (their data cannot have arrived).
  PersistentCollective plan = allreduce_init(world, in, sum);
  constexpr int kGo = 77;
  char go = 1;
  Request first;
  if (rank == 0) {
    first = plan.start();
    try {
      plan.start();
      expect(false, "a second start() during a round did not throw");
    } catch (const Error& e) {
      expect(
          e.code() == ErrorCode::kInvalidArgument &&
              std::string(e.what()).find("previous round has not completed") != std::string::npos,
          std::string("second start(): ") + e.what());
    }
    for (int r = 1; r < ranks; ++r) world.isend(r, kGo, &go, 1).wait_ok();
  } else {
    world.irecv(0, kGo, &go, 1).wait_ok();
    first = plan.start();
  }
  first.wait_ok();
  expect(!plan.active(), "a completed round still active");
  try {
    bcast_init(world, b, ranks);  // no such root: refused at init, on every rank
    expect(false, "bcast_init with root == size() did not throw");
  } catch (const Error& e) {
    expect(e.code() == ErrorCode::kInvalidArgument, std::string("bcast_init: ") + e.what());
  }
  try {
    PersistentCollective().start();
    expect(false, "an empty persistent collective started");
  } catch (const Error& e) {
    expect(e.code() == ErrorCode::kInvalidArgument, std::string("empty start(): ") + e.what());
  }
}

void check_refusal(const Communicator& world) {
  std::vector<int> in(4), small(3);
  try {
    allreduce(world, in, small);
  } catch (const Error& e) {
    expect(e.code() == ErrorCode::kInvalidArgument &&
               std::string(e.what()).find("receive buffer is smaller") != std::string::npos,
           std::string("allreduce into a short buffer: ") + e.what());
    return;
  }
  expect(false, "allreduce into a short buffer did not throw");
}

}  // namespace

int main() {
  try {
    Runtime runtime;
    const Communicator& world = runtime.world();
    rank = world.rank();
    ranks = world.size();
    check_element_types(world);
    check_rooted(world);
    check_everywhere(world);
    check_non_blocking(world);
    check_custom(world);
    check_persistent(world);
    check_refusal(world);
    // The same on a split (RAII) communicator: odd and even ranks.
    const Communicator half = world.split(rank % 2, rank);
    std::vector<int> one{1}, count(1);
    allreduce(half, one, count);
    expect(count[0] == half.size(), "allreduce on a split communicator");
    std::printf("rank %d/%d: typed API ok\n", rank, ranks);
    runtime.finalize();
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    return 1;
  }
  return 0;
}
