// MPI calls that make, free and call error handlers, and their MPI-1 names. Setting and getting
// a communicator's handler is in api_communicators.cpp; call_guard.cpp applies them.
#include <mpi.h>

#include <string>

#include "shim/argument_checks.hpp"
#include "shim/call_guard.hpp"
#include "shim/errhandler_table.hpp"
#include "shim/user_error_codes.hpp"

using namespace halyard::mpi_shim;

namespace {

int create_call(const char* call, MPI_Comm_errhandler_function* function,
                MPI_Errhandler* errhandler) {
  return guarded(call, MPI_COMM_WORLD, [&] {
    check_out(errhandler, "errhandler");
    *errhandler = add_user_errhandler(function);
  });
}

}  // namespace

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* comm_errhandler_fn,
                               MPI_Errhandler* errhandler) {
  return create_call("MPI_Comm_create_errhandler", comm_errhandler_fn, errhandler);
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return create_call("MPI_Errhandler_create", function, errhandler);
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  return guarded("MPI_Errhandler_free", MPI_COMM_WORLD, [&] {
    check_out(errhandler, "errhandler");
    free_errhandler(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
  });
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return MPI_Comm_set_errhandler(comm, errhandler);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return MPI_Comm_get_errhandler(comm, errhandler);
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  bool known = (errorcode > MPI_SUCCESS && errorcode <= MPI_ERR_LASTCODE) ||
               added_code_class(errorcode) >= 0;
  return guarded("MPI_Comm_call_errhandler", comm, [&] {
    CommEntry& entry = shim_state().comm(comm);
    // MPI returns MPI_SUCCESS when the handler returns, whatever it did with the code.
    apply_handler("MPI_Comm_call_errhandler", entry.errhandler, comm, errorcode,
                  "error code " + std::to_string(errorcode) +
                      (known ? "" : " (not a class or code of this library)"));
  });
}

}  // extern "C"
