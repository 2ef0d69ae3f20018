// A custom op registered with the runtime (runtime/datatypes/custom_op.hpp) for as long as this
// object lives. The shim holds one per (user op, datatype) and per (MAXLOC/MINLOC, pair type)
// through shared_ptr, and every request that reduces with it holds another, so MPI_Op_free
// never pulls the function from under a reduction still running.
#pragma once

#include "runtime/datatypes/custom_op.hpp"

namespace halyard::mpi_shim {

class CustomOpRegistration {
 public:
  explicit CustomOpRegistration(CustomOp op) : op_(register_custom_op(std::move(op))) {}
  ~CustomOpRegistration() { release_custom_op(op_); }
  CustomOpRegistration(const CustomOpRegistration&) = delete;
  CustomOpRegistration& operator=(const CustomOpRegistration&) = delete;

  Op op() const { return op_; }

 private:
  Op op_;
};

}  // namespace halyard::mpi_shim
