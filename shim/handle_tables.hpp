// The predefined datatypes and ops of the shim: what each MPI handle means in Halyard's terms.
#pragma once

#include <mpi.h>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::mpi_shim {

// Which reduction ops an MPI datatype accepts (MPI's type categories, simplified: every
// integer type, characters and bytes included, takes every op). kPair: the (value, index)
// types, which take MPI_MAXLOC and MPI_MINLOC only.
enum class TypeCategory { kInteger, kFloating, kLogical, kPair };

struct DatatypeInfo {
  const char* name;  // "MPI_INT"
  Datatype halyard;  // the element type reductions compute in
  int size;          // bytes of one element
  TypeCategory category;
};

// kLocation: MPI_MAXLOC and MPI_MINLOC, defined on the pair types only.
enum class OpCategory { kArithmetic, kLogical, kBitwise, kLocation };

struct OpInfo {
  const char* name;  // "MPI_SUM"
  Op halyard;
  OpCategory category;
};

// Null for MPI_DATATYPE_NULL, a handle of another kind, or an index beyond the table.
const DatatypeInfo* find_datatype(MPI_Datatype datatype);
// Null for MPI_OP_NULL, a handle of another kind, or an index beyond the table.
const OpInfo* find_op(MPI_Op op);

// Whether MPI defines `op` on `type`: arithmetic ops on numbers, logical ops on integers and
// MPI_C_BOOL, bitwise ops on integers only, MAXLOC / MINLOC on the pair types only.
bool op_defined_for(const OpInfo& op, const DatatypeInfo& type);

}  // namespace halyard::mpi_shim
