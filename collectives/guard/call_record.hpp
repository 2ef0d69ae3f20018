// The flight recorder's entries for public collective calls (runtime/flight_recorder.hpp):
// post_call() records each call with the algorithm selection chose, and its end. With a
// recorder a call costs one look-up on its communicator, one in the recorder's name cache and a
// handful of stores; without one, the first look-up only.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include "collectives/core/catalog.hpp"
#include "collectives/core/coll_args.hpp"
#include "collectives/core/vocabulary.hpp"
#include "runtime/flight_recorder.hpp"
#include "runtime/request.hpp"

namespace halyard::guard {

// Records the end of `entry`, whose `request` has not completed: for a blocking call
// (args.blocking), in record_blocking_end() once its caller's wait returns; otherwise from a
// completion callback (run by the loop's next pass: a rank that stops progressing after a
// non-blocking call may show it posted).
void record_pending_end(const FlightRecorder::Entry& entry, const core::CollArgs& args,
                        const Request& request);
// The blocking call this thread posted last ended with `status`.
void record_blocking_end(const Status& status);

// Posts the call with `post()` and records it with the algorithm `entry` (of the catalog),
// when the runtime has a recorder; a call whose posting throws is recorded as failed.
template <class Post>
Request recorded_call(const core::CollArgs& args, const core::AlgorithmEntry& algorithm,
                      Post&& post) {
  const Communicator::RecordedCall call = args.comm.next_recorded_call();
  if (call.recorder == nullptr) return std::forward<Post>(post)();
  FlightRecorder& recorder = *call.recorder;
  const FlightRecorder::Entry entry = recorder.posted(
      call.context, call.size, call.number,
      recorder.call_names(
          &algorithm,
          [&] { return std::pair(core::collective_name(args.collective), algorithm.name); }),
      args.bytes);
  try {
    Request request = std::forward<Post>(post)();
    if (const Status* status = request.status_if_done()) {
      FlightRecorder::ended(entry, *status);
    } else {
      record_pending_end(entry, args, request);
    }
    return request;
  } catch (...) {
    FlightRecorder::ended(entry, Status::failure(ErrorCode::kInternal, {}));
    throw;
  }
}

}  // namespace halyard::guard
