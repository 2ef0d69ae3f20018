// The predefined datatypes and ops of the shim: what each MPI handle means in Halyard's terms.
#pragma once

#include <mpi.h>

#include "runtime/datatypes/datatype.hpp"
#include "runtime/datatypes/reduce_op.hpp"

namespace halyard::mpi_shim {

// Which reduction ops an MPI datatype accepts (MPI's type categories, simplified: every
// integer type, characters and bytes included, takes every op). Halyard computes MPI_SUM on
// kComplex as pairs of floats; long doubles and MPI_PACKED have no Halyard element type and
// only move.
enum class TypeCategory {
  kInteger,
  kFloating,
  kLogical,
  kComplex,
  kLongDouble,
  kLongDoubleComplex,
  kPacked,
  kPair  // the (value, index) types: MPI_MAXLOC and MPI_MINLOC only
};

struct DatatypeInfo {
  const char* name;  // "MPI_INT"
  Datatype halyard;  // the element type reductions compute in (a complex: its parts)
  int size;          // bytes of one element
  TypeCategory category;
};

// The alignment MPI_Type_create_struct pads an extent to for this element (a complex: its part;
// a pair: half its size, which is its value's alignment for each of the six).
int alignment_of(const DatatypeInfo& type);

// kLocation: MPI_MAXLOC and MPI_MINLOC, defined on the pair types only.
enum class OpCategory { kArithmetic, kLogical, kBitwise, kLocation };

struct OpInfo {
  const char* name;  // "MPI_SUM"
  Op halyard;
  OpCategory category;
};

// The element a predefined datatype handle names; null for MPI_DATATYPE_NULL, a handle of
// another kind, or an index beyond the table (derived types: datatype_table.hpp).
const DatatypeInfo* find_predefined_datatype(MPI_Datatype datatype);
// Null for MPI_OP_NULL, a handle of another kind, or an index beyond the table.
const OpInfo* find_op(MPI_Op op);

// What a predefined op does on a predefined element (both from the tables above). kUndefined: MPI
// does not define it (arithmetic ops take numbers, logical ops integers and MPI_C_BOOL, bitwise
// ops integers only, MAXLOC / MINLOC the pair types only). kNotComputable: MPI defines it but
// Halyard has no element type that computes it (long double, MPI_PACKED; on complex numbers
// anything but MPI_SUM, computed part by part).
enum class OpVerdict : unsigned char { kComputable, kUndefined, kNotComputable };
OpVerdict op_verdict(const OpInfo& op, const DatatypeInfo& type);

}  // namespace halyard::mpi_shim
