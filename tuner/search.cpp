#include "tuner/search.hpp"

#include <chrono>
#include <set>

#include "collectives/han/hierarchy.hpp"
#include "tuner/collective_bench.hpp"
#include "tuner/cost_model.hpp"

namespace halyard::tuner {

namespace {

struct Evaluation {
  Candidate candidate;
  std::size_t fs = 0;  // 0: whole message
  std::size_t segment_bytes = 0;
  std::size_t segments = 1;
};

// The distinct configurations (after normalisation) of one size, in a fixed order.
std::vector<Evaluation> evaluations(const SearchRequest& request, std::size_t bytes, Mode mode,
                                    int leaders) {
  std::vector<Evaluation> all, kept;
  std::set<std::string> seen;
  for (std::size_t fs : segment_choices(request.space, bytes)) {
    const std::size_t segment = fs == 0 ? bytes : fs;
    const std::size_t segments = segment_count(bytes, segment);
    for (const Candidate& raw : all_candidates(request.space)) {
      Candidate c = normalized(raw, segment);
      if (!seen.insert(label(request.collective, c, fs)).second) continue;
      Evaluation e{c, fs, segment, segments};
      all.push_back(e);
      if (heuristic_keeps(request.collective, c, segment, segments, leaders)) kept.push_back(e);
    }
  }
  // Should the heuristics leave nothing (a space without their favourites), search it all.
  return mode == Mode::kTaskHeuristic && !kept.empty() ? kept : all;
}

}  // namespace

std::string_view mode_name(Mode mode) {
  switch (mode) {
    case Mode::kExhaustive:
      return "exhaustive";
    case Mode::kTaskModel:
      return "task";
    case Mode::kTaskHeuristic:
      return "task-heuristic";
  }
  return "invalid";
}

std::optional<Mode> parse_mode(std::string_view name) {
  for (Mode m : {Mode::kExhaustive, Mode::kTaskModel, Mode::kTaskHeuristic}) {
    if (name == mode_name(m)) return m;
  }
  return std::nullopt;
}

const ScoredConfig& SizeOutcome::best() const {
  const ScoredConfig* best = &scored.front();
  for (const ScoredConfig& s : scored) {
    if (s.us < best->us) best = &s;
  }
  return *best;
}

std::vector<std::size_t> segment_choices(const SearchSpace& space, std::size_t message_bytes) {
  std::vector<std::size_t> choices{0};
  for (std::size_t fs : space.segments) {
    if (fs > 0 && fs < message_bytes) choices.push_back(fs);
  }
  return choices;
}

SearchOutcome run_search(const Communicator& comm, Mode mode, const SearchRequest& request,
                         TaskBench& tasks, const ProgressReport& progress) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  SearchOutcome outcome;
  outcome.collective = request.collective;
  outcome.mode = mode;
  const int leaders = tasks.leaders();
  for (std::size_t i = 0; i < request.sizes.size(); ++i) {
    const std::size_t bytes = request.sizes[i];
    SizeOutcome size{bytes, {}};
    for (const Evaluation& e : evaluations(request, bytes, mode, leaders)) {
      ScoredConfig scored;
      scored.label = label(request.collective, e.candidate, e.fs);
      scored.tuning = to_tuning(request.collective, e.candidate, e.fs);
      if (mode == Mode::kExhaustive) {
        scored.us = time_collective(comm, request.collective, scored.tuning, bytes, request.bench);
      } else {
        scored.us = predict_us(
            tasks.costs(request.collective, e.candidate, e.segment_bytes, e.segments), e.segments);
      }
      size.scored.push_back(std::move(scored));
    }
    outcome.sizes.push_back(std::move(size));
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (progress && comm.rank() == 0) progress(outcome, i);
  }
  return outcome;
}

}  // namespace halyard::tuner
