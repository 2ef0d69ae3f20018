// halyard_bench_typed: the typed C++ API (halyard/typed.hpp) against the pointer API it
// forwards to, side by side: allreduce (sum) and bcast of one small message, on every rank.
//
//   hlaunch -n 2 build/bin/halyard_bench_typed [--bytes B] [--iterations N] [--trials T]
//
// Defaults: 4 B (one float), 20000 iterations, 7 trials. The two APIs alternate trial by trial
// (pointer first in even trials, typed first in odd ones) so that drift on a shared machine
// hits both alike; a trial's time is the slowest rank's mean per call, and the best trial of
// each is printed with typed / pointer as a ratio (issue 28's goal: within 2%, i.e. <= 1.02).
// The rows marked "init" time a typed persistent collective (planned once, start().wait() per
// call) against the same blocking pointer call.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

struct Options {
  std::size_t bytes = 4;
  int iterations = 20000;
  int trials = 7;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const long value = std::atol(argv[i + 1]);
    if (value <= 0) {
      throw halyard::Error(halyard::ErrorCode::kInvalidArgument, arg + " must be > 0");
    }
    if (arg == "--bytes") {
      options.bytes = static_cast<std::size_t>(value);
    } else if (arg == "--iterations") {
      options.iterations = static_cast<int>(value);
    } else if (arg == "--trials") {
      options.trials = static_cast<int>(value);
    } else {
      throw halyard::Error(
          halyard::ErrorCode::kInvalidArgument,
          "unknown argument '" + arg + "' (expected --bytes, --iterations or --trials)");
    }
  }
  return options;
}

// The slowest rank's mean time per call of `call`, in microseconds.
template <class Call>
double time_per_call(const halyard::Communicator& world, int iterations, Call call) {
  halyard::barrier(world);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) call();
  const std::chrono::duration<double, std::micro> elapsed =
      std::chrono::steady_clock::now() - start;
  std::vector<double> mine{elapsed.count() / iterations}, slowest(1);
  halyard::allreduce(world, mine, slowest, halyard::max);
  return slowest[0];
}

struct Pair {
  double pointer = std::numeric_limits<double>::infinity();
  double typed = std::numeric_limits<double>::infinity();
};

// The best trial of each API, alternating which goes first.
template <class PointerCall, class TypedCall>
Pair measure(const halyard::Communicator& world, const Options& options, PointerCall pointer,
             TypedCall typed) {
  Pair best;
  for (int trial = 0; trial < options.trials; ++trial) {
    for (int turn = 0; turn < 2; ++turn) {
      if ((trial + turn) % 2 == 0) {
        best.pointer = std::min(best.pointer, time_per_call(world, options.iterations, pointer));
      } else {
        best.typed = std::min(best.typed, time_per_call(world, options.iterations, typed));
      }
    }
  }
  return best;
}

void print(const char* name, std::size_t bytes, const Pair& pair) {
  std::printf("%-15s %8zu %12.3f %12.3f %8.4f\n", name, bytes, pair.pointer, pair.typed,
              pair.typed / pair.pointer);
}

void run(const Options& options) {
  halyard::Runtime runtime;
  const halyard::Communicator& world = runtime.world();
  const std::size_t floats = std::max<std::size_t>(1, options.bytes / sizeof(float));
  std::vector<float> send(floats, 1.0f), recv(floats);

  const Pair allreduce = measure(
      world, options,
      [&] {
        halyard::allreduce(world, send.data(), recv.data(), floats, halyard::Datatype::kFloat32,
                           halyard::Op::kSum);
      },
      [&] { halyard::allreduce(world, send, recv); });
  const Pair bcast = measure(
      world, options,
      [&] { halyard::bcast(world, send.data(), floats, halyard::Datatype::kFloat32, 0); },
      [&] { halyard::bcast(world, send, 0); });

  halyard::PersistentCollective allreduce_plan = halyard::allreduce_init(world, send, recv);
  const Pair allreduce_init = measure(
      world, options,
      [&] {
        halyard::allreduce(world, send.data(), recv.data(), floats, halyard::Datatype::kFloat32,
                           halyard::Op::kSum);
      },
      [&] { allreduce_plan.start().wait_ok(); });
  halyard::PersistentCollective bcast_plan = halyard::bcast_init(world, send, 0);
  const Pair bcast_init = measure(
      world, options,
      [&] { halyard::bcast(world, send.data(), floats, halyard::Datatype::kFloat32, 0); },
      [&] { bcast_plan.start().wait_ok(); });

  if (world.rank() == 0) {
    std::printf("# %d ranks, %d iterations, best of %d trials; us per call, slowest rank\n",
                world.size(), options.iterations, options.trials);
    std::printf("%-15s %8s %12s %12s %8s\n", "collective", "bytes", "pointer_us", "typed_us",
                "ratio");
    print("allreduce", floats * sizeof(float), allreduce);
    print("bcast", floats * sizeof(float), bcast);
    print("allreduce init", floats * sizeof(float), allreduce_init);
    print("bcast init", floats * sizeof(float), bcast_init);
  }
  runtime.finalize();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    run(parse(argc, argv));
  } catch (const halyard::Error& e) {
    std::fprintf(stderr, "halyard_bench_typed: %s\n", e.what());
    return 1;
  }
  return 0;
}
