// halyard_bench_shm: the shared-memory path, measured.
//
//   hlaunch -n 2 build/bin/halyard_bench_shm p2p [--max-size BYTES] [--trials N] [--scale F]
//   hlaunch -n N build/bin/halyard_bench_shm primitives [--max-size BYTES] [--trials N] [--scale F]
//
// p2p: ping-pong between ranks 0 and 1 (on one node, so over shm), 1 B .. --max-size (default
// 64M) doubling; latency is half the mean round trip of the best of --trials trials, bandwidth
// size / latency (MB/s = 10^6 B/s). The table has the layout of bench/mpi_pingpong.c, which
// bench/compare_shm.sh runs beside it under Open MPI's vader BTL.
//
// primitives: the intra-node primitives (collectives/intranode) on the node communicator, per
// size 8 B .. --max-size (default 4M), "sm" next to "cma": mean time per call on rank 0 over
// the best trial (float64 sum for the reductions; gather/allgather sizes are per rank).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/intranode/intranode.hpp"
#include "halyard/halyard.hpp"

namespace {

using halyard::Communicator;
using halyard::intranode::Flavour;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string part = "p2p";
  std::size_t max_size = 0;  // 0: the part's default
  int trials = 3;
  double scale = 1.0;
};

Options parse(int argc, char** argv) {
  Options o;
  int i = 1;
  if (i < argc && argv[i][0] != '-') o.part = argv[i++];
  if (o.part != "p2p" && o.part != "primitives") {
    throw halyard::Error(halyard::ErrorCode::kInvalidArgument,
                         "part '" + o.part + "' is not p2p or primitives");
  }
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) {
      throw halyard::Error(halyard::ErrorCode::kInvalidArgument, arg + " needs a value");
    }
    std::string value = argv[++i];
    if (arg == "--max-size") {
      o.max_size = halyard::config::parse_bytes(value, "--max-size");
    } else if (arg == "--trials") {
      o.trials = std::max(1, std::atoi(value.c_str()));
    } else if (arg == "--scale") {
      o.scale = std::atof(value.c_str());
      if (!(o.scale > 0))
        throw halyard::Error(halyard::ErrorCode::kInvalidArgument, "--scale must be > 0");
    } else {
      throw halyard::Error(
          halyard::ErrorCode::kInvalidArgument,
          "unknown argument '" + arg + "' (expected --max-size, --trials, --scale)");
    }
  }
  return o;
}

// The schedule of bench/mpi_pingpong.c, so both sides do the same work.
int rounds_for(std::size_t size, double scale) {
  int base = size < (16u << 10) ? 1000 : size < (1u << 20) ? 200 : size < (16u << 20) ? 30 : 10;
  return std::max(1, static_cast<int>(base * scale));
}
int warmup_for(std::size_t size) {
  return size < (16u << 10) ? 100 : size < (1u << 20) ? 20 : 2;
}

void exchange(const Communicator& w, std::vector<std::byte>& buf, std::size_t size, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    if (w.rank() == 0) {
      w.send(1, 1, buf.data(), size);
      w.recv(1, 1, buf.data(), size);
    } else {
      w.recv(0, 1, buf.data(), size);
      w.send(0, 1, buf.data(), size);
    }
  }
}

int run_p2p(const Communicator& w, const Options& o) {
  if (w.size() != 2 || !w.same_node(0, 1)) {
    std::fprintf(stderr, "halyard_bench_shm p2p: needs 2 ranks on one node (hlaunch -n 2)\n");
    return 2;
  }
  std::size_t max_size = o.max_size ? o.max_size : std::size_t{64} << 20;
  std::vector<std::byte> buf(max_size);
  if (w.rank() == 0) {
    std::printf("# halyard shm p2p ping-pong, 2 ranks, best of %d trials\n", o.trials);
    std::printf("%12s %14s %16s\n", "# size(B)", "latency(us)", "bandwidth(MB/s)");
  }
  for (std::size_t size = 1; size <= max_size; size *= 2) {
    // One checked transfer per size: a benchmark of wrong data would be worthless.
    for (std::size_t i = 0; i < size; ++i) {
      buf[i] = w.rank() == 0 ? static_cast<std::byte>((i * 13 + size) & 0xff) : std::byte{0};
    }
    if (w.rank() == 0) {
      w.send(1, 2, buf.data(), size);
    } else {
      w.recv(0, 2, buf.data(), size);
      for (std::size_t i = 0; i < size; ++i) {
        if (buf[i] != static_cast<std::byte>((i * 13 + size) & 0xff)) {
          std::fprintf(stderr, "halyard_bench_shm: byte %zu of %zu is wrong\n", i, size);
          return 1;
        }
      }
    }
    int rounds = rounds_for(size, o.scale);
    double best = std::numeric_limits<double>::max();
    for (int t = 0; t < o.trials; ++t) {
      exchange(w, buf, size, warmup_for(size));
      auto start = Clock::now();
      exchange(w, buf, size, rounds);
      std::chrono::duration<double> took = Clock::now() - start;
      best = std::min(best, took.count() / rounds / 2);
    }
    if (w.rank() == 0) {
      std::printf("%12zu %14.3f %16.2f\n", size, best * 1e6,
                  static_cast<double>(size) / best / 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}

// Mean seconds per call of `call` (best trial), as rank 0 sees it.
double time_calls(const Communicator& node, std::size_t size, const Options& o,
                  const std::function<void()>& call) {
  int rounds = std::max(1, rounds_for(size, o.scale) / 5);
  double best = std::numeric_limits<double>::max();
  for (int t = 0; t < o.trials; ++t) {
    for (int i = 0; i < std::max(1, warmup_for(size) / 5); ++i) call();
    halyard::barrier(node);
    auto start = Clock::now();
    for (int i = 0; i < rounds; ++i) call();
    std::chrono::duration<double> took = Clock::now() - start;
    best = std::min(best, took.count() / rounds);
  }
  return best;
}

int run_primitives(const Communicator& world, const Options& o) {
  Communicator node = world.node_comm();
  if (!halyard::intranode::available(node)) {
    std::fprintf(stderr, "halyard_bench_shm primitives: no node memory (is HALYARD_SHM=0?)\n");
    return 2;
  }
  std::size_t max_size = o.max_size ? o.max_size : std::size_t{4} << 20;
  std::size_t n = static_cast<std::size_t>(node.size());
  std::vector<double> send(max_size / 8 + 1, 1.0), recv((max_size / 8 + 1) * n, 0.0);
  bool cma = halyard::intranode::effective_flavour(node, Flavour::kCma) == Flavour::kCma;
  if (world.rank() == 0) {
    std::printf(
        "# halyard intra-node primitives, node of %zu ranks, best of %d trials, us per call%s\n", n,
        o.trials, cma ? "" : " (CMA unusable: cma runs as sm)");
    std::printf("%12s %10s %12s %12s\n", "# size(B)", "primitive", "sm(us)", "cma(us)");
  }
  const auto f64 = halyard::Datatype::kFloat64;
  const auto sum = halyard::Op::kSum;
  for (std::size_t size = 8; size <= max_size; size *= 4) {
    std::size_t count = size / 8;
    using Call = std::function<void(Flavour)>;
    std::vector<std::pair<const char*, Call>> primitives{
        {"bcast",
         [&](Flavour f) {
           halyard::intranode::ibcast(node, send.data(), count, f64, 0, f).wait_ok();
         }},
        {"reduce",
         [&](Flavour f) {
           halyard::intranode::ireduce(node, send.data(), recv.data(), count, f64, sum, 0, f)
               .wait_ok();
         }},
        {"allreduce",
         [&](Flavour f) {
           halyard::intranode::iallreduce(node, send.data(), recv.data(), count, f64, sum, f)
               .wait_ok();
         }},
        {"gather",
         [&](Flavour f) {
           halyard::intranode::igather(node, send.data(), recv.data(), count, f64, 0, f).wait_ok();
         }},
        {"allgather",
         [&](Flavour f) {
           halyard::intranode::iallgather(node, send.data(), recv.data(), count, f64, f).wait_ok();
         }},
    };
    for (auto& [name, call] : primitives) {
      double sm = time_calls(node, size, o, [&] { call(Flavour::kSm); });
      double cm = time_calls(node, size, o, [&] { call(Flavour::kCma); });
      if (world.rank() == 0) {
        std::printf("%12zu %10s %12.2f %12.2f\n", size, name, sm * 1e6, cm * 1e6);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o = parse(argc, argv);
    halyard::Runtime runtime;
    int rc = o.part == "p2p" ? run_p2p(runtime.world(), o) : run_primitives(runtime.world(), o);
    runtime.finalize();
    return rc;
  } catch (const halyard::Error& e) {
    std::fprintf(stderr, "halyard_bench_shm: %s\n", e.what());
    return 1;
  }
}
