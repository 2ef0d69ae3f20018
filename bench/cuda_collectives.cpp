// halyard_bench_cuda: the GPU-aware collectives on device buffers, for the figures of
// docs/transport-cuda-ipc.md. Run through hlaunch on a GPU machine (ranks share its GPUs):
//
//   hlaunch -n N halyard_bench_cuda bcast      device bcast (CUDA IPC) per size, against the
//                                              GPU's own device-to-device cudaMemcpy bandwidth
//                                              measured by rank 0 in the same run
//   hlaunch -n N halyard_bench_cuda allreduce  64 MiB float32 sum: the GPU path against the
//                                              same allreduce with reductions on the CPU
//                                              (device -> host, host allreduce, host -> device)
//
// Times are the slowest rank's, best of several repetitions after a warm-up.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "halyard/halyard.hpp"

namespace {

using namespace halyard;
using Clock = std::chrono::steady_clock;

void cuda_ok(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

// Seconds of one call of `body`, the slowest rank's, best of `repetitions` after one warm-up.
double time_collective(const Communicator& comm, int repetitions,
                       const std::function<void()>& body) {
  body();
  double best = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    barrier(comm);
    const auto start = Clock::now();
    body();
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    allreduce(comm, kInPlace, &seconds, 1, Datatype::kFloat64, Op::kMax);
    best = std::min(best, seconds);
  }
  return best;
}

// The GPU's own device-to-device copy bandwidth (bytes copied per second), one process.
double device_copy_bandwidth(std::size_t bytes) {
  void* a = nullptr;
  void* b = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cudaEvent_t start, stop;
  cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
  cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");
  float best_ms = 1e30f;
  for (int i = 0; i < 11; ++i) {
    cuda_ok(cudaEventRecord(start), "cudaEventRecord");
    cuda_ok(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    cuda_ok(cudaEventRecord(stop), "cudaEventRecord");
    cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (i > 0) best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  return static_cast<double>(bytes) / (static_cast<double>(best_ms) * 1e-3);
}

void bcast_figures(const Communicator& world) {
  const int rank = world.rank();
  const int n = world.size();
  double d2d = rank == 0 ? device_copy_bandwidth(std::size_t{64} << 20) : 0;
  bcast(world, &d2d, 1, Datatype::kFloat64, 0);
  if (rank == 0) {
    std::printf("# device bcast, %d ranks sharing the GPU(s); D2D cudaMemcpy %.1f GB/s\n", n,
                d2d / 1e9);
    std::printf("# %10s %10s %12s %14s %10s\n", "bytes", "time_us", "algbw_GB/s", "aggregate_GB/s",
                "agg/D2D");
  }
  for (std::size_t bytes = std::size_t{1} << 20; bytes <= (std::size_t{256} << 20); bytes *= 4) {
    void* buffer = nullptr;
    cuda_ok(cudaMalloc(&buffer, bytes), "cudaMalloc");
    cuda_ok(cudaMemset(buffer, rank, bytes), "cudaMemset");
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const double t =
        time_collective(world, 10, [&] { bcast(world, buffer, bytes, Datatype::kUint8, 0); });
    // Every non-root rank copies the whole buffer: (n-1) x bytes cross the GPU's memory.
    const double aggregate = static_cast<double>(bytes) * (n - 1) / t;
    if (rank == 0) {
      std::printf("%12zu %10.1f %12.1f %14.1f %9.0f%%\n", bytes, t * 1e6,
                  static_cast<double>(bytes) / t / 1e9, aggregate / 1e9, 100 * aggregate / d2d);
    }
    cudaFree(buffer);
  }
}

void allreduce_figures(const Communicator& world) {
  const std::size_t count = (std::size_t{64} << 20) / sizeof(float);
  const std::size_t bytes = count * sizeof(float);
  void* send = nullptr;
  void* recv = nullptr;
  cuda_ok(cudaMalloc(&send, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&recv, bytes), "cudaMalloc");
  std::vector<float> host_send(count, 1.0f), host_recv(count);
  cuda_ok(cudaMemcpy(send, host_send.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  const double gpu = time_collective(
      world, 5, [&] { allreduce(world, send, recv, count, Datatype::kFloat32, Op::kSum); });
  const double cpu = time_collective(world, 3, [&] {
    cuda_ok(cudaMemcpy(host_send.data(), send, bytes, cudaMemcpyDeviceToHost), "D2H");
    allreduce(world, host_send.data(), host_recv.data(), count, Datatype::kFloat32, Op::kSum);
    cuda_ok(cudaMemcpy(recv, host_recv.data(), bytes, cudaMemcpyHostToDevice), "H2D");
  });
  cuda_ok(cudaMemcpy(host_recv.data(), recv, bytes, cudaMemcpyDeviceToHost), "check");
  const bool correct = std::all_of(host_recv.begin(), host_recv.end(),
                                   [&](float v) { return v == static_cast<float>(world.size()); });
  if (world.rank() == 0) {
    std::printf("# allreduce 64 MiB float32 sum, %d ranks\n", world.size());
    std::printf("gpu_path_ms %.3f\ncpu_reduction_ms %.3f\nspeedup %.1fx\nresult %s\n", gpu * 1e3,
                cpu * 1e3, cpu / gpu, correct ? "correct" : "WRONG");
  }
  cudaFree(send);
  cudaFree(recv);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "bcast";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("halyard_bench_cuda: skipped: no CUDA device\n");
    return 77;
  }
  const char* local = std::getenv("HALYARD_LOCAL_RANK");
  cuda_ok(cudaSetDevice((local != nullptr ? std::atoi(local) : 0) % devices), "cudaSetDevice");
  Runtime runtime;
  if (what == "bcast") {
    bcast_figures(runtime.world());
  } else if (what == "allreduce") {
    allreduce_figures(runtime.world());
  } else {
    std::fprintf(stderr, "usage: halyard_bench_cuda bcast|allreduce\n");
    return 2;
  }
  runtime.finalize();
  return 0;
}
