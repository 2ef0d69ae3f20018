// Every MPI call of the shim runs its body inside guarded(): it refuses calls outside
// MPI_Init .. MPI_Finalize, turns exceptions into MPI error classes, and hands each failure to
// the error handler of the communicator involved (MPI_COMM_WORLD's when there is none):
// MPI_ERRORS_RETURN returns the class, MPI_ERRORS_ARE_FATAL ends the whole job with a message
// that names the call, e.g. "MPI_Bcast: invalid root 7 (communicator size 4)", and a user
// handler is called with the communicator and the class, after which the call returns it.
//
// Locking convention for MPI_THREAD_MULTIPLE (the one mechanism every file of calls relies on):
// - One lock serializes the shim: the runtime's event-loop lock (runtime/loop_lock.hpp), which
//   ShimState::locked_loop() names once MPI_Init_thread granted MPI_THREAD_MULTIPLE or when a
//   progress thread runs (its completions call back into the shim); null otherwise, where a
//   call pays a pointer test for it.
// - guarded() holds it for the whole call, error handling included. So every table and object
//   of the shim (communicators, requests, messages, datatypes, ops, groups, info, keyvals and
//   attributes, errhandlers, error codes, the bsend buffer, ...) is read and changed only under
//   it: a new file of MPI calls needs nothing but guarded() around each body, and no lock of
//   its own. The lock is re-entrant: an error handler, an attribute callback or a user op that
//   calls MPI takes it again.
// - A call that waits (blocking point-to-point and collectives, MPI_Wait*, MPI_Probe, ...) waits
//   through the runtime (Request::wait(), EventLoop::run_until()), which releases the lock
//   completely while it waits and takes it back before it returns, so other threads call,
//   complete and progress meanwhile; without a progress thread the waiting threads run the
//   loop's passes themselves. Never wait in any other way inside guarded() (a spin on a flag
//   that another MPI call sets would hold the lock and hang).
// - Across such a wait, what the call holds stays valid because tables never move their entries
//   (deques) and MPI forbids freeing an object that another thread still uses.
// - Runtime callbacks (completion steps, user ops inside a reduction) run on whichever thread
//   runs the pass, with the lock held.
// - MPI_Finalize runs without it (reporting_failures()): the runtime's finalize removes it.
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

// Runs `body`, turning what it throws into the error handling of `call`.
template <typename Body>
int reporting_failures(const char* call, MPI_Comm comm, Body&& body) {
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

template <typename Body>
int guarded(const char* call, MPI_Comm comm, Body&& body) {
  ShimState& state = shim_state();
  if (state.phase() != Phase::kInitialized) return report_outside_lifetime(call);
  EventLoop::Access call_lock(state.locked_loop());
  return reporting_failures(call, comm, body);
}

}  // namespace halyard::mpi_shim
