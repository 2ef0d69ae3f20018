/* Byte counts on the command line of the MPI benchmark programs (mpi_pingpong, mpi_collectives,
 * mpi_overlap): a number, fractions allowed, with an optional K, M or G suffix (powers of 1024),
 * e.g. 64K, 1.5M, 1G. Shared so that the programs read sizes alike. */
#ifndef HALYARD_BENCH_MPI_SIZE_ARG_H
#define HALYARD_BENCH_MPI_SIZE_ARG_H

#include <stddef.h>
#include <stdlib.h>

static inline size_t parse_size(const char* text) {
  char* end = NULL;
  double v = strtod(text, &end);
  if (*end == 'K' || *end == 'k') v *= 1024.0;
  if (*end == 'M' || *end == 'm') v *= 1024.0 * 1024.0;
  if (*end == 'G' || *end == 'g') v *= 1024.0 * 1024.0 * 1024.0;
  return (size_t)v;
}

#endif
