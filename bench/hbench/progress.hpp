// Progress lines on stderr for long runs: at most one a second, and none at all for runs that
// finish within the first second (a short run's output stays clean).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace hbench {

class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}

  void report(const std::string& what) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    const std::chrono::duration<double> elapsed = now - start_;
    std::fprintf(stderr, "hbench: %s (%.1f s)\n", what.c_str(), elapsed.count());
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = Clock::now();
};

}  // namespace hbench
