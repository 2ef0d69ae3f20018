// ContextProposals: which of the communicator creations a process has in flight may propose
// a context id now (Communicator::exchange_creation_items).
//
// A new communicator takes the maximum of its members' next_context(). Two creations in flight
// at once on one process (application threads creating communicators from different parents,
// as MPI_THREAD_MULTIPLE allows) would read the same next_context() and could agree on the same
// id. So per process one creation at a time proposes, for one round of the exchange; the others
// abstain, and a round in which any member abstained is repeated. Serializing on a plain
// per-process lock instead could deadlock (two processes taking two creations in opposite
// orders); here the creation with the lowest parent context may always propose next, so the
// lowest one in flight anywhere succeeds and every creation does in turn. Single-threaded, the
// one creation in flight proposes at once: one round, as before. State of the event loop: use
// with its lock held.
#pragma once

#include <cstdint>
#include <set>

namespace halyard {

class ContextProposals {
 public:
  void begin(std::uint32_t parent) { in_flight_.insert(parent); }
  void end(std::uint32_t parent) { in_flight_.erase(in_flight_.find(parent)); }
  // True when the creation on `parent` proposes in this round; it then calls end_round().
  bool try_propose(std::uint32_t parent) {
    if (proposing_ || *in_flight_.begin() != parent) return false;
    proposing_ = true;
    return true;
  }
  void end_round() { proposing_ = false; }

 private:
  std::multiset<std::uint32_t> in_flight_;  // parent contexts of the creations in flight
  bool proposing_ = false;
};

}  // namespace halyard
