// MPI_Pcontrol, the one call of MPI's profiling interface that is not a PMPI_ name. It is for a
// profiling library wrapped around the program (which defines its own MPI_Pcontrol); the shim
// itself profiles nothing, so every level is accepted and changes nothing.
#include <mpi.h>

extern "C" int MPI_Pcontrol(const int, ...) {
  return MPI_SUCCESS;
}
