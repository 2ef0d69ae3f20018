// HALYARD_CHECK=1: before each collective, the ranks of the communicator exchange the call's
// signature (collective, count, datatype, op, root) and every rank fails the call, with the
// same message naming the ranks that differ and what differs, unless all agree.
//
// The exchange is one Bruck allgather of 24 bytes per rank (ceil(log2 p) small messages), on
// a collective tag of its own, so it costs a few microseconds per call on one node. It blocks
// the calling rank until every rank of the communicator has made its call: a debugging aid,
// off by default (docs/reliability.md).
#pragma once

#include "collectives/guard/call_signature.hpp"
#include "runtime/communicator.hpp"

namespace halyard::guard {

// HALYARD_CHECK (0 or 1, default 0), read once per process.
bool signature_check_enabled();

// Exchanges `call` with every rank of `comm`; throws Error(kInvalidArgument) when they differ,
// or the exchange's own error (e.g. kPeerFailed) when it fails. Must not run inside a
// completion callback.
void check_call_signatures(const Communicator& comm, const CallSignature& call);

}  // namespace halyard::guard
