// User-defined reductions: the ops MPI_Op_create makes. Their handles follow the predefined
// ones (index kFirstUserOp and up); each op registers a runtime custom op per datatype it is
// used with, on first use, because MPI passes the datatype handle to the user function.
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "shim/custom_op_registration.hpp"
#include "shim/handle_tables.hpp"

namespace halyard::mpi_shim {

struct UserOp {
  MPI_User_function* function;
  bool commutative;
  // Per datatype handle; dropped by MPI_Op_free (requests still running hold their own).
  // By datatype handle and element size (a freed handle may come back as another type).
  std::map<std::pair<MPI_Datatype, std::size_t>, std::shared_ptr<const CustomOpRegistration>>
      registrations;
};

// Null when `op` names no live user op.
UserOp* find_user_op(MPI_Op op);

// The registration that applies `op` to elements of `datatype`, `element_bytes` each, named
// `type_name` in messages.
std::shared_ptr<const CustomOpRegistration> user_reduction(UserOp& op, MPI_Datatype datatype,
                                                           std::size_t element_bytes,
                                                           const std::string& type_name);

}  // namespace halyard::mpi_shim
