#include "collectives/guard/call_record.hpp"

#include "runtime/support/fast_tls.hpp"

namespace halyard::guard {

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
