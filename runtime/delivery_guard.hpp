// Keeping an IncomingMessage alive while a transport delivers it.
//
// The transport contract does not say whether a message may be destroyed between deliver()
// and its completion, so the runtime keeps it alive until the completion has run. The message
// must not be released inside that completion, though: the transport may be executing a
// std::function stored in the message itself. So the completion hands the last reference to
// the loop, which drops it on its deferred phase.
#pragma once

#include <memory>
#include <utility>

#include "runtime/event_loop.hpp"
#include "runtime/transport.hpp"

namespace halyard {

inline Completion keep_alive_until_done(EventLoop& loop, std::shared_ptr<IncomingMessage> message,
                                        Completion done) {
  return [&loop, holder = std::move(message), done = std::move(done)](const Status& s) mutable {
    done(s);
    loop.defer([released = std::move(holder)] {});
  };
}

}  // namespace halyard
