// The thread level MPI_Init / MPI_Init_thread provided and the thread that called it, for
// MPI_Query_thread, MPI_Is_thread_main and MPI_INFO_ENV's "thread_level".
#pragma once

namespace halyard::mpi_shim {

// Called by MPI_Init (MPI_THREAD_SINGLE) and MPI_Init_thread from the initializing thread.
void record_thread_level(int provided);
int provided_thread_level();
bool is_main_thread();
// "MPI_THREAD_SINGLE", ...
const char* thread_level_name(int level);

}  // namespace halyard::mpi_shim
