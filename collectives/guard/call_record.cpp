#include "collectives/guard/call_record.hpp"

#include "collectives/core/vocabulary.hpp"
#include "runtime/runtime_services.hpp"
#include "runtime/support/fast_tls.hpp"

namespace halyard::guard {

FlightRecorder* recorder_of(const Communicator& comm) {
  if (!comm.valid()) return nullptr;
  return comm.services().recorder.load(std::memory_order_relaxed);
}

std::uint64_t record_posted(FlightRecorder& recorder, const core::CollArgs& args,
                            std::string_view algorithm) {
  return recorder.posted(args.comm.context(), static_cast<std::uint32_t>(args.comm.size()),
                         args.comm.next_recorded_call(), core::collective_name(args.collective),
                         algorithm, args.bytes);
}

namespace {
// The record of the blocking call this thread waits in (0: none): the wait, not a deferred
// callback, ends it, so a rank that goes on computing right after shows the call completed.
HALYARD_FAST_TLS thread_local std::uint64_t t_blocking_record = 0;
}  // namespace

void record_end(FlightRecorder& recorder, std::uint64_t record, const core::CollArgs& args,
                const Request& request) {
  if (request.done()) {
    recorder.ended(record, request.status());
  } else if (args.blocking) {
    t_blocking_record = record;
  } else {
    request.on_complete([&recorder, record](const Status& s) { recorder.ended(record, s); });
  }
}

void record_blocking_end(const Communicator& comm, const Status& status) {
  if (t_blocking_record == 0) return;
  if (FlightRecorder* recorder = recorder_of(comm)) recorder->ended(t_blocking_record, status);
  t_blocking_record = 0;
}

}  // namespace halyard::guard
