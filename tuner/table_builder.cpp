#include "tuner/table_builder.hpp"

#include <unistd.h>

#include <ctime>
#include <thread>

#ifndef HALYARD_GIT_COMMIT
#define HALYARD_GIT_COMMIT "unknown"
#endif

namespace halyard::tuner {

Provenance current_provenance() {
  Provenance p;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  p.machine = std::string(host[0] ? host : "unknown-host") + ", " +
              std::to_string(std::thread::hardware_concurrency()) + " cores";
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  p.date = date;
  p.commit = HALYARD_GIT_COMMIT;
  return p;
}

select::TuningTable build_table(const std::vector<SearchOutcome>& outcomes, Mode mode,
                                const select::CommShape& shape, const Provenance& provenance) {
  select::TuningTable table;
  table.machine = provenance.machine;
  table.date = provenance.date;
  table.commit = provenance.commit;
  table.mode = std::string(mode_name(mode));
  for (const SearchOutcome& outcome : outcomes) {
    if (outcome.mode != mode) continue;
    std::vector<select::SampledChoice> samples;
    for (const SizeOutcome& size : outcome.sizes) {
      const ScoredConfig& best = size.best();
      select::SelectedAlgorithm choice{select::Algorithm::kHan};
      choice.han = best.tuning;
      samples.push_back({size.bytes, choice, best.us});
    }
    select::TableEntry entry;
    entry.collective = outcome.collective;
    entry.nodes = shape.nodes;
    entry.ranks_per_node = shape.max_ranks_per_node;
    entry.ranges = select::ranges_from_samples(samples);
    table.entries.push_back(std::move(entry));
  }
  select::validate(table);
  return table;
}

}  // namespace halyard::tuner
