// Pieces shared by the tests that run several transports of one job as objects inside one process
// (tests/ofi's OfiCluster, tests/shm's LocalNode): an environment override for the settings a
// transport reads when it opens, a completion recorder, and the bounded progress loop.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "runtime/transport.hpp"

namespace halyard::testing {

// Sets (or, with nullopt, unsets) an environment variable for the lifetime of the object,
// restoring the previous value afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (previous_) {
      ::setenv(name_, previous_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

// A completion that records its status, so a test can wait for it and inspect it.
struct CompletionRecord {
  bool done = false;
  Status status;
  Completion callback() {
    return [this](const Status& s) {
      EXPECT_FALSE(done) << "completion ran twice";
      done = true;
      status = s;
    };
  }
};

// Calls `progress_pass()` until `done()` holds; false if it still does not after `max_passes`.
// The bound only turns a hang into a test failure (a hang guard, not a timing assertion).
template <typename ProgressPass, typename Predicate>
bool progress_until(ProgressPass progress_pass, Predicate done, long max_passes) {
  for (long pass = 0; pass < max_passes; ++pass) {
    if (done()) return true;
    progress_pass();
  }
  return done();
}

}  // namespace halyard::testing
