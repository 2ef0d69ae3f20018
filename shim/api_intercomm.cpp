// MPI calls that make and inspect intercommunicators (intercomm.hpp): MPI_Intercomm_create,
// MPI_Intercomm_merge, MPI_Comm_remote_size, MPI_Comm_remote_group, MPI_Comm_test_inter.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/collective_starts.hpp"
#include "shim/group_table.hpp"
#include "shim/intercomm.hpp"

using namespace halyard::mpi_shim;

namespace {

// The local leader's half of MPI_Intercomm_create: swaps the groups' world ranks with the
// remote leader over `peer` on the user's tag, as MPI specifies.
std::vector<int> remote_group_from_leader(const halyard::Communicator& peer, int remote_leader,
                                          int tag, const std::vector<int>& local_world) {
  halyard::Request sent =
      peer.isend(remote_leader, tag, local_world.data(), local_world.size() * sizeof(int));
  halyard::Status arrived = peer.probe(remote_leader, tag);
  std::vector<int> remote(arrived.bytes / sizeof(int));
  peer.recv(remote_leader, tag, remote.data(), remote.size() * sizeof(int));
  sent.wait_ok();
  return remote;
}

// Broadcasts the leader's `values` (any length) over `local`.
void broadcast_list(const halyard::Communicator& local, int leader, std::vector<int>& values) {
  int count = static_cast<int>(values.size());
  wait_for(start_bcast(local, &count, 1, MPI_INT, leader));
  values.resize(static_cast<std::size_t>(count));
  wait_for(start_bcast(local, values.data(), count, MPI_INT, leader));
}

}  // namespace

extern "C" {

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm* newintercomm) {
  return guarded("MPI_Intercomm_create", local_comm, [&] {
    const CommEntry& entry = shim_state().comm(local_comm);
    refuse_intercomm(entry.comm, "MPI_Intercomm_create's local_comm");
    check_peer(local_leader, entry.comm, "local leader", false);
    check_tag(tag, false);
    check_out(newintercomm, "newintercomm");
    std::vector<int> local_world = members_of(entry.comm);
    std::vector<int> remote;
    if (entry.comm.rank() == local_leader) {
      const halyard::Communicator& peer = shim_state().comm(peer_comm).comm;
      check_peer(remote_leader, peer, "remote leader", false);
      remote = remote_group_from_leader(peer, remote_leader, tag, local_world);
    }
    broadcast_list(entry.comm, local_leader, remote);
    for (int world : remote) {
      if (std::find(local_world.begin(), local_world.end(), world) != local_world.end()) {
        fail(MPI_ERR_COMM,
             "the local and remote groups overlap (world rank " + std::to_string(world) + ")");
      }
    }
    *newintercomm = shim_state().add_comm(make_intercomm(entry.comm.dup(), std::move(remote)),
                                          entry.errhandler);
  });
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  return guarded("MPI_Intercomm_merge", intercomm, [&] {
    const CommEntry& entry = shim_state().comm(intercomm);
    const Intercomm& inter = checked_intercomm(entry.comm);
    check_out(newintracomm, "newintracomm");
    // The groups' flags (and leaders, to order equal flags the same way on both sides).
    int mine[2] = {high != 0 ? 1 : 0, inter.local.world_rank(0)};
    int theirs[2] = {0, 0};
    swap_between_leaders(entry.comm, mine, sizeof mine, theirs, sizeof theirs);
    bool local_first = mine[0] != theirs[0] ? mine[0] < theirs[0] : mine[1] < theirs[1];
    std::vector<int> local_world = members_of(inter.local);
    std::vector<int> members = local_first ? local_world : inter.remote_world;
    const std::vector<int>& second = local_first ? inter.remote_world : local_world;
    members.insert(members.end(), second.begin(), second.end());
    *newintracomm = shim_state().add_comm(shim_state().comm(MPI_COMM_WORLD).comm.subset(members),
                                          entry.errhandler);
  });
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return guarded("MPI_Comm_test_inter", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(flag, "flag");
    *flag = intercomm_of(entry.comm) != nullptr ? 1 : 0;
  });
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  return guarded("MPI_Comm_remote_size", comm, [&] {
    const Intercomm& inter = checked_intercomm(shim_state().comm(comm).comm);
    check_out(size, "size");
    *size = inter.remote_size();
  });
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  return guarded("MPI_Comm_remote_group", comm, [&] {
    const Intercomm& inter = checked_intercomm(shim_state().comm(comm).comm);
    check_out(group, "group");
    *group = add_group(inter.remote_world);
  });
}

}  // extern "C"
