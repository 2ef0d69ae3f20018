// The two levels HAN runs on, cached per communicator.
//
// node_comm() and leader_comm() are collective and blocking to create, so they are made once,
// on the first HAN call on a communicator (every rank makes that call in the same order, so
// creation matches up), and kept for the life of the process.
#pragma once

#include <cstdint>

#include "collectives/han/task_graph.hpp"
#include "runtime/communicator.hpp"

namespace halyard::han {

struct Hierarchy {
  Communicator node;    // the members of this rank's node; rank 0 is the node leader
  Communicator leader;  // one rank per node (the lowest); empty on non-leaders
  OrderedQueue node_queue;
  OrderedQueue leader_queue;
  // Point-to-point hand-overs between a node's leader and a root elsewhere on the node: they
  // need no common order, but tasks need a queue to wait in.
  OrderedQueue transfer_queue;

  bool is_leader() const { return leader.valid(); }
};

// The hierarchy of `comm`, created on first use. Must be called by every rank of `comm` in the
// same collective order (it is, from the start of every HAN collective).
Hierarchy& hierarchy_of(const Communicator& comm);

// The comm rank of the leader of comm rank `rank`'s node (the lowest rank on that node).
int node_leader_of(const Communicator& comm, int rank);

}  // namespace halyard::han
