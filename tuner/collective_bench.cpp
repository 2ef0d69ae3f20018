#include "tuner/collective_bench.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "collectives/collectives.hpp"
#include "collectives/han/han.hpp"
#include "runtime/support/error.hpp"
#include "tuner/median.hpp"

namespace halyard::tuner {

double time_collective(const Communicator& comm, select::Collective collective,
                       const han::Tuning& tuning, std::size_t bytes,
                       const BenchSettings& settings) {
  using Clock = std::chrono::steady_clock;
  const std::size_t count = std::max<std::size_t>(1, bytes / sizeof(float));
  std::vector<float> send(count, 1.0f), recv(count, 0.0f);
  std::vector<double> samples;
  for (int it = 0; it < settings.warmup + settings.iterations; ++it) {
    align_ranks(comm);
    auto start = Clock::now();
    Request request = collective == select::Collective::kBcast
                          ? han::ibcast(comm, recv.data(), count, Datatype::kFloat32, 0, tuning)
                          : han::iallreduce(comm, send.data(), recv.data(), count,
                                            Datatype::kFloat32, Op::kSum, tuning);
    Status status = request.wait();
    if (!status.ok()) throw Error(status.code, "htune: " + status.message);
    if (it >= settings.warmup) {
      samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
  }
  double mine = median(samples);
  double slowest = 0;
  allreduce(comm, &mine, &slowest, 1, Datatype::kFloat64, Op::kMax);
  return slowest;
}

}  // namespace halyard::tuner
