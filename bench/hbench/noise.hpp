// Noise injection, as in the ADAPT dissertation section 3.4 (after Beckman et al.): the noise
// is busy CPU time, as a preempting daemon would take it (a sleep would let the core's work go
// on and hide the delay).
//
// - A fixed delay on chosen ranks once per iteration (Figure 3.5: 1 ms on rank 6).
// - Uniform noise on every rank: a SIGALRM every 1/F s busy-waits a uniform 0..X ms, whatever
//   the process is doing (Figures 3.6/3.7: 0-10 ms and 0-20 ms at 10 Hz, 5% and 10% noise).
//   The k-th delay of a rank is a pure function of (seed, rank, k), so a seed reproduces the
//   same delays; where they land in the run depends on the wall clock, as real noise does.
#pragma once

#include <cstdint>

namespace hbench {

// Spins until `ms` milliseconds have passed (async-signal-safe: clock_gettime only).
void busy_wait_ms(double ms);

class UniformNoiseSchedule {
 public:
  UniformNoiseSchedule(std::uint64_t seed, int rank, double max_ms, double hz);

  // The k-th delay, uniform in [0, max_ms).
  double delay_ms(std::uint64_t k) const;
  // When the first delay comes after start: uniform in (0, period], so ranks are out of phase.
  double first_offset_ms() const;
  double period_ms() const { return period_ms_; }
  double max_ms() const { return max_ms_; }

 private:
  std::uint64_t stream_;  // the rank's own random stream, derived from seed and rank
  double max_ms_;
  double period_ms_;
};

// Runs a schedule from SIGALRM (ITIMER_REAL) between start() and stop(). One at a time per
// process. SIGALRM must be blocked on every thread but the one that drives the collectives
// (see block_noise_signal_in_new_threads), so the noise always lands on that thread.
class UniformNoiseInjector {
 public:
  explicit UniformNoiseInjector(const UniformNoiseSchedule& schedule);
  ~UniformNoiseInjector();
  UniformNoiseInjector(const UniformNoiseInjector&) = delete;
  UniformNoiseInjector& operator=(const UniformNoiseInjector&) = delete;

  void start();
  void stop();
  // Milliseconds of noise injected since start().
  double injected_ms() const;
  std::uint64_t events() const;

 private:
  UniformNoiseSchedule schedule_;
  bool running_ = false;
};

// Call around the construction of threads that must never take the noise (the runtime's helper
// threads inherit the calling thread's signal mask): block, create them, then unblock.
void block_noise_signal();
void unblock_noise_signal();

}  // namespace hbench
