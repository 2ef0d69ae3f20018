#include "bench/hbench/noise.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace hbench {

namespace {

double now_ms() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}

// SplitMix64: a stateless mix, so delay k needs no state from delays 0..k-1.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double unit_interval(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;  // [0, 1)
}

// The handler's state: a copy of the running schedule and plain counters (a signal handler may
// only touch lock-free atomics and async-signal-safe calls).
const UniformNoiseSchedule* g_schedule = nullptr;
std::atomic<std::uint64_t> g_events{0};
std::atomic<double> g_injected_ms{0};

void on_alarm(int) {
  if (g_schedule == nullptr) return;
  const std::uint64_t k = g_events.load(std::memory_order_relaxed);
  const double ms = g_schedule->delay_ms(k);
  busy_wait_ms(ms);
  g_events.store(k + 1, std::memory_order_relaxed);
  g_injected_ms.store(g_injected_ms.load(std::memory_order_relaxed) + ms,
                      std::memory_order_relaxed);
}

timeval to_timeval(double ms) {
  const auto us = static_cast<long>(std::max(1.0, std::round(ms * 1e3)));
  return timeval{us / 1000000, us % 1000000};
}

void set_noise_signal_mask(int how) {
  sigset_t alarm;
  sigemptyset(&alarm);
  sigaddset(&alarm, SIGALRM);
  pthread_sigmask(how, &alarm, nullptr);
}

}  // namespace

void busy_wait_ms(double ms) {
  const double end = now_ms() + ms;
  while (now_ms() < end) {
  }
}

UniformNoiseSchedule::UniformNoiseSchedule(std::uint64_t seed, int rank, double max_ms, double hz)
    : stream_(mix(seed ^ mix(static_cast<std::uint64_t>(rank) + 1))),
      max_ms_(max_ms),
      period_ms_(1e3 / hz) {}

double UniformNoiseSchedule::delay_ms(std::uint64_t k) const {
  return unit_interval(mix(stream_ + k)) * max_ms_;
}

double UniformNoiseSchedule::first_offset_ms() const {
  return (1.0 - unit_interval(mix(~stream_))) * period_ms_;
}

UniformNoiseInjector::UniformNoiseInjector(const UniformNoiseSchedule& schedule)
    : schedule_(schedule) {}

UniformNoiseInjector::~UniformNoiseInjector() {
  stop();
}

void UniformNoiseInjector::start() {
  g_schedule = &schedule_;
  g_events = 0;
  g_injected_ms = 0;
  struct sigaction action {};
  action.sa_handler = on_alarm;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  itimerval timer{};
  timer.it_interval = to_timeval(schedule_.period_ms());
  timer.it_value = to_timeval(schedule_.first_offset_ms());
  setitimer(ITIMER_REAL, &timer, nullptr);
  running_ = true;
}

void UniformNoiseInjector::stop() {
  if (!running_) return;
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
  g_schedule = nullptr;
  running_ = false;
}

double UniformNoiseInjector::injected_ms() const {
  return g_injected_ms.load();
}

std::uint64_t UniformNoiseInjector::events() const {
  return g_events.load();
}

void block_noise_signal() {
  set_noise_signal_mask(SIG_BLOCK);
}

void unblock_noise_signal() {
  set_noise_signal_mask(SIG_UNBLOCK);
}

}  // namespace hbench
