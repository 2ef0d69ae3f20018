// The flight recorder's entries for public collective calls (runtime/flight_recorder.hpp):
// post_call() records each call with the algorithm selection chose, and its end.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include "collectives/core/coll_args.hpp"
#include "runtime/flight_recorder.hpp"
#include "runtime/request.hpp"

namespace halyard::guard {

// The recorder of the runtime `comm` belongs to; null when there is none (the default outside
// hlaunch) or `comm` is empty.
FlightRecorder* recorder_of(const Communicator& comm);

// Records the call `args` about to be posted with `algorithm`; returns its record number.
std::uint64_t record_posted(FlightRecorder& recorder, const core::CollArgs& args,
                            std::string_view algorithm);
// Records the end of `record`: at once if `request` has completed; for a blocking call
// (args.blocking), in record_blocking_end() once its caller's wait returns; otherwise from a
// completion callback (run by the loop's next pass: a rank that stops progressing after a
// non-blocking call may show it posted).
void record_end(FlightRecorder& recorder, std::uint64_t record, const core::CollArgs& args,
                const Request& request);
// The blocking call this thread posted last ended with `status`.
void record_blocking_end(const Status& status);

// Posts the call with `post()` and records it, when the runtime has a recorder; a call whose
// posting throws is recorded as failed.
template <class Post>
Request recorded_call(const core::CollArgs& args, std::string_view algorithm, Post&& post) {
  FlightRecorder* recorder = recorder_of(args.comm);
  if (recorder == nullptr) return std::forward<Post>(post)();
  const std::uint64_t record = record_posted(*recorder, args, algorithm);
  try {
    Request request = std::forward<Post>(post)();
    record_end(*recorder, record, args, request);
    return request;
  } catch (...) {
    recorder->ended(record, Status::failure(ErrorCode::kInternal, {}));
    throw;
  }
}

}  // namespace halyard::guard
