// The C++ API's one-sided communication (halyard::Window, halyard/typed/window.hpp) through
// hlaunch, checked element by element: puts and gets in fence epochs on every flavor, accumulates
// from every rank to one location (exact totals), fetch-and-op tickets handed out once each,
// compare-and-swap with one winner, an exclusive lock around a read-modify-write, post / start /
// complete / wait, request-based puts and gets, and the faults a misused window reports. Exits
// non-zero naming the first thing that differed.
//
//   hlaunch -n 3 rma_window_check
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

int rank = 0;
int ranks = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  std::exit(1);
}

template <class T>
void expect_equal(const T& got, const T& want, const std::string& what) {
  expect(got == want, what + ": got " + std::to_string(got) + ", want " + std::to_string(want));
}

// What `body` throws must be a WindowError of `fault`.
void expect_fault(WindowFault fault, const std::function<void()>& body, const std::string& what) {
  try {
    body();
  } catch (const WindowError& e) {
    expect(e.fault() == fault, what + ": wrong fault (" + e.what() + ")");
    return;
  }
  expect(false, what + ": no WindowError");
}

constexpr std::size_t kElements = 1000;

// Value i of what rank r puts: distinct per rank and element.
std::int64_t value_of(int r, std::size_t i) {
  return static_cast<std::int64_t>(r) * 1'000'000 + static_cast<std::int64_t>(i);
}

// Every rank puts kElements values into its right neighbour's window, then gets them back from
// its left neighbour's window: `memory` is this rank's window of 2 * kElements int64s.
void check_put_and_get(Window& window, std::span<std::int64_t> memory, const std::string& name) {
  const int right = (rank + 1) % ranks;
  const int left = (rank + ranks - 1) % ranks;
  std::vector<std::int64_t> mine(kElements);
  for (std::size_t i = 0; i < kElements; ++i) mine[i] = value_of(rank, i);
  std::fill(memory.begin(), memory.end(), -1);
  window.fence();
  put(window, mine, right, 0);
  // A single element into the second half, one past the first put's end.
  put(window, std::span(&mine[7], 1), right, static_cast<std::int64_t>(kElements + 7));
  window.fence();
  for (std::size_t i = 0; i < kElements; ++i) {
    expect_equal(memory[i], value_of(left, i), name + " put: element " + std::to_string(i));
  }
  expect_equal(memory[kElements + 7], value_of(left, 7), name + " put: the single element");
  expect_equal(memory[kElements + 6], std::int64_t{-1}, name + " put: a neighbour of it");
  std::vector<std::int64_t> fetched(kElements, -2);
  get(window, fetched, left, 0);
  window.fence();
  // The left neighbour's window holds what its own left neighbour put.
  const int second_left = (left + ranks - 1) % ranks;
  for (std::size_t i = 0; i < kElements; ++i) {
    expect_equal(fetched[i], value_of(second_left, i), name + " get: element " + std::to_string(i));
  }
  window.fence(false);
}

void check_flavors(const Communicator& world) {
  const auto bytes = static_cast<std::int64_t>(2 * kElements * sizeof(std::int64_t));
  {
    std::vector<std::int64_t> memory(2 * kElements);
    Window window(world, WindowFlavor::kCreate, memory.data(), bytes, sizeof(std::int64_t));
    check_put_and_get(window, memory, "create");
    window.free();
  }
  {
    Window window(world, WindowFlavor::kAllocate, nullptr, bytes, sizeof(std::int64_t));
    auto* base = static_cast<std::int64_t*>(window.base());
    expect(base != nullptr, "allocate: no memory");
    check_put_and_get(window, {base, 2 * kElements}, "allocate");
    window.free();
  }
  {
    // A dynamic window: displacements are addresses, learnt from the target.
    std::vector<std::int64_t> memory(kElements, 0);
    Window window(world, WindowFlavor::kDynamic, nullptr, 0, 1);
    window.attach(memory.data(), static_cast<std::int64_t>(kElements * sizeof(std::int64_t)));
    auto address = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(memory.data()));
    std::vector<std::int64_t> addresses(static_cast<std::size_t>(ranks));
    allgather(world, std::span(&address, 1), addresses);
    const int right = (rank + 1) % ranks;
    const int left = (rank + ranks - 1) % ranks;
    std::vector<std::int64_t> mine(kElements);
    for (std::size_t i = 0; i < kElements; ++i) mine[i] = value_of(rank, i);
    window.fence();
    put(window, mine, right, addresses[static_cast<std::size_t>(right)]);
    window.fence(false);
    for (std::size_t i = 0; i < kElements; ++i) {
      expect_equal(memory[i], value_of(left, i), "dynamic put: element " + std::to_string(i));
    }
    window.detach(memory.data());
    expect_fault(
        WindowFault::kAttach, [&] { window.detach(memory.data()); }, "detach twice");
    window.free();
  }
}

// Every rank accumulates into rank 0's window: sums of int64 and of std::complex<double>, max of
// doubles, band of uint32; get_accumulate returns what was there before.
void check_accumulates(const Communicator& world) {
  struct Memory {
    std::int64_t sums[kElements];
    std::complex<double> complex_sums[16];
    double maxima[16];
    std::uint32_t masks[16];
  } memory{};
  std::fill(std::begin(memory.masks), std::end(memory.masks), 0xffffffffu);
  std::fill(std::begin(memory.maxima), std::end(memory.maxima), -1.0);
  Window window(world, WindowFlavor::kCreate, &memory, sizeof memory, 1);
  std::vector<std::int64_t> mine(kElements);
  for (std::size_t i = 0; i < kElements; ++i) mine[i] = (rank + 1) * static_cast<std::int64_t>(i);
  std::vector<std::complex<double>> complex_mine(16, {1.0 * rank, -2.0});
  std::vector<double> maxima(16);
  for (std::size_t i = 0; i < 16; ++i) maxima[i] = static_cast<double>((rank * 7 + i) % 5);
  std::vector<std::uint32_t> masks(16, ~(1u << rank));
  constexpr int kRounds = 10;
  window.fence();
  for (int round = 0; round < kRounds; ++round) accumulate(window, mine, 0, 0, sum);
  accumulate(window, complex_mine, 0, offsetof(Memory, complex_sums), sum);
  accumulate(window, maxima, 0, offsetof(Memory, maxima), max);
  accumulate(window, masks, 0, offsetof(Memory, masks), band);
  window.fence();
  if (rank == 0) {
    const std::int64_t factor = kRounds * static_cast<std::int64_t>(ranks) * (ranks + 1) / 2;
    for (std::size_t i = 0; i < kElements; ++i) {
      expect_equal(memory.sums[i], factor * static_cast<std::int64_t>(i),
                   "accumulate sum: element " + std::to_string(i));
    }
    const double real = ranks * (ranks - 1) / 2.0;
    for (std::size_t i = 0; i < 16; ++i) {
      expect(memory.complex_sums[i] == std::complex<double>(real, -2.0 * ranks),
             "accumulate complex sum: element " + std::to_string(i));
      double want = -1.0;
      for (int r = 0; r < ranks; ++r) want = std::max(want, static_cast<double>((r * 7 + i) % 5));
      expect_equal(memory.maxima[i], want, "accumulate max: element " + std::to_string(i));
      std::uint32_t mask = 0xffffffffu;
      for (int r = 0; r < ranks; ++r) mask &= ~(1u << r);
      expect_equal(memory.masks[i], mask, "accumulate band: element " + std::to_string(i));
    }
  }
  window.fence();
  // get_accumulate in turn, rank by rank: each sees the sums as the ranks before it left them.
  std::vector<std::int64_t> before(4);
  std::vector<std::int64_t> add(4, 1);
  for (int turn = 0; turn < ranks; ++turn) {
    if (turn == rank) get_accumulate(window, add, before, 0, 0, sum);
    window.fence();
  }
  const std::int64_t factor = kRounds * static_cast<std::int64_t>(ranks) * (ranks + 1) / 2;
  for (std::size_t i = 0; i < before.size(); ++i) {
    expect_equal(before[i], factor * static_cast<std::int64_t>(i) + rank,
                 "get_accumulate: element " + std::to_string(i));
  }
  window.free();
}

// Tickets from one counter by fetch-and-op, under shared locks: each value handed out once.
void check_fetch_and_op_and_compare_and_swap(const Communicator& world) {
  std::int64_t cells[2] = {0, -1};  // the counter; the slot that compare_and_swap claims
  Window window(world, WindowFlavor::kCreate, cells, sizeof cells, sizeof(std::int64_t));
  const int owner = ranks - 1;
  constexpr int kTickets = 50;
  std::vector<std::int64_t> tickets(kTickets);
  window.lock(LockType::kShared, owner);
  for (int t = 0; t < kTickets; ++t) {
    fetch_and_op(window, std::int64_t{1}, tickets[static_cast<std::size_t>(t)], owner, 0, sum);
    window.flush(owner);
  }
  std::int64_t previous = 0;
  compare_and_swap(window, std::int64_t{rank}, std::int64_t{-1}, previous, owner, 1);
  window.unlock(owner);
  std::vector<std::int64_t> all(static_cast<std::size_t>(kTickets * ranks));
  allgather(world, tickets, all);
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) {
    expect_equal(all[i], static_cast<std::int64_t>(i), "fetch_and_op ticket " + std::to_string(i));
  }
  // Exactly one rank found -1 and claimed the slot; the others saw its rank.
  std::int64_t won = previous == -1 ? 1 : 0;
  std::int64_t winners = 0;
  allreduce(world, std::span(&won, 1), std::span(&winners, 1), sum);
  expect_equal(winners, std::int64_t{1}, "compare_and_swap winners");
  barrier(world);
  if (rank == owner) {
    expect_equal(cells[0], static_cast<std::int64_t>(kTickets * ranks), "the counter");
    expect(cells[1] >= 0 && cells[1] < ranks, "the claimed slot");
  }
  if (previous != -1) expect(previous >= 0 && previous < ranks, "compare_and_swap saw a rank");
  window.free();
}

// A read-modify-write by get, flush, put under an exclusive lock: no update is lost.
void check_exclusive_lock(const Communicator& world) {
  std::int64_t counter = 0;
  Window window(world, WindowFlavor::kCreate, &counter, sizeof counter, sizeof counter);
  constexpr int kIncrements = 30;
  for (int i = 0; i < kIncrements; ++i) {
    window.lock(LockType::kExclusive, 0);
    std::int64_t seen = -1;
    get(window, std::span(&seen, 1), 0, 0);
    window.flush(0);
    const std::int64_t next = seen + 1;
    put(window, std::span(&next, 1), 0, 0);
    window.unlock(0);
  }
  barrier(world);
  if (rank == 0) {
    expect_equal(counter, static_cast<std::int64_t>(kIncrements * ranks), "exclusive counter");
  }
  window.free();
}

// Rank 0 exposes its window to the others (post / wait); they put into it (start / complete).
void check_post_start_complete_wait(const Communicator& world) {
  std::vector<std::int32_t> memory(static_cast<std::size_t>(ranks), 0);
  Window window(world, WindowFlavor::kCreate, memory.data(),
                static_cast<std::int64_t>(memory.size() * sizeof(std::int32_t)),
                sizeof(std::int32_t));
  std::vector<int> others;
  for (int r = 1; r < ranks; ++r) others.push_back(r);
  if (rank == 0) {
    window.post(others);
    window.wait();
    for (int r = 1; r < ranks; ++r) {
      expect_equal(memory[static_cast<std::size_t>(r)], 10 * r + 1,
                   "post/wait: slot " + std::to_string(r));
    }
  } else {
    window.start_access({0});
    const std::int32_t value = 10 * rank + 1;
    put(window, std::span(&value, 1), 0, rank);
    window.complete();
  }
  window.free();
}

// rput / rget under lock_all: each request complete means the data is there.
void check_requests(const Communicator& world) {
  std::vector<double> memory(64);
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = rank + 0.5 * static_cast<double>(i);
  Window window(world, WindowFlavor::kAllocate, nullptr, 64 * sizeof(double), sizeof(double));
  auto* base = static_cast<double*>(window.base());
  std::copy(memory.begin(), memory.end(), base);
  barrier(world);
  const int right = (rank + 1) % ranks;
  window.lock_all();
  std::vector<double> fetched(32, -1.0);
  rget(window, fetched, right, 32).wait_ok();
  for (std::size_t i = 0; i < fetched.size(); ++i) {
    expect_equal(fetched[i], right + 0.5 * static_cast<double>(32 + i),
                 "rget: element " + std::to_string(i));
  }
  const double mark = -rank - 1.0;
  rput(window, std::span(&mark, 1), right, 0).wait_ok();
  window.unlock_all();
  barrier(world);
  const int left = (rank + ranks - 1) % ranks;
  expect_equal(base[0], -left - 1.0, "rput: the mark");
  window.free();
}

void check_faults(const Communicator& world) {
  std::int32_t memory[4] = {};
  Window window(world, WindowFlavor::kCreate, memory, sizeof memory, sizeof(std::int32_t));
  const std::int32_t one = 1;
  expect_fault(
      WindowFault::kSync, [&] { put(window, std::span(&one, 1), 0, 0); }, "put outside an epoch");
  expect_fault(
      WindowFault::kFlavor, [&] { window.attach(memory, 4); }, "attach");
  window.lock(LockType::kShared, 0);
  expect_fault(
      WindowFault::kRange, [&] { put(window, std::span(&one, 1), 0, 4); }, "put beyond the window");
  expect_fault(
      WindowFault::kRank, [&] { put(window, std::span(&one, 1), ranks, 0); },
      "put to a rank outside the window");
  expect_fault(
      WindowFault::kSync, [&] { window.lock(LockType::kShared, 0); }, "lock twice");
  window.unlock(0);
  expect_fault(
      WindowFault::kSync, [&] { window.unlock(0); }, "unlock without lock");
  window.free();
}

}  // namespace

int main() {
  try {
    Runtime runtime;
    const Communicator& world = runtime.world();
    rank = world.rank();
    ranks = world.size();
    check_flavors(world);
    check_accumulates(world);
    check_fetch_and_op_and_compare_and_swap(world);
    check_exclusive_lock(world);
    if (ranks > 1) check_post_start_complete_wait(world);
    check_requests(world);
    check_faults(world);
    if (rank == 0) std::printf("rma_window_check: %d ranks, every check passed\n", ranks);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    return 1;
  }
}
