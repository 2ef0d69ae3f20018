/* Checks for the shim's test programs, which use nothing but mpi.h and the C library.
 * A failed check prints the rank, the place and the expression, and the program goes on so
 * that one run shows every failure; finish_checks() turns the count into the exit status. */
#ifndef HALYARD_SHIM_CHECK_H
#define HALYARD_SHIM_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures = 0;

static int check_rank(void) {
  int initialized = 0, finalized = 0, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

#define CHECK(condition)                                                                          \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      fprintf(stderr, "rank %d: FAIL %s:%d: %s\n", check_rank(), __FILE__, __LINE__, #condition); \
      ++check_failures;                                                                           \
    }                                                                                             \
  } while (0)

/* A call that must succeed. */
#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

/* A call that must fail with `error_class`. */
#define CHECK_CLASS(call, error_class)                                                         \
  do {                                                                                         \
    int check_code_ = (call);                                                                  \
    if (check_code_ != (error_class)) {                                                        \
      fprintf(stderr, "rank %d: FAIL %s:%d: %s returned %d, expected %s (%d)\n", check_rank(), \
              __FILE__, __LINE__, #call, check_code_, #error_class, error_class);              \
      ++check_failures;                                                                        \
    }                                                                                          \
  } while (0)

/* Element-by-element comparison, reporting the first mismatch of the array. */
#define CHECK_ARRAY(what, got, want, count)                                                    \
  do {                                                                                         \
    for (long check_i_ = 0; check_i_ < (long)(count); ++check_i_) {                            \
      if ((got)[check_i_] != (want)[check_i_]) {                                               \
        fprintf(stderr, "rank %d: FAIL %s:%d: %s: element %ld of %ld differs\n", check_rank(), \
                __FILE__, __LINE__, what, check_i_, (long)(count));                            \
        ++check_failures;                                                                      \
        break;                                                                                 \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* This rank, the job's size and the neighbours of a ring (the rank itself when alone). */
static inline void ring_position(int* rank, int* size, int* left, int* right) {
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  *right = (*rank + 1) % *size;
  *left = (*rank + *size - 1) % *size;
}

/* The exit status: 0 when every check passed. Call after MPI_Finalize. */
static int finish_checks(const char* program) {
  if (check_failures != 0) {
    fprintf(stderr, "%s: %d check(s) failed\n", program, check_failures);
    return 1;
  }
  return 0;
}

#endif /* HALYARD_SHIM_CHECK_H */
