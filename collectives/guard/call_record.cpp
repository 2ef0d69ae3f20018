#include "collectives/guard/call_record.hpp"

#include <array>

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
  // The collectives' names, cut and padded for a slot once per process.
  static const std::array<FlightRecorder::Name, core::kCollectiveCount> kCollectiveNames = [] {
    std::array<FlightRecorder::Name, core::kCollectiveCount> names{};
    for (std::size_t c = 0; c < names.size(); ++c) {
      names[c] = FlightRecorder::name_of(core::collective_name(static_cast<core::Collective>(c)));
    }
    return names;
  }();
  const Communicator::RecordedCall call = args.comm.next_recorded_call();
  return recorder.posted(call.context, call.size, call.number,
                         kCollectiveNames[static_cast<std::size_t>(args.collective)],
                         recorder.static_name(algorithm), args.bytes);
}

namespace {
// The record of the blocking call this thread waits in (0: none): the wait, not a deferred
// callback, ends it, so a rank that goes on computing right after shows the call completed.
HALYARD_FAST_TLS thread_local std::uint64_t t_blocking_record = 0;
HALYARD_FAST_TLS thread_local FlightRecorder* t_blocking_recorder = nullptr;
}  // namespace

void record_end(FlightRecorder& recorder, std::uint64_t record, const core::CollArgs& args,
                const Request& request) {
  if (request.done()) {
    recorder.ended(record, request.status());
    if (args.blocking) t_blocking_record = 0;  // no stale record for the wait's end to close
  } else if (args.blocking) {
    t_blocking_record = record;
    t_blocking_recorder = &recorder;
  } else {
    request.on_complete([&recorder, record](const Status& s) { recorder.ended(record, s); });
  }
}

void record_blocking_end(const Status& status) {
  if (t_blocking_record == 0) return;
  t_blocking_recorder->ended(t_blocking_record, status);
  t_blocking_record = 0;
}

}  // namespace halyard::guard
