// A rank dies in the middle of a 64 MiB allreduce; every other rank must see its pending
// allreduce fail with an error naming the dead rank, and a blocking collective raise it.
//   hlaunch -n N [--vnodes K] peer_failure_check sigkill|abort|exit VICTIM [small|gatherv]
// With `small` the allreduce is 64 bytes (on one node: the shm engine, whose ranks wait on each
// other's flags) and the victim dies instead of publishing its part. With `gatherv` the
// survivors first call a small gatherv to the dead victim: on the shm engine they leave it
// before the root's chunk count is up (Channel::settle_gatherv), and the allreduce after it
// must fail, not wait for that count for ever.
// Every rank prints "job <id>" (for the /dev/shm check). The victim prints
// "victim R dies at <ms>" (CLOCK_REALTIME, milliseconds) and dies the chosen way while its
// allreduce is in flight; each survivor prints
// "rank R failed at <ms>: <code>: <message>" then "rank R blocking call raised: <code>: <message>"
// and exits 3. kill_mid_collective.sh checks the lines, the delays and hlaunch's status.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] void die(const std::string& mode) {
  std::fflush(nullptr);
  if (mode == "sigkill") std::raise(SIGKILL);
  if (mode == "abort") std::abort();
  std::_Exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  const bool gatherv_first = argc == 4 && std::strcmp(argv[3], "gatherv") == 0;
  const bool small = gatherv_first || (argc == 4 && std::strcmp(argv[3], "small") == 0);
  if ((argc != 3 && !small) ||
      (std::strcmp(argv[1], "sigkill") != 0 && std::strcmp(argv[1], "abort") != 0 &&
       std::strcmp(argv[1], "exit") != 0)) {
    std::fprintf(stderr, "usage: peer_failure_check sigkill|abort|exit VICTIM [small|gatherv]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const int victim = std::atoi(argv[2]);
  Runtime rt;
  const Communicator& world = rt.world();
  std::printf("job %s\n", rt.launch_info().job_id.c_str());
  const std::size_t kCount = small ? 16 : (64u << 20) / sizeof(float);
  std::vector<float> send(kCount, 1.0f), recv(kCount, 0.0f);
  barrier(world);
  if (small) {
    // The victim dies only once every survivor has left the barrier (each tells it so): a
    // survivor still finishing its barrier would fail there instead of in the allreduce.
    constexpr int kLeftBarrier = 9;
    char token = 0;
    if (world.rank() != victim) {
      world.isend(victim, kLeftBarrier, &token, 1).wait_ok();
    } else {
      for (int r = 0; r + 1 < world.size(); ++r) {
        world.irecv(kAnySource, kLeftBarrier, &token, 1).wait_ok();
      }
      std::printf("victim %d dies at %lld by %s\n", victim, now_ms(), mode.c_str());
      die(mode);
    }
  }

  if (gatherv_first) {
    // Its outcome depends on whether the failure notice came first: only what follows counts.
    const std::vector<std::size_t> counts(static_cast<std::size_t>(world.size()), 1);
    std::vector<std::size_t> displacements;
    for (int r = 0; r < world.size(); ++r) displacements.push_back(static_cast<std::size_t>(r));
    std::vector<float> gathered(counts.size());
    igatherv(world, send.data(), 1, gathered.data(), counts.data(), displacements.data(),
             Datatype::kFloat32, victim)
        .wait();
  }
  Request allreduce =
      iallreduce(world, send.data(), recv.data(), kCount, Datatype::kFloat32, Op::kSum);
  if (world.rank() == victim) {
    // Take part for a few milliseconds, then die: the others are inside the allreduce and
    // cannot finish it without this rank's data (64 MiB take far longer than this).
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
    while (std::chrono::steady_clock::now() < until && !allreduce.test()) {
    }
    if (allreduce.done()) {
      std::printf("victim %d: the allreduce finished before it could die\n", victim);
      return 1;
    }
    std::printf("victim %d dies at %lld by %s\n", victim, now_ms(), mode.c_str());
    die(mode);
  }
  Status status = allreduce.wait();
  if (status.ok()) {
    std::printf("rank %d: the allreduce succeeded although rank %d died\n", world.rank(), victim);
    return 1;
  }
  std::printf("rank %d failed at %lld: %s: %s\n", world.rank(), now_ms(),
              std::string(error_code_name(status.code)).c_str(), status.message.c_str());
  try {
    float x = 1.0f, y = 0.0f;
    halyard::allreduce(world, &x, &y, 1, Datatype::kFloat32, Op::kSum);
    std::printf("rank %d: a blocking allreduce after the failure succeeded\n", world.rank());
    return 1;
  } catch (const Error& e) {
    std::printf("rank %d blocking call raised: %s: %s\n", world.rank(),
                std::string(error_code_name(e.code())).c_str(), e.what());
  }
  std::fflush(nullptr);
  return 3;  // the Runtime's destructor tears down without the closing barrier (a peer failed)
}
