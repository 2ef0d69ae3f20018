/* loop: 20,000 calls of one collective (argv[1]), each followed by a barrier, on 1 MiB malloc
 * buffers (mmap'd: the CUDA look runs); for callgrind with --toggle-collect (README.md). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* which = argc > 1 ? argv[1] : "bcast";
  float* s = malloc(1 << 20);
  float* r = malloc(1 << 20);
  memset(s, 0, 1 << 20);
  memset(r, 0, 1 << 20);
  for (int i = 0; i < 20000; ++i) {
    if (!strcmp(which, "bcast"))
      MPI_Bcast(s, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "reduce"))
      MPI_Reduce(s, r, 1, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "allreduce"))
      MPI_Allreduce(s, r, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(which, "scatter"))
      MPI_Scatter(s, 1, MPI_FLOAT, r, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "gather"))
      MPI_Gather(s, 1, MPI_FLOAT, r, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
