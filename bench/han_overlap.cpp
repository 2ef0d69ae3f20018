// halyard_bench_han_overlap: the overlap rate of HAN's inter-node bcast (ib) with its intra-node
// bcast (sb), dissertation eq. 5.3, for each intra-node submodule:
//
//   overlap = max(0, min(1, (t_inter + t_intra - t_total) / min(t_inter, t_intra)))
//
// measured on every node leader as in the dissertation's section 5.3.1: t_inter is ib(x) alone
// (ADAPT binomial bcast of one segment among the node leaders, HAN's default inter submodule),
// t_intra is sb(x) alone (the intra-node bcast from the leader, "sm" or "cma"), t_total is both
// issued at once and waited for together. Each is averaged over iterations separated by
// barriers. The segment x is `--size` (default 256 KiB, HAN's fs); ib(x) and sb(x) use different
// buffers, as ib(i+1) and sb(i) do in HAN's pipeline.
//
//   hlaunch -n 8 --vnodes 2 halyard_bench_han_overlap [--size 256K] [--iterations 40]
//
// Rank 0 prints one line per (submodule, leader): t_inter, t_intra, t_total (us) and the rate.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/adapt/adapt.hpp"
#include "collectives/intranode/intranode.hpp"
#include "halyard/halyard.hpp"

namespace {

using halyard::Communicator;
using halyard::Datatype;
using halyard::Request;
namespace intranode = halyard::intranode;
using Clock = std::chrono::steady_clock;

struct Options {
  std::size_t size = 256 * 1024;
  int iterations = 40;
  int warmup = 5;
};

std::size_t parse_size(const char* text) {
  char* end = nullptr;
  std::size_t n = std::strtoull(text, &end, 10);
  if (*end == 'K' || *end == 'k') n <<= 10;
  if (*end == 'M' || *end == 'm') n <<= 20;
  return n;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--size") {
      o.size = parse_size(argv[i + 1]);
    } else if (flag == "--iterations") {
      o.iterations = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  return o;
}

enum class Which { kInter, kIntra, kBoth };

struct Levels {
  Communicator world, node, leaders;
};

// One measurement: the average time (us) this rank spends from posting to completing `which`.
double measure(const Levels& l, const Options& o, Which which, intranode::Flavour flavour,
               std::vector<std::byte>& inter_buf, std::vector<std::byte>& intra_buf) {
  const bool leader = l.leaders.valid();
  double total_us = 0;
  for (int it = 0; it < o.warmup + o.iterations; ++it) {
    halyard::barrier(l.world);
    auto start = Clock::now();
    std::vector<Request> requests;
    if (which != Which::kIntra && leader && l.leaders.size() > 1) {
      halyard::adapt::Params params;
      params.tree = halyard::adapt::TreeShape::kBinomial;  // HAN's default inter submodule
      requests.push_back(
          halyard::adapt::ibcast(l.leaders, inter_buf.data(), o.size, Datatype::kUint8, 0, params));
    }
    if (which != Which::kInter && l.node.size() > 1) {
      requests.push_back(
          intranode::ibcast(l.node, intra_buf.data(), o.size, Datatype::kUint8, 0, flavour));
    }
    halyard::Status s = halyard::wait_all(requests);
    if (!s.ok()) {
      std::fprintf(stderr, "han_overlap: %s\n", s.message.c_str());
      std::exit(1);
    }
    double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (it >= o.warmup) total_us += us;
  }
  return total_us / o.iterations;
}

bool is_node_leader(const Communicator& comm, int rank) {
  for (int q = 0; q < rank; ++q) {
    if (comm.same_node(q, rank)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  halyard::Runtime runtime;
  Levels l{runtime.world(), runtime.world().node_comm(), runtime.world().leader_comm()};
  std::vector<std::byte> inter_buf(o.size, std::byte{1}), intra_buf(o.size, std::byte{2});
  if (runtime.rank() == 0) {
    std::printf(
        "# overlap of ib (adapt binomial among %d leaders) with sb, segment %zu B, %d "
        "iterations\n# submodule leader t_inter(us) t_intra(us) t_total(us) overlap\n",
        l.leaders.size(), o.size, o.iterations);
  }
  for (intranode::Flavour flavour : {intranode::Flavour::kSm, intranode::Flavour::kCma}) {
    double t[3] = {measure(l, o, Which::kInter, flavour, inter_buf, intra_buf),
                   measure(l, o, Which::kIntra, flavour, inter_buf, intra_buf),
                   measure(l, o, Which::kBoth, flavour, inter_buf, intra_buf)};
    // Rank 0 prints every leader's figures, gathered over the world communicator.
    std::vector<double> all(3 * static_cast<std::size_t>(runtime.world().size()));
    halyard::allgather(runtime.world(), t, all.data(), 3, Datatype::kFloat64);
    if (runtime.rank() != 0) continue;
    for (int r = 0; r < runtime.world().size(); ++r) {
      if (!is_node_leader(runtime.world(), r)) continue;
      const double* m = &all[3 * static_cast<std::size_t>(r)];
      double shorter = m[0] < m[1] ? m[0] : m[1];
      double rate = shorter > 0 ? (m[0] + m[1] - m[2]) / shorter : 0;
      rate = rate < 0 ? 0 : rate > 1 ? 1 : rate;
      std::printf("%s %d %.1f %.1f %.1f %.3f\n",
                  std::string(intranode::flavour_name(flavour)).c_str(), r, m[0], m[1], m[2], rate);
    }
  }
  runtime.finalize();
  return 0;
}
