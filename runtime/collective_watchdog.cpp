#include "runtime/collective_watchdog.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/flight_recorder.hpp"
#include "runtime/point_to_point.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/config.hpp"
#include "runtime/tags.hpp"

namespace halyard {

namespace {

std::string seconds_text(std::chrono::nanoseconds d) {
  double s = std::chrono::duration<double>(d).count();
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
}

// "rank 2", "ranks 1, 3", "any rank".
std::string ranks_text(const std::vector<int>& sources) {
  std::set<int> unique(sources.begin(), sources.end());
  bool any = unique.erase(kAnySource) > 0;
  std::string out;
  for (int r : unique) {
    out += out.empty() ? (unique.size() == 1 ? "rank " : "ranks ") : ", ";
    out += std::to_string(r);
  }
  if (any) out += out.empty() ? "any rank" : " and any rank";
  return out;
}

}  // namespace

CollectiveWatchdog::CollectiveWatchdog(EventLoop& loop, PointToPoint& p2p,
                                       std::chrono::milliseconds timeout, FlightRecorder* recorder)
    : loop_(loop),
      p2p_(p2p),
      recorder_(recorder),
      timeout_(timeout),
      last_progress_(Clock::now()) {}

CollectiveWatchdog::~CollectiveWatchdog() {
  if (timer_) loop_.cancel_timer(*timer_);
}

std::optional<std::chrono::milliseconds> CollectiveWatchdog::timeout_from_environment() {
  // 0 turns the watchdog off; at most a year (config::kMaxEnvSeconds), so no deadline overflows.
  std::chrono::seconds seconds = config::env_seconds("HALYARD_COLL_TIMEOUT", 0, 0);
  if (seconds.count() == 0) return std::nullopt;
  return std::chrono::milliseconds(seconds);
}

void CollectiveWatchdog::watch(const Communicator& comm, std::string_view name,
                               const Request& request) {
  if (request.done()) return;
  Clock::time_point now = Clock::now();
  watched_.push_back({std::string(name), comm.size(), request, now});
  // A new call is progress: an idle spell before it must not count against it.
  last_progress_ = now;
  last_finished_ = loop_.finished_count();
  if (!timer_) arm();
}

void CollectiveWatchdog::arm() {
  // A few looks per timeout keep the overshoot small; no more than one a second, no fewer than
  // one per 10 ms.
  auto period = std::clamp<std::chrono::milliseconds>(timeout_ / 4, std::chrono::milliseconds(10),
                                                      std::chrono::milliseconds(1000));
  timer_ = loop_.add_timer(period, [this] {
    timer_.reset();
    tick();
  });
}

void CollectiveWatchdog::tick() {
  std::erase_if(watched_, [](const Watched& w) { return w.request.done(); });
  if (watched_.empty()) return;  // watch() arms again
  Clock::time_point now = Clock::now();
  std::uint64_t finished = loop_.finished_count();
  if (finished != last_finished_) {
    last_finished_ = finished;
    last_progress_ = now;
  } else if (now - last_progress_ >= timeout_) {
    if (recorder_) recorder_->waiting_for(p2p_.matching().posted_sources());
    p2p_.fail(Status::failure(ErrorCode::kTimeout, report(watched_.front(), now - last_progress_)));
    watched_.clear();
    return;
  }
  arm();
}

std::string CollectiveWatchdog::report(const Watched& stalled, Clock::duration idle) const {
  std::string out = "HALYARD_COLL_TIMEOUT: " + stalled.name + " on a communicator of " +
                    std::to_string(stalled.comm_size) + " ranks made no progress for " +
                    seconds_text(idle) + " (posted " + seconds_text(Clock::now() - stalled.posted) +
                    " ago); ";
  std::string waiting = ranks_text(p2p_.matching().posted_sources());
  out += waiting.empty() ? "no receive is pending"
                         : "this rank still waits for messages from " + waiting + " (world ranks)";
  if (p2p_.sends_in_flight() > 0) {
    out += "; " + std::to_string(p2p_.sends_in_flight()) + " send(s) not yet completed";
  }
  if (watched_.size() > 1) {
    out += "; " + std::to_string(watched_.size() - 1) + " later collective(s) also pending";
  }
  return out;
}

CollectiveWatchdog* collective_watchdog_of(const Communicator& comm) {
  return comm.services().watchdog.load(std::memory_order_acquire);
}

}  // namespace halyard
