// The typed API's reductions: a lambda over a struct (each rank's best sample, MAXLOC-style), a
// non-blocking allreduce with a completion callback on a split communicator, and a complex
// product; every result checked against the arithmetic.
//
//   hlaunch -n 4 halyard_typed_reductions
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

// A sample and where it came from: travels as bytes, reduces with a function object only.
struct Best {
  double score;
  int rank;
};

void expect(bool ok, int rank, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: %s\n", rank, what);
  std::exit(1);
}

}  // namespace

int main() {
  try {
    halyard::Runtime runtime;
    const halyard::Communicator& world = runtime.world();
    const int rank = world.rank();
    const int size = world.size();

    // Which rank has the highest score (rank * 7 mod size, so the winner is not the last one)?
    const Best mine{static_cast<double>(rank * 7 % size), rank};
    std::vector<Best> in{mine}, best(1);
    halyard::allreduce(world, in, best, [](const Best& a, const Best& b) {
      return a.score > b.score || (a.score == b.score && a.rank < b.rank) ? a : b;
    });
    expect(best[0].score == size - 1 && best[0].rank * 7 % size == size - 1, rank, "best sample");

    // Even and odd ranks sum their ranks without blocking; the callback runs on completion.
    const halyard::Communicator parity = world.split(rank % 2, rank);
    std::vector<long> total{rank};
    bool completed = false, completed_ok = false;
    halyard::Request request = halyard::iallreduce(parity, total);  // in place, op sum
    request.on_complete([&](const halyard::Status& s) {
      completed = true;
      completed_ok = s.ok();
    });
    request.wait_ok();
    // Callbacks run deferred, from the event loop: run it until this one has.
    parity.loop().run_until([&completed] { return completed; });
    expect(completed_ok, rank, "completion callback");
    long want = 0;
    for (int r = rank % 2; r < size; r += 2) want += r;
    expect(total[0] == want, rank, "parity sum");

    // The product of i over every rank: i^size.
    std::vector<std::complex<double>> z{{0.0, 1.0}}, product(1);
    halyard::allreduce(world, z, product, halyard::prod);
    std::complex<double> power{1.0, 0.0};
    for (int r = 0; r < size; ++r) power *= std::complex<double>{0.0, 1.0};
    expect(product[0] == power, rank, "complex product");

    if (rank == 0) {
      std::printf("best score %.0f from rank %d; parity sums and i^%d = (%.0f, %.0f) ok\n",
                  best[0].score, best[0].rank, size, power.real(), power.imag());
    }
    runtime.finalize();
  } catch (const halyard::Error& e) {
    std::fprintf(stderr, "halyard_typed_reductions: %s\n", e.what());
    return 1;
  }
  return 0;
}
