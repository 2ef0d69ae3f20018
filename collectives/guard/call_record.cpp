#include "collectives/guard/call_record.hpp"

#include <array>

#include "collectives/core/vocabulary.hpp"
#include "runtime/support/fast_tls.hpp"

namespace halyard::guard {

std::string_view recorded_name(core::Collective collective) noexcept {
  // Looked up once: the recorder caches names by their address.
  static const auto kNames = [] {
    std::array<std::string_view, core::kCollectiveCount> names{};
    for (std::size_t c = 0; c < names.size(); ++c) {
      names[c] = core::collective_name(static_cast<core::Collective>(c));
    }
    return names;
  }();
  return kNames[static_cast<std::size_t>(collective)];
}

namespace {
// The blocking call this thread waits in (slot null: none): the wait, not a deferred callback,
// ends it, so a rank that goes on computing right after shows the call completed.
HALYARD_FAST_TLS thread_local FlightRecorder::Entry t_blocking_call;
}  // namespace

void record_pending_end(const FlightRecorder::Entry& entry, const core::CollArgs& args,
                        const Request& request) {
  if (args.blocking) {
    // A blocking call still held here has completed: one thread posts its blocking calls one
    // after the other (a blocking MPI call made of several steps posts each once the one before
    // it completed), and the caller's wait closes only the last.
    if (t_blocking_call.slot != nullptr) FlightRecorder::ended(t_blocking_call, Status{});
    t_blocking_call = entry;
  } else {
    request.on_complete([entry](const Status& s) { FlightRecorder::ended(entry, s); });
  }
}

void record_blocking_end(const Status& status) {
  if (t_blocking_call.slot == nullptr) return;
  FlightRecorder::ended(t_blocking_call, status);
  t_blocking_call.slot = nullptr;
}

}  // namespace halyard::guard
