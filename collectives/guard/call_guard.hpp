// The gate every public collective passes (collectives.cpp): HALYARD_CHECK's signature
// exchange before the collective is posted, HALYARD_COLL_TIMEOUT's watchdog while it runs.
// With both off (the default) it costs one registry look-up per call.
#pragma once

#include <string_view>
#include <utility>

#include "collectives/guard/call_signature.hpp"
#include "collectives/guard/signature_check.hpp"
#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"
#include "runtime/request.hpp"

namespace halyard::guard {

// Hands `request` to the runtime's collective watchdog, if there is one.
void watch_collective(const Communicator& comm, const CallSignature& call, const Request& request);

// Checks `call` when HALYARD_CHECK=1, then posts it with `post()` and watches the result.
// With a progress thread the whole call holds the loop's lock: a collective's first steps are
// posted before any of their completions can run.
template <class Post>
Request guarded_call(const Communicator& comm, const CallSignature& call, Post&& post) {
  EventLoop::Access access(comm.loop_if_alive());
  if (comm.valid() && signature_check_enabled()) check_call_signatures(comm, call);
  Request request = std::forward<Post>(post)();
  watch_collective(comm, call, request);
  return request;
}

}  // namespace halyard::guard
