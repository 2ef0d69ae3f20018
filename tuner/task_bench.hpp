// The task benchmarks (dissertation Algorithms 9 and 10) and the task cache.
//
// Algorithm 9: barrier, then one stage of segment 0 alone, timed (ib(0), sb(0), sr(0), ...).
// Algorithm 10, for every step at once: barrier, then the pipeline of u segments run in lock step
// (each step's stages posted together and waited for), every step timed: ib(0), sbib(1) (after
// ib(0), as Algorithm 10 asks), sbib(2) (the pipeline full: the stabilised cost s), sb(2) for
// bcast; sr(0), irsr(1), ibirsr(2), sbibirsr(3), sbibirsr(4) (s), sbibir, sbib, sb for allreduce.
// Each figure is this rank's median over the iterations (median.hpp); costs are kept per rank and
// combined by the cost model (maximum over the processes).
//
// Every rank must request the same measurements in the same order (they are collective); the
// cache answers a repeated request without communicating, on every rank alike.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tuner/cost_model.hpp"
#include "tuner/pipeline_stages.hpp"
#include "tuner/search_space.hpp"

namespace halyard::tuner {

struct BenchSettings {
  int iterations = 10;
  int warmup = 2;
};

// Two barriers: the first gathers the ranks; the second, among ranks that are all awake, lets
// them leave nearly together. On an oversubscribed machine a rank sleeping in the first barrier
// wakes milliseconds after the others leave it, and that skew would count in the timed task.
void align_ranks(const Communicator& comm);

// Per-rank time (us) of each listed value, gathered from every rank of `comm`: result[k][rank].
std::vector<RankTimes> gather_ranks(const Communicator& comm, const std::vector<double>& mine);

class TaskBench {
 public:
  TaskBench(const Communicator& comm, const BenchSettings& settings);

  // The task costs `collective` with `candidate` needs at segments of `segment_bytes` to predict
  // a run of `segments` segments (measured now where the cache lacks them).
  PipelineCosts costs(select::Collective collective, const Candidate& candidate,
                      std::size_t segment_bytes, std::size_t segments);

  int measured() const { return measured_; }  // task benchmarks run
  int reused() const { return reused_; }      // answered from the cache
  int leaders() const;

 private:
  // One stage alone on a segment (Algorithm 9); shared by every collective and candidate whose
  // stage runs alike (ib with the same inter settings, sb and sr with the same smod).
  const RankTimes& alone(select::Collective collective, const Candidate& candidate, Stage stage,
                         std::size_t segment_bytes);
  // Every step of a lock-step run of `segments` segments (Algorithm 10).
  const std::vector<RankTimes>& lockstep(select::Collective collective, const Candidate& candidate,
                                         std::size_t segment_bytes, std::size_t segments);

  const Communicator& comm_;
  BenchSettings settings_;
  std::map<std::string, RankTimes> alone_cache_;
  std::map<std::string, std::vector<RankTimes>> lockstep_cache_;
  int measured_ = 0;
  int reused_ = 0;
};

}  // namespace halyard::tuner
