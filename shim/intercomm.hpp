// Intercommunicators (MPI-3.1 §6.6): a local and a remote group, disjoint. An intercommunicator's
// shim entry holds its *bridge*: a Halyard communicator over both groups, the remote group
// first, so that a point-to-point rank names a remote rank with no translation (each side
// orders the same members its own way on one context; messages match on world ranks, so a
// receive reports the sender's remote rank). The bridge carries an Intercomm attachment: the
// local group on a context of its own, on which the collectives' intercommunicator forms run
// the intracommunicator algorithms (intercomm_collectives.hpp).
#pragma once

#include <mpi.h>

#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/tags.hpp"
#include "shim/collective_calls.hpp"

namespace halyard::mpi_shim {

struct Intercomm {
  Communicator local;             // the local group, on its own context
  std::vector<int> remote_world;  // the remote group's world ranks, in remote rank order

  int remote_size() const { return static_cast<int>(remote_world.size()); }
};

// A library tag of its own for the next collective call on a bridge (every rank of both groups
// makes these calls in the same order, and the bridge runs no intracommunicator collective), so
// that calls in flight at once never match each other's messages.
int next_intercomm_tag(const Communicator& bridge);

// The Intercomm of a shim communicator, or null for an intracommunicator.
const Intercomm* intercomm_of(const Communicator& comm);
// The local group's communicator: an intercommunicator's local group, or `comm` itself.
const Communicator& local_group_of(const Communicator& comm);
// MPI_ERR_COMM when `comm` is an intercommunicator: `call` has no intercommunicator form.
void refuse_intercomm(const Communicator& comm, const char* call);
// MPI_ERR_COMM unless `comm` is an intercommunicator.
const Intercomm& checked_intercomm(const Communicator& comm);

// Collective over both groups: the bridge of an intercommunicator whose local group is `local`
// (a communicator of this side's own, kept by the result) and whose remote group is
// `remote_world`.
Communicator make_intercomm(Communicator local, std::vector<int> remote_world);
// MPI_Comm_split on an intercommunicator (collective over both groups): the members of each
// color in both groups, ordered by (key, rank); empty where either group has none of that color
// or `color` is negative.
Communicator split_intercomm(const Communicator& bridge, int color, int key);
// A step, or a call, that posts nothing (a completed request).
Started nothing_posted(const Communicator& comm);
// The local leaders (local rank 0) swap `send_bytes` for `receive_bytes` between the groups;
// nothing is posted at the other members.
Started leaders_swap(const Communicator& bridge, const Communicator& local, int tag,
                     const void* send, std::size_t send_bytes, void* receive,
                     std::size_t receive_bytes);
// Collective over both groups of `inter`'s bridge (blocking): leaders_swap(), then the leader
// broadcasts what it received to its group.
void swap_between_leaders(const Communicator& bridge, const void* send, std::size_t send_bytes,
                          void* receive, std::size_t receive_bytes);

}  // namespace halyard::mpi_shim
