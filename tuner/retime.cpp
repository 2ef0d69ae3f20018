#include "tuner/retime.hpp"

#include <algorithm>

#include "tuner/collective_bench.hpp"
#include "tuner/median.hpp"

namespace halyard::tuner {

namespace {

// The configurations to re-time at size `index`: the exhaustive best, then each model's choice,
// each label once.
std::vector<const ScoredConfig*> contenders(const std::vector<SearchOutcome>& outcomes,
                                            const SearchOutcome& exhaustive, std::size_t index) {
  std::vector<const ScoredConfig*> configs{&exhaustive.sizes[index].best()};
  for (const SearchOutcome& model : outcomes) {
    if (model.mode == Mode::kExhaustive || model.collective != exhaustive.collective) continue;
    const ScoredConfig& chosen = model.sizes.at(index).best();
    const bool seen = std::any_of(configs.begin(), configs.end(),
                                  [&](const ScoredConfig* c) { return c->label == chosen.label; });
    if (!seen) configs.push_back(&chosen);
  }
  return configs;
}

}  // namespace

std::vector<Retimed> retime_choices(const Communicator& comm,
                                    const std::vector<SearchOutcome>& outcomes,
                                    const BenchSettings& bench, int rounds) {
  std::vector<Retimed> result;
  for (const SearchOutcome& exhaustive : outcomes) {
    if (exhaustive.mode != Mode::kExhaustive) continue;
    Retimed retimed{exhaustive.collective, {}};
    for (std::size_t i = 0; i < exhaustive.sizes.size(); ++i) {
      const std::size_t bytes = exhaustive.sizes[i].bytes;
      const std::vector<const ScoredConfig*> configs = contenders(outcomes, exhaustive, i);
      std::vector<std::vector<double>> samples(configs.size());
      // Rotating the order each round spreads a slow phase of the machine over all of them.
      for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < configs.size(); ++k) {
          const std::size_t c = (k + static_cast<std::size_t>(round)) % configs.size();
          samples[c].push_back(
              time_collective(comm, exhaustive.collective, configs[c]->tuning, bytes, bench));
        }
      }
      RetimedSize size{bytes, {}};
      for (std::size_t c = 0; c < configs.size(); ++c) {
        size.us[configs[c]->label] = median(samples[c]);
      }
      retimed.sizes.push_back(std::move(size));
    }
    result.push_back(std::move(retimed));
  }
  return result;
}

}  // namespace halyard::tuner
