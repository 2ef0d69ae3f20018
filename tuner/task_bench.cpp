#include "tuner/task_bench.hpp"

#include <chrono>
#include <span>
#include <stdexcept>
#include <string>

#include "collectives/collectives.hpp"
#include "collectives/han/hierarchy.hpp"
#include "runtime/support/error.hpp"
#include "tuner/median.hpp"

namespace halyard::tuner {

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_us(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

void wait_ok(std::vector<Request>& requests) {
  Status status = wait_all(requests);
  if (!status.ok()) throw Error(status.code, "htune task benchmark: " + status.message);
  requests.clear();
}

// The stages HAN runs for `candidate` (collectives/han/stages.hpp).
std::span<const Stage> stages_for(select::Collective collective, const Candidate& candidate,
                                  std::size_t segment_bytes) {
  return han::stages_of(collective,
                        han::config_for(to_tuning(collective, candidate, segment_bytes)));
}

// The settings a stage depends on: sr and sb only on smod; ib, ir and ira only on the inter
// settings; so their costs are shared across candidates and collectives.
std::string stage_key(const Candidate& c, Stage stage, std::size_t segment_bytes) {
  std::string key = std::string(stage_name(stage)) + " " + std::to_string(segment_bytes) + " ";
  if (stage == Stage::kSr || stage == Stage::kSb) {
    return key + std::string(han::intra_module_name(c.intra));
  }
  Candidate inter = c;
  inter.intra = han::IntraModule::kBase;
  return key + label(select::Collective::kAllreduce, inter, 0);
}

}  // namespace

void align_ranks(const Communicator& comm) {
  barrier(comm);
  barrier(comm);
}

std::vector<RankTimes> gather_ranks(const Communicator& comm, const std::vector<double>& mine) {
  const auto ranks = static_cast<std::size_t>(comm.size());
  std::vector<double> all(mine.size() * ranks);
  allgather(comm, mine.data(), all.data(), mine.size(), Datatype::kFloat64);
  std::vector<RankTimes> result(mine.size(), RankTimes(ranks));
  for (std::size_t r = 0; r < ranks; ++r) {
    for (std::size_t k = 0; k < mine.size(); ++k) result[k][r] = all[r * mine.size() + k];
  }
  return result;
}

TaskBench::TaskBench(const Communicator& comm, const BenchSettings& settings)
    : comm_(comm), settings_(settings) {}

int TaskBench::leaders() const {
  const han::Hierarchy& h = han::hierarchy_of(comm_);
  int is_leader = h.is_leader() ? 1 : 0;
  int count = 0;
  allreduce(comm_, &is_leader, &count, 1, Datatype::kInt32, Op::kSum);
  return count;
}

const RankTimes& TaskBench::alone(select::Collective collective, const Candidate& candidate,
                                  Stage stage, std::size_t segment_bytes) {
  const std::string key = stage_key(candidate, stage, segment_bytes);
  if (auto it = alone_cache_.find(key); it != alone_cache_.end()) {
    ++reused_;
    return it->second;
  }
  StageRunner runner(comm_, to_tuning(collective, candidate, segment_bytes), segment_bytes, 1);
  std::vector<Request> requests;
  std::vector<double> samples;
  for (int it = 0; it < settings_.warmup + settings_.iterations; ++it) {
    align_ranks(comm_);
    auto start = Clock::now();
    runner.post(stage, 0, requests);
    wait_ok(requests);
    if (it >= settings_.warmup) samples.push_back(elapsed_us(start));
  }
  ++measured_;
  auto gathered = gather_ranks(comm_, {median(samples)});
  return alone_cache_.emplace(key, std::move(gathered.front())).first->second;
}

const std::vector<RankTimes>& TaskBench::lockstep(select::Collective collective,
                                                  const Candidate& candidate,
                                                  std::size_t segment_bytes, std::size_t segments) {
  const std::string key = label(collective, candidate, segment_bytes) +
                          " u=" + std::to_string(segments) + " " +
                          std::string(select::collective_name(collective));
  if (auto it = lockstep_cache_.find(key); it != lockstep_cache_.end()) {
    ++reused_;
    return it->second;
  }
  const auto stages = stages_for(collective, candidate, segment_bytes);
  const std::size_t depth = stages.size();
  const std::size_t steps = segments + depth - 1;
  StageRunner runner(comm_, to_tuning(collective, candidate, segment_bytes), segment_bytes,
                     segments);
  std::vector<std::vector<double>> samples(steps);
  std::vector<Request> requests;
  for (int it = 0; it < settings_.warmup + settings_.iterations; ++it) {
    align_ranks(comm_);
    for (std::size_t k = 0; k < steps; ++k) {
      auto start = Clock::now();
      // Step k holds stage j of segment k - j; stages are posted in stage order on every rank,
      // so sub-collectives of one sub-communicator start in the same order everywhere.
      for (std::size_t j = 0; j < depth; ++j) {
        if (k >= j && k - j < segments) runner.post(stages[j], k - j, requests);
      }
      wait_ok(requests);
      if (it >= settings_.warmup) samples[k].push_back(elapsed_us(start));
    }
  }
  std::vector<double> step_us;
  for (const auto& step : samples) step_us.push_back(median(step));
  ++measured_;
  return lockstep_cache_.emplace(key, gather_ranks(comm_, step_us)).first->second;
}

PipelineCosts TaskBench::costs(select::Collective collective, const Candidate& candidate,
                               std::size_t segment_bytes, std::size_t segments) {
  const auto stages = stages_for(collective, candidate, segment_bytes);
  const std::size_t depth = stages.size();
  PipelineCosts costs;
  costs.depth = static_cast<int>(depth);
  if (segments == 1) {
    for (Stage stage : stages)
      costs.alone.push_back(alone(collective, candidate, stage, segment_bytes));
    return costs;
  }
  if (segments < depth) {
    costs.partial.resize(segments - 1);
    costs.partial[segments - 2] = lockstep(collective, candidate, segment_bytes, segments);
    return costs;
  }
  // D + 1 segments: D - 1 filling steps, two full ones (the first, then the stabilised s), D - 1
  // draining steps; every longer pipeline is predicted from these.
  const std::vector<RankTimes>& steps = lockstep(collective, candidate, segment_bytes, depth + 1);
  costs.fill.assign(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(depth - 1));
  costs.first_full = steps[depth - 1];
  costs.stable_full = steps[depth];
  costs.drain.assign(steps.begin() + static_cast<std::ptrdiff_t>(depth + 1), steps.end());
  return costs;
}

}  // namespace halyard::tuner
