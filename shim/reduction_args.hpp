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
#include "shim/datatype_object.hpp"

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

// `count` items of `type` (checked already, from handle `datatype`) reduced with `op`: MPI_ERR_OP
// for a null, freed or unknown op, or one not defined on the datatype (a derived type reduces in
// its one element type; a user op needs a type without holes, whose packed items are the
// user's).
ReductionArgs checked_reduction(std::size_t count, MPI_Datatype datatype, const TypeObject& type,
                                MPI_Op op);

}  // namespace halyard::mpi_shim
