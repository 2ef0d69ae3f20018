// halyard_bench_adapt_noise: ADAPT bcast/reduce under injected noise (dissertation section 3.4).
//
//   hlaunch -n 16 halyard_bench_adapt_noise --coll bcast --size 4M --tree binary
//           --variant event|waitall|blocking --delay-ms 1 --delay-ranks 6
//   hlaunch -n 16 halyard_bench_adapt_noise --noise-max-ms 10 --noise-hz 10
//
// Each iteration: a barrier, then the collective; a rank's time is from the end of the barrier
// to the completion of its own part, so a rank that noise delays indirectly shows it. Noise:
// - fixed: `--delay-ms D` on the ranks of `--delay-ranks`, once per iteration, either before the
//   rank posts the collective (`--delay-where before`) or as a busy-wait from the event loop
//   while it runs (`inside`, the default: a timer `--delay-at-us` after the post);
// - random: `--noise-max-ms X --noise-hz F` on every rank: a SIGALRM every 1/F s busy-waits a
//   uniform 0..X ms, whatever the process is doing (like OS noise).
// Rank 0 prints every rank's average, min and max time per iteration (ms).
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "collectives/adapt/adapt.hpp"
#include "halyard/halyard.hpp"
#include "runtime/reduction.hpp"

namespace {

using halyard::Communicator;
namespace adapt = halyard::adapt;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string coll = "bcast";
  std::size_t size = 4u << 20;
  adapt::Params params;
  int root = 0;
  int iterations = 50;
  int warmup = 5;
  bool barrier = true;
  double delay_ms = 0;
  std::set<int> delay_ranks;
  bool delay_inside = true;
  long delay_at_us = 0;
  double noise_max_ms = 0;
  double noise_hz = 10;
};

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "halyard_bench_adapt_noise: %s\n"
               "options: --coll bcast|reduce --size BYTES[K|M|G] --tree chain|binary|binomial|"
               "knomial|topo\n  --radix K --variant event|blocking|waitall --segment BYTES --n N "
               "--m M --root R\n  --iterations I --warmup W --no-barrier --delay-ms D "
               "--delay-ranks r1,r2 --delay-where before|inside\n  --delay-at-us T "
               "--noise-max-ms X --noise-hz F\n",
               problem.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--coll") {
      o.coll = value();
      if (o.coll != "bcast" && o.coll != "reduce") usage("--coll is bcast or reduce");
    } else if (arg == "--size") {
      o.size = halyard::config::parse_bytes(value(), "--size");
    } else if (arg == "--tree") {
      o.params.tree = adapt::parse_tree_shape(value());
    } else if (arg == "--radix") {
      o.params.knomial_radix = std::stoi(value());
    } else if (arg == "--variant") {
      const std::string v = value();
      if (v == "event") {
        o.params.variant = adapt::Variant::kEventDriven;
      } else if (v == "blocking") {
        o.params.variant = adapt::Variant::kBlocking;
      } else if (v == "waitall") {
        o.params.variant = adapt::Variant::kWaitall;
      } else {
        usage("--variant is event, blocking or waitall");
      }
    } else if (arg == "--segment") {
      o.params.segment_bytes = halyard::config::parse_bytes(value(), "--segment");
    } else if (arg == "--n") {
      o.params.sends_in_flight = std::stoi(value());
    } else if (arg == "--m") {
      o.params.recvs_in_flight = std::stoi(value());
    } else if (arg == "--root") {
      o.root = std::stoi(value());
    } else if (arg == "--iterations") {
      o.iterations = std::stoi(value());
    } else if (arg == "--warmup") {
      o.warmup = std::stoi(value());
    } else if (arg == "--no-barrier") {
      o.barrier = false;
    } else if (arg == "--delay-ms") {
      o.delay_ms = std::stod(value());
    } else if (arg == "--delay-ranks") {
      std::string list = value();
      for (std::size_t pos = 0; pos <= list.size();) {
        std::size_t comma = std::min(list.find(',', pos), list.size());
        o.delay_ranks.insert(std::stoi(list.substr(pos, comma - pos)));
        pos = comma + 1;
      }
    } else if (arg == "--delay-where") {
      const std::string w = value();
      if (w != "before" && w != "inside") usage("--delay-where is before or inside");
      o.delay_inside = w == "inside";
    } else if (arg == "--delay-at-us") {
      o.delay_at_us = std::stol(value());
    } else if (arg == "--noise-max-ms") {
      o.noise_max_ms = std::stod(value());
    } else if (arg == "--noise-hz") {
      o.noise_hz = std::stod(value());
    } else {
      usage("unknown option " + arg);
    }
  }
  if (o.iterations < 1) usage("--iterations must be >= 1");
  return o;
}

// Busy-waits: noise occupies the CPU, as a preempting daemon would (a sleep would let the
// process's progress run on another core and hide the delay).
void spin_for(double ms) {
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  const double end_ns =
      static_cast<double>(start.tv_sec) * 1e9 + static_cast<double>(start.tv_nsec) + ms * 1e6;
  timespec now{};
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec) < end_ns);
}

// Random noise from a signal handler: only async-signal-safe work (clock_gettime, arithmetic).
double g_noise_max_ms = 0;
std::uint64_t g_noise_state = 0;

void noise_handler(int) {
  g_noise_state ^= g_noise_state << 13;
  g_noise_state ^= g_noise_state >> 7;
  g_noise_state ^= g_noise_state << 17;
  const double fraction = static_cast<double>(g_noise_state >> 11) / 9007199254740992.0;
  spin_for(fraction * g_noise_max_ms);
}

void start_random_noise(const Options& o, int rank) {
  g_noise_max_ms = o.noise_max_ms;
  g_noise_state = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(rank + 1);
  struct sigaction action {};
  action.sa_handler = noise_handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  const long period_us = static_cast<long>(1e6 / o.noise_hz);
  itimerval timer{};
  timer.it_interval.tv_sec = period_us / 1000000;
  timer.it_interval.tv_usec = period_us % 1000000;
  // Ranks start out of phase, so the noise does not hit every rank at the same instant.
  const long first_us =
      1 + static_cast<long>(g_noise_state % static_cast<std::uint64_t>(period_us));
  timer.it_value.tv_sec = first_us / 1000000;
  timer.it_value.tv_usec = first_us % 1000000;
  setitimer(ITIMER_REAL, &timer, nullptr);
}

void stop_random_noise() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  // The runtime's helper threads (the bootstrap reader) inherit a mask with SIGALRM blocked,
  // so the random noise always lands on the main thread, the one that drives the collectives.
  sigset_t alarm_only;
  sigemptyset(&alarm_only);
  sigaddset(&alarm_only, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm_only, nullptr);
  halyard::Runtime runtime;
  pthread_sigmask(SIG_UNBLOCK, &alarm_only, nullptr);
  const Communicator& world = runtime.world();
  const int rank = world.rank();
  if (o.root < 0 || o.root >= world.size()) usage("--root is outside the job");

  const std::size_t count = o.size / 4;  // float32 elements
  std::vector<float> send(count, 1.0f), recv(count, 0.0f);
  const bool delayed = o.delay_ms > 0 && o.delay_ranks.count(rank) != 0;
  if (o.noise_max_ms > 0) start_random_noise(o, rank);

  std::vector<double> times;
  for (int it = 0; it < o.warmup + o.iterations; ++it) {
    if (o.barrier) halyard::barrier(world);
    const auto t0 = Clock::now();
    if (delayed && !o.delay_inside) spin_for(o.delay_ms);
    if (delayed && o.delay_inside) {
      world.loop().add_timer(std::chrono::microseconds(o.delay_at_us),
                             [ms = o.delay_ms] { spin_for(ms); });
    }
    halyard::Request request =
        o.coll == "bcast"
            ? adapt::ibcast(world, send.data(), count, halyard::Datatype::kFloat32, o.root,
                            o.params)
            : adapt::ireduce(world, send.data(), recv.data(), count, halyard::Datatype::kFloat32,
                             halyard::Op::kSum, o.root, o.params);
    request.wait_ok();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (it >= o.warmup) times.push_back(ms);
  }
  if (o.noise_max_ms > 0) stop_random_noise();

  double sum = 0;
  for (double t : times) sum += t;
  const double mine[3] = {sum / static_cast<double>(times.size()),
                          *std::min_element(times.begin(), times.end()),
                          *std::max_element(times.begin(), times.end())};
  constexpr int kResultTag = 7;
  if (rank != 0) {
    world.send(0, kResultTag, mine, sizeof mine);
  } else {
    static const char* variants[] = {"event", "blocking", "waitall"};
    std::printf(
        "# adapt_noise coll=%s size=%zu tree=%s variant=%s segment=%zu N=%d M=%d root=%d "
        "iterations=%d ranks=%d\n",
        o.coll.c_str(), o.size, std::string(adapt::tree_shape_name(o.params.tree)).c_str(),
        variants[static_cast<int>(o.params.variant)], o.params.segment_bytes,
        o.params.sends_in_flight, o.params.recvs_in_flight, o.root, o.iterations, world.size());
    std::string delayed_list;
    for (int r : o.delay_ranks)
      delayed_list += (delayed_list.empty() ? "" : ",") + std::to_string(r);
    std::printf("# noise: fixed %.3f ms on ranks [%s] (%s); random 0..%.3f ms at %.1f Hz\n",
                o.delay_ms, delayed_list.c_str(), o.delay_inside ? "inside" : "before",
                o.noise_max_ms, o.noise_hz);
    std::printf("%-6s %10s %10s %10s\n", "rank", "avg_ms", "min_ms", "max_ms");
    for (int r = 0; r < world.size(); ++r) {
      double theirs[3];
      if (r == 0) {
        std::memcpy(theirs, mine, sizeof theirs);
      } else {
        world.recv(r, kResultTag, theirs, sizeof theirs);
      }
      std::printf("%-6d %10.3f %10.3f %10.3f\n", r, theirs[0], theirs[1], theirs[2]);
    }
  }
  runtime.finalize();
  return 0;
}
