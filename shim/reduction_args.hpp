// What a reduction call (MPI_Reduce, MPI_Allreduce, and every later reduction collective) hands
// Halyard for its (count, datatype, op), checked with MPI's error classes:
// - a predefined op on a predefined type: the element type and op Halyard computes in;
// - MPI_MAXLOC / MPI_MINLOC on a pair type, or a user op (MPI_Op_create) on any type: a custom
//   op (runtime/datatypes/custom_op.hpp) over the bytes of whole elements, which the selection
//   runs only on algorithms that admit it (rank order for non-commutative ops).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "runtime/request.hpp"
#include "shim/custom_op_registration.hpp"

namespace halyard::mpi_shim {

struct ReductionArgs {
  std::size_t count = 0;  // elements of `type`
  Datatype type = Datatype::kUint8;
  Op op = Op::kSum;
  // The custom op's registration, if any: a non-blocking call keeps it alive until its request
  // is done (keep_until_done), so MPI_Op_free may come before MPI_Wait. A blocking call needs
  // not (the op cannot be freed while the call runs).
  std::shared_ptr<const CustomOpRegistration> custom;

  void keep_until_done(const Request& request) const;
};

// MPI_ERR_COUNT, MPI_ERR_TYPE or MPI_ERR_OP (null, freed or unknown op; op not defined on the
// datatype) as the arguments deserve.
ReductionArgs checked_reduction(int count, MPI_Datatype datatype, MPI_Op op);

}  // namespace halyard::mpi_shim
