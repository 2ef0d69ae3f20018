// halyard_bench_p2p: point-to-point ping-pong latency and bandwidth between ranks 0 and 1.
//
//   hlaunch -n 2 build/bin/halyard_bench_p2p [--max-size BYTES] [--trials N] [--scale F]
//
// For every size from 1 B to --max-size (default 64M), doubling, rank 0 sends and rank 1 sends
// back, `iterations` times after a warm-up; latency is half the average round trip, bandwidth
// is size / latency (MB/s = 10^6 bytes per second). Each size is measured --trials times
// (default 3) and the best trial is printed, which filters out the noise of a shared machine.
// bench/mpi_pingpong.c measures Open MPI the same way and prints the same table, so
// bench/compare_p2p.sh can put the two side by side. The payload is checked once per size.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

struct Options {
  std::size_t max_size = std::size_t{64} << 20;
  int trials = 3;
  double scale = 1.0;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw halyard::Error(halyard::ErrorCode::kInvalidArgument, arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--max-size") {
      options.max_size = halyard::config::parse_bytes(value(), "--max-size");
    } else if (arg == "--trials") {
      options.trials = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--scale") {
      options.scale = std::atof(value().c_str());
      if (!(options.scale > 0))
        throw halyard::Error(halyard::ErrorCode::kInvalidArgument, "--scale must be > 0");
    } else {
      throw halyard::Error(
          halyard::ErrorCode::kInvalidArgument,
          "unknown argument '" + arg + "' (expected --max-size, --trials or --scale)");
    }
  }
  return options;
}

// Same schedule as bench/mpi_pingpong.c: many round trips for small sizes, few for large.
int iterations_for(std::size_t size, double scale) {
  int base = size < (16u << 10) ? 1000 : size < (1u << 20) ? 200 : size < (16u << 20) ? 30 : 10;
  return std::max(1, static_cast<int>(base * scale));
}
int warmup_for(std::size_t size) {
  return size < (16u << 10) ? 100 : size < (1u << 20) ? 20 : 2;
}

std::uint8_t pattern_byte(std::size_t i, std::size_t size) {
  return static_cast<std::uint8_t>((i * 7 + size) & 0xff);
}

void ping_pong(const halyard::Communicator& world, std::vector<std::uint8_t>& buffer,
               std::size_t size, int rounds) {
  const int rank = world.rank();
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      world.send(1, 1, buffer.data(), size);
      world.recv(1, 1, buffer.data(), size);
    } else {
      world.recv(0, 1, buffer.data(), size);
      world.send(0, 1, buffer.data(), size);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    halyard::Runtime runtime;
    const halyard::Communicator& world = runtime.world();
    if (world.size() < 2) {
      std::fprintf(stderr, "halyard_bench_p2p: needs 2 ranks (hlaunch -n 2)\n");
      return 2;
    }
    std::vector<std::uint8_t> buffer(options.max_size);
    if (world.rank() == 0) {
      std::printf("# halyard p2p ping-pong, 2 ranks, best of %d trials\n", options.trials);
      std::printf("%12s %14s %16s\n", "# size(B)", "latency(us)", "bandwidth(MB/s)");
    }
    for (std::size_t size = 1; size <= options.max_size; size *= 2) {
      if (world.rank() < 2) {
        // Check the payload once: rank 0 fills it, rank 1 verifies what arrived.
        for (std::size_t i = 0; i < size; ++i)
          buffer[i] = world.rank() == 0 ? pattern_byte(i, size) : 0;
        if (world.rank() == 0) {
          world.send(1, 2, buffer.data(), size);
        } else {
          world.recv(0, 2, buffer.data(), size);
          for (std::size_t i = 0; i < size; ++i) {
            if (buffer[i] != pattern_byte(i, size)) {
              std::fprintf(stderr, "halyard_bench_p2p: byte %zu of a %zu-byte message is wrong\n",
                           i, size);
              return 1;
            }
          }
        }
        const int rounds = iterations_for(size, options.scale);
        double best = std::numeric_limits<double>::max();
        for (int trial = 0; trial < options.trials; ++trial) {
          ping_pong(world, buffer, size, warmup_for(size));
          const auto start = std::chrono::steady_clock::now();
          ping_pong(world, buffer, size, rounds);
          const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
          best = std::min(best, elapsed.count() / rounds / 2);
        }
        if (world.rank() == 0) {
          std::printf("%12zu %14.3f %16.2f\n", size, best * 1e6,
                      static_cast<double>(size) / best / 1e6);
          std::fflush(stdout);
        }
      }
    }
    runtime.finalize();
    return 0;
  } catch (const halyard::Error& e) {
    std::fprintf(stderr, "halyard_bench_p2p: %s\n", e.what());
    return 1;
  }
}
