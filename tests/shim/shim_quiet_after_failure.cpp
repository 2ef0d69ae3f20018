// The MPI side of "no byte after the error" (tests/reliability/quiet_buffers.hpp): a peer is
// SIGKILLed mid-transfer; with MPI_ERRORS_RETURN each survivor gets MPI_ERR_PROC_FAILED from
// its MPI_Test, refills its buffers and checks that no byte changes for 2 s (the jobs run a
// progress thread, HALYARD_PROGRESS_THREAD=1, which keeps the transports moving meanwhile).
//   hlaunch -n N [--vnodes K] shim_quiet_after_failure recv|bcast|allreduce VICTIM MIB
// Survivors print "rank R failed at <ms>: MPI error class <c>: <text>" and the watch's line,
// and exit 3 when nothing changed.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../reliability/quiet_buffers.hpp"

int main(int argc, char** argv) {
  const std::string op = argc == 4 ? argv[1] : "";
  if (op != "recv" && op != "bcast" && op != "allreduce") {
    std::fprintf(stderr, "usage: shim_quiet_after_failure recv|bcast|allreduce VICTIM MIB\n");
    return 2;
  }
  const int victim = std::atoi(argv[2]);
  const int count = static_cast<int>((std::size_t(std::atoi(argv[3])) << 20) / sizeof(float));
  MPI_Init(&argc, &argv);
  quiet::survive_sigterm();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);

  const int buffer_count = op == "recv" ? (me == 0 ? n - 1 : 1) : (op == "bcast" ? 1 : 2);
  const float value = op == "recv" && me == 0 ? 0.0f : float(me + 1);
  std::vector<std::vector<float>> buffers(static_cast<std::size_t>(buffer_count),
                                          std::vector<float>(std::size_t(count), value));
  std::vector<MPI_Request> requests;
  MPI_Barrier(MPI_COMM_WORLD);
  if (op == "recv") {
    if (me == 0) {
      for (int peer = 1; peer < n; ++peer) {
        MPI_Request& r = requests.emplace_back();
        MPI_Irecv(buffers[std::size_t(peer - 1)].data(), count, MPI_FLOAT, peer, 7, MPI_COMM_WORLD,
                  &r);
      }
    } else {
      MPI_Isend(buffers[0].data(), count, MPI_FLOAT, 0, 7, MPI_COMM_WORLD,
                &requests.emplace_back());
    }
  } else if (op == "bcast") {
    MPI_Ibcast(buffers[0].data(), count, MPI_FLOAT, 0, MPI_COMM_WORLD, &requests.emplace_back());
  } else {
    MPI_Iallreduce(buffers[0].data(), buffers[1].data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD,
                   &requests.emplace_back());
  }

  if (me == victim) {
    const auto until = std::chrono::steady_clock::now() + quiet::kVictimDelay;
    while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
    quiet::die_by_sigkill(me);
  }
  // Test each request until all are done, keeping the first error.
  int error = MPI_SUCCESS;
  for (MPI_Request& r : requests) {
    int done = 0;
    while (!done) {
      const int rc = MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) {
        if (error == MPI_SUCCESS) error = rc;
        break;
      }
      if (!done) std::this_thread::sleep_for(quiet::kPause);
    }
  }
  if (error == MPI_SUCCESS) {
    // Its part was done before the failure reached it: the next call must report it.
    std::printf("rank %d: the %s completed before the failure reached it\n", me, op.c_str());
    error = MPI_Barrier(MPI_COMM_WORLD);
    if (error == MPI_SUCCESS) {
      std::printf("rank %d: a barrier after rank %d died succeeded\n", me, victim);
      return 1;
    }
  }
  int error_class = 0, length = 0;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(error, &error_class);
  MPI_Error_string(error, text, &length);
  std::printf("rank %d failed at %lld: MPI error class %d: %s\n", me, quiet::now_ms(), error_class,
              text);
  std::fflush(nullptr);
  std::vector<quiet::Buffer> watched;
  for (auto& b : buffers) watched.push_back({b.data(), b.size() * sizeof(float)});
  const std::size_t changed = quiet::watch_after_refill(
      me, watched, [] { std::this_thread::sleep_for(std::chrono::microseconds(100)); });
  return changed == 0 ? 3 : 1;
}
