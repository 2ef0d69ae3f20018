// Every MPI call of the shim runs its body inside guarded(): it refuses calls outside
// MPI_Init .. MPI_Finalize, turns exceptions into MPI error classes, and hands each failure to
// the error handler of the communicator involved (MPI_COMM_WORLD's when there is none):
// MPI_ERRORS_RETURN returns the class, MPI_ERRORS_ARE_FATAL ends the whole job with a message
// that names the call, e.g. "MPI_Bcast: invalid root 7 (communicator size 4)", and a user
// handler is called with the communicator and the class, after which the call returns it.
#pragma once

#include <mpi.h>

#include <exception>
#include <string_view>

#include "runtime/support/error.hpp"
#include "shim/mpi_error.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

// Applies the error handler of `comm` (world's when `comm` names no communicator) to a failure
// of `call`: returns `error_class` or does not return at all.
int report_error(const char* call, MPI_Comm comm, int error_class, std::string_view message);

// Applies `handler` itself; a user handler gets `comm`.
int apply_handler(const char* call, MPI_Errhandler handler, MPI_Comm comm, int error_class,
                  std::string_view message);

// Ends the job with "<call>: <message>": through hlaunch while a Runtime exists, else by
// printing the line and exiting with `error_class`.
[[noreturn]] void fatal_error(const char* call, int error_class, std::string_view message);

// The answer to a call made before MPI_Init or after MPI_Finalize.
int report_outside_lifetime(const char* call);

template <typename Body>
int guarded(const char* call, MPI_Comm comm, Body&& body) {
  if (shim_state().phase() != Phase::kInitialized) return report_outside_lifetime(call);
  try {
    body();
    return MPI_SUCCESS;
  } catch (const MpiError& e) {
    if (e.errhandler != MPI_ERRHANDLER_NULL) {
      return apply_handler(call, e.errhandler, comm, e.error_class, e.message);
    }
    return report_error(call, comm, e.error_class, e.message);
  } catch (const Error& e) {
    return report_error(call, comm, error_class_of(e.code()), e.what());
  } catch (const std::exception& e) {
    return report_error(call, comm, MPI_ERR_INTERN, e.what());
  }
}

}  // namespace halyard::mpi_shim
