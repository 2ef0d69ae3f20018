// CollectiveWatchdog: HALYARD_COLL_TIMEOUT (seconds; unset or 0 turns it off, the default).
//
// A collective whose peer never comes (a rank that stalled, skipped the call or called another
// collective) would wait forever. The watchdog watches the collectives posted through the
// public API: when one is pending and no operation of this process has finished for the
// timeout, it fails the process with kTimeout and a report naming the collective, how long it
// has waited, and the ranks this process still waits for (the sources of its unmatched
// receives).
//
// It fails the whole process (every pending and later operation, as a peer failure does), not
// just the one request: the stalled collective's receives are still posted into the user's
// buffers, and the job cannot go on consistently. The application sees the error, exits
// non-zero, and hlaunch tells the other ranks (docs/reliability.md).
//
// Progress is counted process-wide (EventLoop::finished_count()), which costs nothing on the
// data path: a collective stalled while unrelated traffic keeps completing is caught only once
// that traffic stops too.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"

namespace halyard {

class Communicator;
class FlightRecorder;
class PointToPoint;

class CollectiveWatchdog {
 public:
  using Clock = std::chrono::steady_clock;

  // The Runtime makes it its communicators' watchdog (RuntimeServices::watchdog). When it gives
  // up it notes in `recorder` (if any) the ranks this process still waits for.
  CollectiveWatchdog(EventLoop& loop, PointToPoint& p2p, std::chrono::milliseconds timeout,
                     FlightRecorder* recorder = nullptr);
  ~CollectiveWatchdog();
  CollectiveWatchdog(const CollectiveWatchdog&) = delete;
  CollectiveWatchdog& operator=(const CollectiveWatchdog&) = delete;

  // Watches `request`, the collective `name` posted on `comm`, until it completes.
  void watch(const Communicator& comm, std::string_view name, const Request& request);

  std::chrono::milliseconds timeout() const noexcept { return timeout_; }

  // HALYARD_COLL_TIMEOUT in seconds; nullopt when unset or 0. Throws Error(kInvalidArgument)
  // for a negative, malformed or huge (over a year) value.
  static std::optional<std::chrono::milliseconds> timeout_from_environment();

 private:
  struct Watched {
    std::string name;
    int comm_size = 0;
    Request request;
    Clock::time_point posted;
  };

  void arm();
  void tick();
  std::string report(const Watched& stalled, Clock::duration idle) const;

  EventLoop& loop_;
  PointToPoint& p2p_;
  FlightRecorder* recorder_;
  std::chrono::milliseconds timeout_;
  std::deque<Watched> watched_;  // in post order
  std::optional<EventLoop::TimerId> timer_;
  std::uint64_t last_finished_ = 0;
  Clock::time_point last_progress_;
};

// The watchdog of the runtime `comm` belongs to; null when HALYARD_COLL_TIMEOUT is off.
CollectiveWatchdog* collective_watchdog_of(const Communicator& comm);

}  // namespace halyard
