// MPI calls on communicators: rank, size, split, free and error handlers (the calls that make
// communicators from groups, duplicates and names are in api_comm_creation.cpp).
#include <mpi.h>

#include <string>

#include "shim/argument_checks.hpp"
#include "shim/attributes.hpp"
#include "shim/call_guard.hpp"
#include "shim/errhandler_table.hpp"
#include "shim/intercomm.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"

using namespace halyard::mpi_shim;

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return guarded("MPI_Comm_rank", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(rank, "rank");
    *rank = local_group_of(entry.comm).rank();
  });
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  return guarded("MPI_Comm_size", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(size, "size");
    *size = local_group_of(entry.comm).size();
  });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_split", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(newcomm, "newcomm");
    if (color < 0 && color != MPI_UNDEFINED) {
      fail(MPI_ERR_ARG,
           "invalid color " + std::to_string(color) + " (colors are >= 0, or MPI_UNDEFINED)");
    }
    // Halyard leaves ranks with a negative color out, as MPI does with MPI_UNDEFINED.
    int halyard_color = color == MPI_UNDEFINED ? -1 : color;
    halyard::Communicator split = intercomm_of(entry.comm) != nullptr
                                      ? split_intercomm(entry.comm, halyard_color, key)
                                      : entry.comm.split(halyard_color, key);
    *newcomm =
        split.valid() ? shim_state().add_comm(std::move(split), entry.errhandler) : MPI_COMM_NULL;
  });
}

int MPI_Comm_free(MPI_Comm* comm) {
  MPI_Comm handle = comm != nullptr ? *comm : MPI_COMM_NULL;
  return guarded("MPI_Comm_free", handle, [&] {
    check_out(comm, "comm");
    CommEntry& entry = shim_state().comm(handle);
    // Freeing MPI_COMM_WORLD or MPI_COMM_SELF is an error: their attributes must stay.
    if (handle != MPI_COMM_WORLD && handle != MPI_COMM_SELF)
      delete_all_attributes(handle, entry.attributes);
    shim_state().remove_comm(handle);
    *comm = MPI_COMM_NULL;
  });
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return guarded("MPI_Comm_set_errhandler", comm, [&] {
    CommEntry& entry = shim_state().comm(comm);
    check_errhandler(errhandler);
    entry.errhandler = errhandler;
  });
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return guarded("MPI_Comm_get_errhandler", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(errhandler, "errhandler");
    *errhandler = entry.errhandler;
  });
}

}  // extern "C"
