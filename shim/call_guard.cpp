#include "shim/call_guard.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "shim/errhandler_table.hpp"

namespace halyard::mpi_shim {

int report_error(const char* call, MPI_Comm comm, int error_class, std::string_view message) {
  ShimState& state = shim_state();
  CommEntry* entry = state.phase() == Phase::kInitialized ? state.find_comm(comm) : nullptr;
  if (entry == nullptr) {
    return apply_handler(call, state.world_errhandler(), MPI_COMM_WORLD, error_class, message);
  }
  return apply_handler(call, entry->errhandler, comm, error_class, message);
}

int apply_handler(const char* call, MPI_Errhandler handler, MPI_Comm comm, int error_class,
                  std::string_view message) {
  if (handler == MPI_ERRORS_RETURN) return error_class;
  if (MPI_Comm_errhandler_function* function = user_errhandler_function(handler)) {
    // The handler may call MPI (MPI_Error_string, MPI_Abort) and may change its arguments;
    // MPI returns the class whatever it does.
    MPI_Comm handler_comm = comm;
    int code = error_class;
    function(&handler_comm, &code);
    return error_class;
  }
  fatal_error(call, error_class, message);
}

void fatal_error(const char* call, int error_class, std::string_view message) {
  std::string line = std::string(call) + ": " + std::string(message);
  if (Runtime* runtime = shim_state().runtime_if_any()) runtime->abort(error_class, line);
  // No Runtime (before MPI_Init, after MPI_Finalize): nobody else can report it; hlaunch sees
  // the non-zero exit and ends the job.
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(nullptr);
  std::_Exit(error_class);
}

int report_outside_lifetime(const char* call) {
  if (shim_state().phase() == Phase::kBeforeInit) {
    // No handler can have been set yet: MPI_ERRORS_ARE_FATAL applies.
    fatal_error(call, MPI_ERR_OTHER, "called before MPI_Init");
  }
  return report_error(call, MPI_COMM_NULL, MPI_ERR_OTHER, "called after MPI_Finalize");
}

}  // namespace halyard::mpi_shim
