#include "tuner/validation.hpp"

#include <fmt/format.h>

#include <map>
#include <numeric>

#include "runtime/support/config.hpp"
#include "runtime/support/error.hpp"
#include "tuner/median.hpp"

namespace halyard::tuner {

namespace {

double retimed_figure(const Retimed* retimed, std::size_t index, const std::string& label) {
  if (retimed == nullptr) return 0;
  const std::map<std::string, double>& us = retimed->sizes.at(index).us;
  const auto found = us.find(label);
  if (found == us.end()) {
    throw Error(ErrorCode::kInternal, "htune --validate: '" + label + "' was not re-timed");
  }
  return found->second;
}

const Retimed* retimed_of(const std::vector<Retimed>& retimed, select::Collective collective) {
  for (const Retimed& r : retimed) {
    if (r.collective == collective) return &r;
  }
  return nullptr;
}

}  // namespace

std::vector<ValidationRow> validate(const SearchOutcome& exhaustive, const SearchOutcome& model,
                                    const Retimed* retimed) {
  if (exhaustive.sizes.size() != model.sizes.size()) {
    throw Error(ErrorCode::kInternal, "htune --validate: searches over different sizes");
  }
  std::vector<ValidationRow> rows;
  for (std::size_t i = 0; i < model.sizes.size(); ++i) {
    const SizeOutcome& measured = exhaustive.sizes[i];
    const ScoredConfig& chosen = model.sizes[i].best();
    ValidationRow row;
    row.bytes = measured.bytes;
    row.chosen = chosen.label;
    row.predicted_us = chosen.us;
    row.best = measured.best().label;
    row.best_us = measured.best().us;
    row.configurations = static_cast<int>(measured.scored.size());
    std::vector<double> all;
    for (const ScoredConfig& s : measured.scored) all.push_back(s.us);
    row.median_us = median(all);
    row.mean_us = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    bool found = false;
    for (const ScoredConfig& s : measured.scored) {
      if (s.label == chosen.label) {
        row.measured_us = s.us;
        found = true;
      }
    }
    if (!found) {
      throw Error(ErrorCode::kInternal, "htune --validate: '" + chosen.label +
                                            "' was not measured by the exhaustive search");
    }
    row.rank = 1;
    for (const ScoredConfig& s : measured.scored) {
      if (s.us < row.measured_us) ++row.rank;
    }
    row.retimed_us = retimed_figure(retimed, i, row.chosen);
    row.retimed_best_us = retimed_figure(retimed, i, row.best);
    rows.push_back(row);
  }
  return rows;
}

std::string format_validation(const std::vector<SearchOutcome>& outcomes,
                              const std::vector<Retimed>& retimed) {
  std::string text;
  std::map<std::string, double> seconds;  // per mode, over collectives
  for (const SearchOutcome& o : outcomes) seconds[std::string(mode_name(o.mode))] += o.seconds;
  for (const SearchOutcome& exhaustive : outcomes) {
    if (exhaustive.mode != Mode::kExhaustive) continue;
    for (const SearchOutcome& model : outcomes) {
      if (model.mode == Mode::kExhaustive || model.collective != exhaustive.collective) continue;
      const std::vector<ValidationRow> rows =
          validate(exhaustive, model, retimed_of(retimed, model.collective));
      int within = 0, retimed_within = 0;
      text += fmt::format("\n# {}, {} mode vs exhaustive\n",
                          select::collective_name(model.collective), mode_name(model.mode));
      text += fmt::format(
          "{:<6} {:>12} {:>12} {:>12} {:>12} {:>12} {:>7} {:>7} {:>12} {:>12} {:>7}  {} | {}\n",
          "size", "predicted_us", "measured_us", "best_us", "median_us", "mean_us", "rank", "ratio",
          "retimed_us", "r_best_us", "r_ratio", "chosen", "exhaustive best");
      for (const ValidationRow& r : rows) {
        within += r.within_10_percent() ? 1 : 0;
        retimed_within += r.retimed_within_10_percent() ? 1 : 0;
        text += fmt::format(
            "{:<6} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f} {:>3}/{:<3} {:>7.2f} "
            "{:>12.1f} "
            "{:>12.1f} {:>7.2f}  {} | {}\n",
            config::format_bytes(r.bytes), r.predicted_us, r.measured_us, r.best_us, r.median_us,
            r.mean_us, r.rank, r.configurations, r.best_us > 0 ? r.measured_us / r.best_us : 0.0,
            r.retimed_us, r.retimed_best_us,
            r.retimed_best_us > 0 ? r.retimed_us / r.retimed_best_us : 0.0, r.chosen, r.best);
      }
      text +=
          fmt::format("# within 10% of the exhaustive best at {} of {} sizes", within, rows.size());
      text += retimed.empty()
                  ? std::string("\n")
                  : fmt::format("; re-timed side by side: {} of {}\n", retimed_within, rows.size());
    }
  }
  text += "\n# tuning time (s), all collectives\n";
  const double reference = seconds.count("exhaustive") ? seconds["exhaustive"] : 0.0;
  for (const auto& [mode, s] : seconds) {
    text += fmt::format("{:<15} {:>9.2f}  {:>6.1f}% of exhaustive\n", mode, s,
                        reference > 0 ? 100.0 * s / reference : 0.0);
  }
  return text;
}

}  // namespace halyard::tuner
