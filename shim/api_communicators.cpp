// MPI calls on communicators and their error handlers.
#include <mpi.h>

#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/shim_state.hpp"
#include "shim/topology.hpp"

using namespace halyard::mpi_shim;

namespace {

void check_errhandler(MPI_Errhandler errhandler) {
  if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN) {
    fail(MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler) +
                          " (MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN are supported)");
  }
}

void check_out(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is NULL");
}

}  // namespace

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return guarded("MPI_Comm_rank", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(rank, "rank");
    *rank = entry.comm.rank();
  });
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  return guarded("MPI_Comm_size", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(size, "size");
    *size = entry.comm.size();
  });
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return guarded("MPI_Comm_dup", comm, [&] {
    const CommEntry& entry = shim_state().comm(comm);
    check_out(newcomm, "newcomm");
    halyard::Communicator dup = entry.comm.dup();
    inherit_topology(entry.comm, dup);
    *newcomm = shim_state().add_comm(std::move(dup), entry.errhandler);
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
    halyard::Communicator split = entry.comm.split(color == MPI_UNDEFINED ? -1 : color, key);
    *newcomm =
        split.valid() ? shim_state().add_comm(std::move(split), entry.errhandler) : MPI_COMM_NULL;
  });
}

int MPI_Comm_free(MPI_Comm* comm) {
  MPI_Comm handle = comm != nullptr ? *comm : MPI_COMM_NULL;
  return guarded("MPI_Comm_free", handle, [&] {
    check_out(comm, "comm");
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
