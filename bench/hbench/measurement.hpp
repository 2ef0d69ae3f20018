// The timed loop of one size: warm-up calls, then timed calls, each (for collectives) starting
// from a barrier so that one call's skew does not hide inside the next. A rank's time for an
// iteration runs from the end of the barrier to the end of its own part, so a rank that noise
// delays shows it, and so do the ranks that wait for it.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/hbench/noise.hpp"
#include "bench/hbench/options.hpp"
#include "bench/hbench/runner.hpp"
#include "bench/hbench/size_schedule.hpp"

namespace hbench {

struct NoiseSetup {
  const FixedDelay* delay = nullptr;  // applied when it lists this rank
  const UniformNoiseSchedule* uniform = nullptr;
};

struct Samples {
  std::vector<double> times_us;  // one per timed iteration (empty on ranks that take no part)
  double injected_ms = 0;        // uniform noise this rank absorbed during the loop
  std::uint64_t noise_events = 0;
};

Samples measure(Runner& runner, const halyard::Communicator& world, const SizeStep& step,
                const NoiseSetup& noise);

}  // namespace hbench
