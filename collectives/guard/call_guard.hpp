// The gate every public collective passes (collectives.cpp): HALYARD_CHECK's signature
// exchange before the collective is posted, HALYARD_COLL_TIMEOUT's watchdog while it runs.
// With both off (the default) it costs one registry look-up per call.
#pragma once

#include <string_view>
#include <utility>

#include "collectives/guard/call_signature.hpp"
#include "collectives/guard/signature_check.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request.hpp"

namespace halyard::guard {

// Hands `request` to the runtime's collective watchdog, if there is one.
void watch_collective(const Communicator& comm, const CallSignature& call, const Request& request);

// Checks `call` when HALYARD_CHECK=1, then posts it with `post()` and watches the result.
template <class Post>
Request guarded_call(const Communicator& comm, const CallSignature& call, Post&& post) {
  if (comm.valid() && signature_check_enabled()) check_call_signatures(comm, call);
  Request request = std::forward<Post>(post)();
  watch_collective(comm, call, request);
  return request;
}

}  // namespace halyard::guard
