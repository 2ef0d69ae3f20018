// The median of a measurement's repetitions. htune summarises repetitions by their median rather
// than their mean: on a machine shared by more ranks than cores, a repetition that lost its core
// to another process is an outlier of several times the others, and one such outlier moves a
// mean of 10 enough to reorder configurations.
#pragma once

#include <algorithm>
#include <vector>

namespace halyard::tuner {

inline double median(std::vector<double> samples) {
  if (samples.empty()) return 0.0;
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid),
                   samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

}  // namespace halyard::tuner
