// Error handlers: the two predefined ones and those the application makes with
// MPI_Comm_create_errhandler. A freed user handler stays callable, because MPI frees a handler
// only when no communicator uses it any more; it just cannot be set again.
#pragma once

#include <mpi.h>

namespace halyard::mpi_shim {

// The function of a user handler (freed or not); null for the predefined ones and for
// handles that name no handler.
MPI_Comm_errhandler_function* user_errhandler_function(MPI_Errhandler handler);
// MPI_ERR_ARG unless `handler` can be set on a communicator (predefined or live user handler).
void check_errhandler(MPI_Errhandler handler);
MPI_Errhandler add_user_errhandler(MPI_Comm_errhandler_function* function);
// MPI_ERR_ARG for a handle that names no live handler. Predefined handlers stay (MPI lets a
// program free what MPI_Comm_get_errhandler returned, whatever it was).
void free_errhandler(MPI_Errhandler handler);

}  // namespace halyard::mpi_shim
