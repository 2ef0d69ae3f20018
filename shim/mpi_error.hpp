// How the shim reports a failed call: an MpiError carries the MPI error class and the message
// (without the call's name); the call's guard (call_guard.hpp) hands it to the error handler.
#pragma once

#include <mpi.h>

#include <string>

#include "runtime/support/error.hpp"

namespace halyard::mpi_shim {

struct MpiError {
  int error_class;
  std::string message;  // e.g. "invalid root 7 (communicator size 4)"
  // The handler to apply; MPI_ERRHANDLER_NULL: the one of the call's communicator. A request
  // completion names the handler its communicator had when the request was posted.
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
};

[[noreturn]] inline void fail(int error_class, std::string message) {
  throw MpiError{error_class, std::move(message)};
}

// The MPI class of a Halyard failure (kTruncated -> MPI_ERR_TRUNCATE, ...).
int error_class_of(ErrorCode code);

// The text MPI_Error_string gives for a class, e.g. "MPI_ERR_ROOT: invalid root"; null for a
// value that is not a class.
const char* error_class_text(int error_class);

}  // namespace halyard::mpi_shim
