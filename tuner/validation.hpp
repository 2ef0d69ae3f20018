// htune --validate: for every sampled size, the configuration each model mode chose, its
// predicted time, its measured time, and its rank among all configurations measured by the
// exhaustive search (1: the exhaustive best); and the tuning time of each mode. These are the
// data of the dissertation's Figures 6.1 (time of the searches) and 6.2 (chosen vs best). Where
// the choices were re-timed (retime.hpp), each row also compares them under the same conditions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tuner/retime.hpp"
#include "tuner/search.hpp"

namespace halyard::tuner {

struct ValidationRow {
  std::size_t bytes = 0;
  std::string chosen;
  double predicted_us = 0;
  double measured_us = 0;  // the chosen configuration's exhaustive figure
  std::string best;        // the exhaustive best
  double best_us = 0;
  double median_us = 0;  // of every configuration measured exhaustively (Figure 6.2's bars)
  double mean_us = 0;
  int rank = 0;  // 1-based among `configurations`
  int configurations = 0;
  double retimed_us = 0;       // the chosen configuration, re-timed; 0 when not re-timed
  double retimed_best_us = 0;  // the exhaustive best, re-timed in the same rounds
  bool within_10_percent() const { return measured_us <= 1.10 * best_us; }
  bool retimed_within_10_percent() const {
    return retimed_us > 0 && retimed_us <= 1.10 * retimed_best_us;
  }
};

// Rows of `model` (a task mode) against `exhaustive` (same collective and sizes); `retimed`, when
// given, is the re-timing of the same collective.
std::vector<ValidationRow> validate(const SearchOutcome& exhaustive, const SearchOutcome& model,
                                    const Retimed* retimed = nullptr);

// The report as text: one table per (collective, mode), then a summary of tuning times.
std::string format_validation(const std::vector<SearchOutcome>& outcomes,
                              const std::vector<Retimed>& retimed = {});

}  // namespace halyard::tuner
