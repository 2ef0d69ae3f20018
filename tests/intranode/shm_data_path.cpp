// Point-to-point checks of the shm data path through the Communicator, run through hlaunch:
//   huge    (-n 2)           ping-pong 0 B .. 256 MiB, byte-exact (eager, CMA or staged
//                            rendezvous, as HALYARD_SHM_SINGLE_COPY says)
//   mixed   (--vnodes 2)     every rank exchanges with every other at once, eager and rendezvous
//                            sizes: same-node pairs over shm and cross-node pairs over ofi in one
//                            program
//   linger  [kill RANK]      prints the job id, moves some traffic; with `kill`, that rank then
//                            SIGKILLs itself (dev_shm_clean.sh checks what is left behind)
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"
#include "tests/helpers/scenario_checks.hpp"

namespace {

using halyard::Communicator;
using halyard::Request;
using halyard::Status;

using halyard::testing::expect_ok;
using halyard::testing::fail;

// This program's byte pattern for every payload it sends and checks.
constexpr halyard::testing::BytePattern kPattern{167, 11, 12};

void huge(const Communicator& w) {
  if (w.size() != 2) fail("huge needs exactly 2 ranks");
  if (!w.same_node(0, 1)) fail("huge needs both ranks on one node (shm)");
  int peer = 1 - w.rank();
  std::vector<std::size_t> sizes{0, 1, 7, 4095, 8192, 8193, 65537};
  for (std::size_t s = std::size_t{1} << 20; s <= (std::size_t{256} << 20); s *= 4)
    sizes.push_back(s);
  sizes.push_back((std::size_t{256} << 20) - 13);
  std::vector<std::byte> buf(sizes.back() + 16);
  for (std::size_t size : sizes) {
    auto seed = static_cast<std::uint32_t>(size * 3 + 1);
    std::string what = std::to_string(size) + " bytes";
    if (w.rank() == 0) {
      kPattern.fill(buf.data(), size, seed);
      expect_ok(w.isend(peer, 3, buf.data(), size), what + " (send)");
      std::memset(buf.data(), 0, size);
      Status st = expect_ok(w.irecv(peer, 4, buf.data(), size), what + " (echo)");
      if (st.bytes != size) fail(what + ": echo of " + std::to_string(st.bytes) + " bytes");
      kPattern.verify(buf.data(), size, seed + 1, what + " echo");
    } else {
      std::memset(buf.data(), 0, size);
      Status st = expect_ok(w.irecv(peer, 3, buf.data(), size), what + " (receive)");
      if (st.bytes != size) fail(what + ": received " + std::to_string(st.bytes) + " bytes");
      kPattern.verify(buf.data(), size, seed, what);
      kPattern.fill(buf.data(), size, seed + 1);
      expect_ok(w.isend(peer, 4, buf.data(), size), what + " (echo send)");
    }
  }
}

void mixed(const Communicator& w) {
  int n = w.size();
  int same = 0, cross = 0;
  for (int p = 0; p < n; ++p) {
    if (p == w.rank()) continue;
    (w.same_node(w.rank(), p) ? same : cross)++;
  }
  if (same == 0 || cross == 0) fail("mixed needs peers on this node and on another (--vnodes)");
  for (std::size_t size :
       {std::size_t{24}, std::size_t{6000}, std::size_t{300000}, std::size_t{5} << 20}) {
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(n)),
        in(static_cast<std::size_t>(n));
    std::vector<Request> requests;
    // Every pair in both directions at once, several messages per pair on distinct tags.
    for (int p = 0; p < n; ++p) {
      if (p == w.rank()) continue;
      auto& o = out[static_cast<std::size_t>(p)];
      auto& i = in[static_cast<std::size_t>(p)];
      o.resize(size * 3);
      i.assign(size * 3, std::byte{0});
      for (int m = 0; m < 3; ++m) {
        auto seed = static_cast<std::uint32_t>(w.rank() * 1000 + p * 10 + m);
        kPattern.fill(o.data() + static_cast<std::size_t>(m) * size, size, seed);
        requests.push_back(w.irecv(p, 20 + m, i.data() + static_cast<std::size_t>(m) * size, size));
        requests.push_back(w.isend(p, 20 + m, o.data() + static_cast<std::size_t>(m) * size, size));
      }
    }
    for (const Request& r : requests)
      expect_ok(r, "mixed traffic of " + std::to_string(size) + " bytes");
    for (int p = 0; p < n; ++p) {
      if (p == w.rank()) continue;
      for (int m = 0; m < 3; ++m) {
        auto seed = static_cast<std::uint32_t>(p * 1000 + w.rank() * 10 + m);
        kPattern.verify(
            in[static_cast<std::size_t>(p)].data() + static_cast<std::size_t>(m) * size, size, seed,
            std::to_string(size) + " bytes from rank " + std::to_string(p) +
                (w.same_node(w.rank(), p) ? " (shm)" : " (ofi)") + " message " + std::to_string(m));
      }
    }
  }
}

void linger(halyard::Runtime& rt, int victim) {
  const Communicator& w = rt.world();
  if (w.rank() == 0) {
    std::printf("job %s\n", rt.launch_info().job_id.c_str());
    std::fflush(stdout);
  }
  // Some traffic so that the segment and both paths are in use.
  std::vector<std::byte> buf(std::size_t{1} << 20);
  int peer = w.rank() ^ 1;
  if (peer < w.size()) {
    kPattern.fill(buf.data(), buf.size(), 5);
    Request r = w.irecv(peer, 9, buf.data(), buf.size());
    std::vector<std::byte> out(buf.size());
    kPattern.fill(out.data(), out.size(), 5);
    expect_ok(w.isend(peer, 9, out.data(), out.size()), "linger send");
    expect_ok(r, "linger receive");
    kPattern.verify(buf.data(), buf.size(), 5, "linger");
  }
  if (w.rank() == victim) ::raise(SIGKILL);
}

}  // namespace

int main(int argc, char** argv) {
  halyard::testing::ScenarioContext& run = halyard::testing::scenario_context();
  run.program = "shm_data_path";
  run.scenario = argc > 1 ? argv[1] : "";
  halyard::Runtime rt;
  run.rank = rt.rank();
  const Communicator& w = rt.world();
  if (run.scenario == "huge") {
    huge(w);
  } else if (run.scenario == "mixed") {
    mixed(w);
  } else if (run.scenario == "linger") {
    int victim = argc > 3 && std::string(argv[2]) == "kill" ? std::atoi(argv[3]) : -1;
    linger(rt, victim);
  } else {
    fail("unknown scenario (expected huge, mixed or linger)");
  }
  rt.finalize();
  return 0;
}
