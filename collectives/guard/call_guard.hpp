// The gate every public collective passes (collectives.cpp): HALYARD_CHECK's signature
// exchange before the collective is posted, HALYARD_COLL_TIMEOUT's watchdog while it runs.
// With both off (the default) it costs a flag test per call, and one look-up per call that
// does not complete at once.
#pragma once

#include <string_view>
#include <utility>

#include "collectives/guard/call_signature.hpp"
#include "collectives/guard/signature_check.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"

namespace halyard::guard {

// Hands `request` to the runtime's collective watchdog, if there is one (the call's signature,
// which names it in a timeout's message, is only built then).
void watch_collective(const core::CollArgs& args, const Request& request);

// Checks the call when HALYARD_CHECK=1, then posts it with `post()` and watches the result
// unless it completed already. With a progress thread the whole call holds the loop's lock: a
// collective's first steps are posted before any of their completions can run.
template <class Post>
Request guarded_call(const core::CollArgs& args, Post&& post) {
  const Communicator& comm = args.comm;
  EventLoop::Access access(comm.loop_if_alive());
  if (signature_check_enabled() && comm.valid()) {
    check_call_signatures(comm, CallSignature::of(args));
  }
  Request request = std::forward<Post>(post)();
  if (!request.done()) watch_collective(args, request);
  return request;
}

}  // namespace halyard::guard
