// Failure reporting and byte-pattern checks shared by the multi-rank scenario programs that run
// through hlaunch (tests/p2p/p2p_scenarios, tests/intranode/shm_data_path): any failed check
// prints which program, scenario and rank saw what, and exits 1, so the job (and the ctest) fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include "halyard/halyard.hpp"

namespace halyard::testing {

// Who is running, for failure messages; main() fills it in.
struct ScenarioContext {
  const char* program = "";
  std::string scenario;
  int rank = -1;
};
inline ScenarioContext& scenario_context() {
  static ScenarioContext context;
  return context;
}

[[noreturn]] inline void fail(const std::string& what) {
  const ScenarioContext& c = scenario_context();
  std::fprintf(stderr, "%s %s: rank %d: FAILED: %s\n", c.program, c.scenario.c_str(), c.rank,
               what.c_str());
  std::fflush(stderr);
  std::exit(1);
}

// Waits for `r`; fails unless it completed ok.
inline Status expect_ok(const Request& r, const std::string& what) {
  Status s = r.wait();
  if (!s.ok()) fail(what + ": " + std::string(error_code_name(s.code)) + ": " + s.message);
  return s;
}

// Deterministic bytes that differ per message (seed) and per position:
// byte i is (i * index_step + seed * seed_step + (i >> index_shift)) mod 256.
struct BytePattern {
  unsigned index_step;
  unsigned seed_step;
  unsigned index_shift;

  std::byte at(std::size_t i, std::uint32_t seed) const {
    return static_cast<std::byte>((i * index_step + seed * seed_step + (i >> index_shift)) & 0xffu);
  }
  void fill(std::byte* buf, std::size_t n, std::uint32_t seed) const {
    for (std::size_t i = 0; i < n; ++i) buf[i] = at(i, seed);
  }
  // Fails at the first byte that differs from the pattern.
  void verify(const std::byte* buf, std::size_t n, std::uint32_t seed,
              const std::string& what) const {
    for (std::size_t i = 0; i < n; ++i) {
      if (buf[i] != at(i, seed)) {
        fail(what + ": byte " + std::to_string(i) + " of " + std::to_string(n) + " is " +
             std::to_string(static_cast<int>(buf[i])) + ", expected " +
             std::to_string(static_cast<int>(at(i, seed))));
      }
    }
  }
};

// The main() of a program of named scenarios: runs argv[1] on a Runtime of this job, finalizes,
// and prints "<program> <scenario>: passed" on rank 0; usage (exit 2) for an unknown name.
inline int run_scenario_program(const char* program, int argc, char** argv,
                                const std::map<std::string, std::function<void(Runtime&)>>& all) {
  ScenarioContext& run = scenario_context();
  run.program = program;
  if (argc != 2 || all.count(argv[1]) == 0) {
    std::string names;
    for (const auto& [name, body] : all) names += (names.empty() ? "" : "|") + name;
    std::fprintf(stderr, "usage: %s %s\n", program, names.c_str());
    return 2;
  }
  run.scenario = argv[1];
  try {
    Runtime rt;
    run.rank = rt.rank();
    all.at(run.scenario)(rt);
    rt.finalize();
  } catch (const std::exception& e) {
    fail(std::string("exception: ") + e.what());
  }
  if (run.rank == 0) std::printf("%s %s: passed\n", program, run.scenario.c_str());
  return 0;
}

}  // namespace halyard::testing
