// One benchmark's calls: what a size needs in memory, one checked call, and one timed call.
// The measurement loop (measurement.hpp) knows nothing of the collectives; the runners know
// nothing of timing or noise.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>

#include "bench/hbench/benchmark.hpp"
#include "runtime/communicator.hpp"

namespace hbench {

// A checked call returned wrong data: no figure is printed for it.
class WrongResult : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Runner {
 public:
  virtual ~Runner() = default;

  // Bytes of one element: sizes are whole elements (4 for float32 reductions, 1 otherwise,
  // 0 for barrier, which has no size).
  virtual std::size_t element_bytes() const = 0;
  // One untimed call at `bytes` whose result is checked element by element; throws
  // WrongResult naming the first wrong element.
  virtual void verify(std::size_t bytes) = 0;
  // One timed call at `bytes` (blocking: returns when this rank's part is done).
  virtual void run(std::size_t bytes) = 0;
  // Collectives start each iteration from a barrier; a ping-pong times back-to-back round trips.
  virtual bool barrier_between_iterations() const { return true; }
  // The reported time is the measured one divided by this (a ping-pong reports one way).
  virtual double time_divisor() const { return 1.0; }
  // Whether this rank's times count (ranks 2.. of a ping-pong only wait).
  virtual bool takes_part() const { return true; }
};

// Buffers for every size up to `max_bytes` are allocated once, here.
std::unique_ptr<Runner> make_runner(Benchmark benchmark, const halyard::Communicator& world,
                                    int root, std::size_t max_bytes);

// The ping-pong between ranks 0 and 1 (pingpong_runner.cpp).
std::unique_ptr<Runner> make_pingpong_runner(const halyard::Communicator& world,
                                             std::size_t max_bytes);

}  // namespace hbench
