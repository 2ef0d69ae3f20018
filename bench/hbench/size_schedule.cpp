#include "bench/hbench/size_schedule.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace hbench {

namespace {

struct Band {
  std::size_t up_to_bytes;
  int iterations;
  int warmup;
};

constexpr std::size_t kKiB = 1024;
constexpr std::array<Band, 5> kBands{{
    {8 * kKiB, 1000, 100},
    {128 * kKiB, 200, 20},
    {2048 * kKiB, 50, 5},
    {16384 * kKiB, 20, 2},
    {~std::size_t{0}, 10, 1},
}};

}  // namespace

std::vector<std::size_t> osu_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                   std::size_t element_bytes) {
  if (element_bytes == 0) return {0};
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = std::max<std::size_t>(min_bytes, 1); bytes <= max_bytes; bytes *= 2) {
    const std::size_t whole = bytes / element_bytes * element_bytes;
    if (whole > 0 && (sizes.empty() || sizes.back() != whole)) sizes.push_back(whole);
    if (bytes > max_bytes / 2) break;  // the next doubling would overflow or pass max
  }
  return sizes;
}

SizeStep scheduled_step(std::size_t bytes, const ScheduleOverrides& overrides) {
  const Band& band = *std::find_if(kBands.begin(), kBands.end(),
                                   [bytes](const Band& b) { return bytes <= b.up_to_bytes; });
  SizeStep step{bytes, band.iterations, band.warmup};
  step.iterations = std::max(1, static_cast<int>(std::lround(band.iterations * overrides.scale)));
  step.warmup = static_cast<int>(std::lround(band.warmup * overrides.scale));
  if (overrides.iterations) step.iterations = *overrides.iterations;
  if (overrides.warmup) step.warmup = *overrides.warmup;
  return step;
}

std::vector<SizeStep> size_schedule(std::size_t min_bytes, std::size_t max_bytes,
                                    std::size_t element_bytes, const ScheduleOverrides& overrides) {
  std::vector<SizeStep> steps;
  for (std::size_t bytes : osu_sizes(min_bytes, max_bytes, element_bytes)) {
    steps.push_back(scheduled_step(bytes, overrides));
  }
  return steps;
}

}  // namespace hbench
