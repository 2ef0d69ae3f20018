// MPI calls that make communicators from groups and duplicates, compare them and name them.
// Every new communicator inherits its parent's error handler; a duplicate also gets the
// attributes its copy callbacks choose and the parent's hints (or the info given).
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/call_guard.hpp"
#include "shim/group_table.hpp"
#include "shim/intercomm.hpp"
#include "shim/text_output.hpp"
#include "shim/topology.hpp"

using namespace halyard::mpi_shim;

namespace {

// The ranks in `comm` of the group's members, in group order; MPI_ERR_GROUP when one is not
// a member of `comm`.
std::vector<int> ranks_in(const halyard::Communicator& comm, const Group& group) {
  std::vector<int> ranks;
  for (int world : group) {
    int rank = comm.rank_of_world(world);
    if (rank < 0) {
      fail(MPI_ERR_GROUP,
           "world rank " + std::to_string(world) + " of the group is not in the communicator");
    }
    ranks.push_back(rank);
  }
  return ranks;
}

MPI_Comm add_or_null(halyard::Communicator comm, MPI_Errhandler errhandler) {
  return comm.valid() ? shim_state().add_comm(std::move(comm), errhandler) : MPI_COMM_NULL;
}

// The body of MPI_Comm_dup and its variants: a new context, the copied attributes and `hints`.
MPI_Comm duplicate(MPI_Comm comm, InfoEntries hints) {
  const CommEntry& entry = shim_state().comm(comm);
  AttributeMap attributes = copied_attributes(comm, entry.attributes);
  const Intercomm* inter = intercomm_of(entry.comm);
  halyard::Communicator dup =
      inter != nullptr ? make_intercomm(inter->local.dup(), inter->remote_world) : entry.comm.dup();
  inherit_topology(entry.comm, dup);  // a dup keeps the process topology (MPI 7.4)
  MPI_Comm copy = shim_state().add_comm(std::move(dup), entry.errhandler);
  CommEntry& made = shim_state().comm(copy);
  made.attributes = std::move(attributes);
  made.hints = std::move(hints);
  return copy;
}

}  // namespace

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_dup", comm, [&] {
    check_out(newcomm, "newcomm");
    *newcomm = duplicate(comm, shim_state().comm(comm).hints);
  });
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_dup_with_info", comm, [&] {
    shim_state().comm(comm);
    InfoEntries hints = info_entries(info);
    check_out(newcomm, "newcomm");
    *newcomm = duplicate(comm, std::move(hints));
  });
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return guarded("MPI_Comm_idup", comm, [&] {
    check_out(newcomm, "newcomm");
    check_out(request, "request");
    // The duplicate is made at once (communicator creation is a short exchange); the request
    // is complete when the call returns.
    MPI_Comm copy = duplicate(comm, shim_state().comm(comm).hints);
    const CommEntry& entry = shim_state().comm(copy);
    *request = shim_state().add_request(
        {halyard::Request::make_completed(entry.comm.loop(), {}), entry.errhandler});
    *newcomm = copy;
  });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_create", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    // On an intercommunicator `group` is part of the local group, and each side gives its own:
    // the result joins the two (MPI-3.1 6.4.2), MPI_COMM_NULL where either is empty.
    const halyard::Communicator& local = local_group_of(entry.comm);
    std::vector<int> ranks = ranks_in(local, checked_group(group));
    check_out(newcomm, "newcomm");
    // Collective over `comm`: a split in which the group's members take their group order.
    int me = local.rank();
    int key = -1;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] == me) key = static_cast<int>(i);
    }
    const int color = key < 0 ? -1 : 0;
    *newcomm =
        add_or_null(intercomm_of(entry.comm) != nullptr ? split_intercomm(entry.comm, color, key)
                                                        : entry.comm.split(color, key),
                    entry.errhandler);
  });
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_create_group", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    refuse_intercomm(entry.comm, "MPI_Comm_create_group");
    std::vector<int> ranks = ranks_in(entry.comm, checked_group(group));
    check_tag(tag, false);
    check_out(newcomm, "newcomm");
    // Collective over the group only: the other ranks of `comm` take no part.
    bool member = std::find(ranks.begin(), ranks.end(), entry.comm.rank()) != ranks.end();
    *newcomm =
        member ? shim_state().add_comm(entry.comm.subset(ranks), entry.errhandler) : MPI_COMM_NULL;
  });
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_split_type", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    refuse_intercomm(entry.comm, "MPI_Comm_split_type");
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED) {
      fail(MPI_ERR_ARG, "invalid split_type " + std::to_string(split_type) +
                            " (MPI_COMM_TYPE_SHARED or MPI_UNDEFINED)");
    }
    InfoEntries hints = hints_from(info);
    check_out(newcomm, "newcomm");
    // The ranks of one node: under hlaunch --vnodes, one emulated node, as Halyard sees it.
    int color =
        split_type == MPI_UNDEFINED ? -1 : entry.comm.topology_of(entry.comm.rank()).node_id;
    *newcomm = add_or_null(entry.comm.split(color, key), entry.errhandler);
    if (*newcomm != MPI_COMM_NULL) shim_state().comm(*newcomm).hints = std::move(hints);
  });
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  return guarded("MPI_Comm_compare", comm1, [&] {
    const halyard::Communicator& first = shim_state().comm(comm1).comm;
    const halyard::Communicator& second = shim_state().comm(comm2).comm;
    check_out(result, "result");
    if (comm1 == comm2) {
      *result = MPI_IDENT;
      return;
    }
    const Intercomm* first_inter = intercomm_of(first);
    const Intercomm* second_inter = intercomm_of(second);
    if ((first_inter == nullptr) != (second_inter == nullptr)) {
      *result = MPI_UNEQUAL;  // an intercommunicator and an intracommunicator
      return;
    }
    int groups =
        compare_groups(members_of(local_group_of(first)), members_of(local_group_of(second)));
    // Intercommunicators compare both groups: the less alike of the two decides.
    if (first_inter != nullptr) {
      groups =
          std::max(groups, compare_groups(first_inter->remote_world, second_inter->remote_world));
    }
    // Distinct handles are distinct contexts: at best the same group in the same order.
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
  });
}

int MPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  return guarded("MPI_Comm_set_name", comm, [&] {
    CommEntry& entry = shim_state().comm(comm);
    check_out(comm_name, "comm_name");
    // MPI keeps the first MPI_MAX_OBJECT_NAME - 1 characters of a longer name.
    entry.name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  });
}

int MPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  return guarded("MPI_Comm_get_name", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(comm_name, "comm_name");
    check_out(resultlen, "resultlen");
    *resultlen = copy_text(entry.name, comm_name, MPI_MAX_OBJECT_NAME);
  });
}

}  // extern "C"
