#include "bench/hbench/measurement.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "collectives/collectives.hpp"
#include "runtime/event_loop.hpp"

namespace hbench {

namespace {

using Clock = std::chrono::steady_clock;

bool delays_me(const FixedDelay* delay, int rank) {
  return delay != nullptr && delay->active() &&
         std::find(delay->ranks.begin(), delay->ranks.end(), rank) != delay->ranks.end();
}

}  // namespace

Samples measure(Runner& runner, const halyard::Communicator& world, const SizeStep& step,
                const NoiseSetup& noise) {
  Samples samples;
  const bool delayed = delays_me(noise.delay, world.rank());
  std::optional<UniformNoiseInjector> injector;
  if (noise.uniform != nullptr) {
    injector.emplace(*noise.uniform);
    injector->start();
  }
  const double divisor = runner.time_divisor();
  for (int it = 0; it < step.warmup + step.iterations; ++it) {
    if (runner.barrier_between_iterations()) halyard::barrier(world);
    const auto start = Clock::now();
    std::optional<halyard::EventLoop::TimerId> timer;
    if (delayed && !noise.delay->inside) busy_wait_ms(noise.delay->ms);
    if (delayed && noise.delay->inside) {
      timer = world.loop().add_timer(std::chrono::microseconds(noise.delay->at_us),
                                     [ms = noise.delay->ms] { busy_wait_ms(ms); });
    }
    runner.run(step.bytes);
    const std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
    // A delay that did not come before this rank's part ended is dropped, not carried into
    // the next iteration's barrier.
    if (timer) world.loop().cancel_timer(*timer);
    if (it >= step.warmup && runner.takes_part())
      samples.times_us.push_back(elapsed.count() / divisor);
  }
  if (injector) {
    injector->stop();
    samples.injected_ms = injector->injected_ms();
    samples.noise_events = injector->events();
  }
  return samples;
}

}  // namespace hbench
