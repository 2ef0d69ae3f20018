// Which sizes hbench measures and how many times: OSU-style doubling sizes, and iteration
// counts that fall as sizes grow (small messages need many calls to rise above the clock's
// resolution; large ones take long enough that a few calls give a stable average).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace hbench {

struct SizeStep {
  std::size_t bytes = 0;
  int iterations = 0;
  int warmup = 0;
};

struct ScheduleOverrides {
  std::optional<int> iterations;  // replaces the scheduled count at every size
  std::optional<int> warmup;
  double scale = 1.0;  // multiplies scheduled counts (never below 1 iteration)
};

// min, 2 min, 4 min, ... <= max, each rounded down to whole elements of `element_bytes`, sizes
// below one element skipped. element_bytes 0 (barrier) gives the single size 0.
std::vector<std::size_t> osu_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                   std::size_t element_bytes);

// The documented schedule (hbench --help): <= 8K: 1000 (warm-up 100); <= 128K: 200 (20);
// <= 2M: 50 (5); <= 16M: 20 (2); larger: 10 (1).
SizeStep scheduled_step(std::size_t bytes, const ScheduleOverrides& overrides);

std::vector<SizeStep> size_schedule(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t element_bytes, const ScheduleOverrides& overrides);

}  // namespace hbench
