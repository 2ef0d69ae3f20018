// Tags that keep concurrent collectives on one communicator apart.
//
// Every rank calls the collectives of a communicator in the same order, so a per-communicator
// call counter yields the same tag on every rank without any message. Inside one collective,
// messages between a pair with the same tag match in the order they were posted, which the
// algorithms rely on (segment i before segment i+1).
#pragma once

#include "runtime/communicator.hpp"

namespace halyard {

// A fresh library tag (<= kFirstCollectiveTag) for the next collective on `comm`; wraps after
// 2^24 calls, far more than can be in flight at once.
int next_collective_tag(const Communicator& comm);

}  // namespace halyard
