// The two levels of a HAN communicator: the local group (the ranks of this node, or of this
// NUMA domain with HALYARD_HAN_LEADERS=numa) and the leaders (the lowest rank of every group).
#pragma once

#include <memory>
#include <vector>

#include "collectives/han/han_config.hpp"
#include "collectives/han/task_pipeline.hpp"
#include "runtime/communicator.hpp"

namespace halyard::han {

struct Hierarchy {
  Communicator node;    // this rank's local group; rank 0 (the lowest comm rank) leads it
  Communicator leader;  // one rank per group (the lowest); empty on non-leaders
  // The comm rank of the leader of every comm rank's group.
  std::vector<int> leader_of;
  // The intra-node submodule of the process configuration, or base when it is base or when no
  // scratch lane was free for its group communicator (see make_hierarchy in hierarchy.cpp).
  IntraModule intra = IntraModule::kCma;
  // The group communicator holds a channel of the shm engine (collectives/shm): shm pieces run
  // there; without one they run base (p2p).
  bool shm_channel = false;
  OrderedQueue node_queue;
  OrderedQueue leader_queue;
  // Point-to-point hand-overs between a group's leader and a root elsewhere in the group: they
  // need no common order, but tasks need a queue to wait in.
  OrderedQueue transfer_queue;

  // The submodule a call configured with `c` runs: c's, unless this hierarchy holds no scratch
  // lane (sm and cma need one), where only base is safe.
  IntraModule intra_for(const Config& c) const {
    return intra == IntraModule::kBase ? IntraModule::kBase : c.intra;
  }
  bool is_leader() const { return leader.valid(); }
  int group_leader(int rank) const { return leader_of[static_cast<std::size_t>(rank)]; }
  bool same_group(int a, int b) const { return group_leader(a) == group_leader(b); }
};

// The hierarchy of `comm`, created on first use (collective and blocking: it splits `comm`
// twice and agrees on a scratch lane). Every rank of `comm` calls it from the start of every HAN
// collective, so the first HAN call on a communicator must come in the same order on all ranks
// relative to other blocking collectives, like MPI_Comm_split.
//
// It is attached to `comm` (runtime/attachments.hpp) and released with it, together with its
// two communicators and its scratch lane. The reference stays valid while a handle of `comm`
// lives; what must outlive that (a call still in flight when the application frees `comm`)
// holds shared_hierarchy_of(comm) or what it uses of the hierarchy (node, leader, the queues'
// tasks keep their queue).
Hierarchy& hierarchy_of(const Communicator& comm);
std::shared_ptr<Hierarchy> shared_hierarchy_of(const Communicator& comm);

}  // namespace halyard::han
