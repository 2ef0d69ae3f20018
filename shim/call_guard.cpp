#include "shim/call_guard.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace halyard::mpi_shim {

int report_error(const char* call, MPI_Comm comm, int error_class, std::string_view message) {
  ShimState& state = shim_state();
  CommEntry* entry = state.phase() == Phase::kInitialized ? state.find_comm(comm) : nullptr;
  return apply_handler(call, entry ? entry->errhandler : state.world_errhandler(), error_class,
                       message);
}

int apply_handler(const char* call, MPI_Errhandler handler, int error_class,
                  std::string_view message) {
  if (handler == MPI_ERRORS_RETURN) return error_class;
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
