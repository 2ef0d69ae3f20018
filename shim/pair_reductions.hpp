// MPI_MAXLOC and MPI_MINLOC on the pair types: (value, index) elements reduced as custom ops
// (bytes of whole pairs), so every reduction collective that takes custom ops takes them.
#pragma once

#include <memory>

#include "shim/custom_op_registration.hpp"
#include "shim/handle_tables.hpp"

namespace halyard::mpi_shim {

// The registration of `op` (MAXLOC or MINLOC) on `type` (a pair type), made on first use and
// kept for the life of the process.
std::shared_ptr<const CustomOpRegistration> pair_reduction(const OpInfo& op,
                                                           const DatatypeInfo& type);

}  // namespace halyard::mpi_shim
