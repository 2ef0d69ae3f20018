#include "shim/handle_tables.hpp"

#include "shim/handle_bits.hpp"
#include "shim/pair_types.hpp"

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cwchar>
#include <iterator>

namespace halyard::mpi_shim {

namespace {

// The shim maps C's long onto 64-bit integers and char onto 8 bits: true on every LP64 Linux
// target Halyard builds for; anything else must fail to build rather than compute wrong sums.
static_assert(sizeof(long) == 8 && sizeof(long long) == 8 && CHAR_BIT == 8);
static_assert(sizeof(bool) == 1, "MPI_C_BOOL is carried as one byte");
static_assert(sizeof(long double) == 16 && sizeof(wchar_t) == 4);

constexpr Datatype kWcharType = WCHAR_MIN < 0 ? Datatype::kInt32 : Datatype::kUint32;

constexpr Datatype kCharType = CHAR_MIN < 0 ? Datatype::kInt8 : Datatype::kUint8;

// Indexed by the handle's low bits; entry 0 stands for MPI_DATATYPE_NULL and is never returned.
constexpr DatatypeInfo kDatatypes[] = {
    {"MPI_DATATYPE_NULL", Datatype::kUint8, 0, TypeCategory::kInteger},
    {"MPI_CHAR", kCharType, 1, TypeCategory::kInteger},
    {"MPI_SIGNED_CHAR", Datatype::kInt8, 1, TypeCategory::kInteger},
    {"MPI_UNSIGNED_CHAR", Datatype::kUint8, 1, TypeCategory::kInteger},
    {"MPI_BYTE", Datatype::kUint8, 1, TypeCategory::kInteger},
    {"MPI_SHORT", Datatype::kInt16, 2, TypeCategory::kInteger},
    {"MPI_UNSIGNED_SHORT", Datatype::kUint16, 2, TypeCategory::kInteger},
    {"MPI_INT", Datatype::kInt32, 4, TypeCategory::kInteger},
    {"MPI_UNSIGNED", Datatype::kUint32, 4, TypeCategory::kInteger},
    {"MPI_LONG", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_UNSIGNED_LONG", Datatype::kUint64, 8, TypeCategory::kInteger},
    {"MPI_LONG_LONG", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_UNSIGNED_LONG_LONG", Datatype::kUint64, 8, TypeCategory::kInteger},
    {"MPI_FLOAT", Datatype::kFloat32, 4, TypeCategory::kFloating},
    {"MPI_DOUBLE", Datatype::kFloat64, 8, TypeCategory::kFloating},
    {"MPI_INT8_T", Datatype::kInt8, 1, TypeCategory::kInteger},
    {"MPI_INT16_T", Datatype::kInt16, 2, TypeCategory::kInteger},
    {"MPI_INT32_T", Datatype::kInt32, 4, TypeCategory::kInteger},
    {"MPI_INT64_T", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_UINT8_T", Datatype::kUint8, 1, TypeCategory::kInteger},
    {"MPI_UINT16_T", Datatype::kUint16, 2, TypeCategory::kInteger},
    {"MPI_UINT32_T", Datatype::kUint32, 4, TypeCategory::kInteger},
    {"MPI_UINT64_T", Datatype::kUint64, 8, TypeCategory::kInteger},
    {"MPI_C_BOOL", Datatype::kUint8, 1, TypeCategory::kLogical},
    {"MPI_LONG_DOUBLE", Datatype::kUint8, 16, TypeCategory::kLongDouble},
    {"MPI_WCHAR", kWcharType, 4, TypeCategory::kInteger},
    {"MPI_C_FLOAT_COMPLEX", Datatype::kFloat32, 8, TypeCategory::kComplex},
    {"MPI_C_DOUBLE_COMPLEX", Datatype::kFloat64, 16, TypeCategory::kComplex},
    {"MPI_C_LONG_DOUBLE_COMPLEX", Datatype::kUint8, 32, TypeCategory::kLongDoubleComplex},
    {"MPI_AINT", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_OFFSET", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_COUNT", Datatype::kInt64, 8, TypeCategory::kInteger},
    {"MPI_PACKED", Datatype::kUint8, 1, TypeCategory::kPacked},
    // The pair types of MAXLOC / MINLOC (issue 25): value and index, laid out as the C struct
    // (size = sizeof, padding included), reduced as bytes by shim/pair_reductions.cpp.
    {"MPI_FLOAT_INT", Datatype::kUint8, sizeof(FloatInt), TypeCategory::kPair},
    {"MPI_DOUBLE_INT", Datatype::kUint8, sizeof(DoubleInt), TypeCategory::kPair},
    {"MPI_LONG_INT", Datatype::kUint8, sizeof(LongInt), TypeCategory::kPair},
    {"MPI_2INT", Datatype::kUint8, sizeof(TwoInt), TypeCategory::kPair},
    {"MPI_SHORT_INT", Datatype::kUint8, sizeof(ShortInt), TypeCategory::kPair},
    {"MPI_LONG_DOUBLE_INT", Datatype::kUint8, sizeof(LongDoubleInt), TypeCategory::kPair},
};

constexpr OpInfo kOps[] = {
    {"MPI_OP_NULL", Op::kSum, OpCategory::kArithmetic},
    {"MPI_SUM", Op::kSum, OpCategory::kArithmetic},
    {"MPI_PROD", Op::kProd, OpCategory::kArithmetic},
    {"MPI_MIN", Op::kMin, OpCategory::kArithmetic},
    {"MPI_MAX", Op::kMax, OpCategory::kArithmetic},
    {"MPI_LAND", Op::kLand, OpCategory::kLogical},
    {"MPI_LOR", Op::kLor, OpCategory::kLogical},
    {"MPI_LXOR", Op::kLxor, OpCategory::kLogical},
    {"MPI_BAND", Op::kBand, OpCategory::kBitwise},
    {"MPI_BOR", Op::kBor, OpCategory::kBitwise},
    {"MPI_BXOR", Op::kBxor, OpCategory::kBitwise},
    // Pair types only; the halyard op is resolved per pair type (shim/pair_reductions.cpp).
    {"MPI_MAXLOC", Op::kMax, OpCategory::kLocation},
    {"MPI_MINLOC", Op::kMin, OpCategory::kLocation},
};

// The table index of `handle` when it is of `kind` and names a non-null entry, else 0.
std::size_t index_of(int handle, int kind, std::size_t table_size) {
  const std::size_t index = handle_index(handle, kind);
  return index < table_size ? index : 0;
}

}  // namespace

const DatatypeInfo* find_predefined_datatype(MPI_Datatype datatype) {
  std::size_t index = index_of(datatype, HALYARD_MPI_KIND_DATATYPE, std::size(kDatatypes));
  return index == 0 ? nullptr : &kDatatypes[index];
}

const OpInfo* find_op(MPI_Op op) {
  std::size_t index = index_of(op, HALYARD_MPI_KIND_OP, std::size(kOps));
  return index == 0 ? nullptr : &kOps[index];
}

int alignment_of(const DatatypeInfo& type) {
  bool halves = type.category == TypeCategory::kComplex ||
                type.category == TypeCategory::kLongDoubleComplex ||
                type.category == TypeCategory::kPair;
  return halves ? type.size / 2 : type.size;
}

namespace {

constexpr bool defined_for(const OpInfo& op, const DatatypeInfo& type) {
  if ((op.category == OpCategory::kLocation) != (type.category == TypeCategory::kPair)) {
    return false;
  }
  TypeCategory c = type.category;
  bool is_integer = c == TypeCategory::kInteger;
  switch (op.category) {
    case OpCategory::kLocation:
      return true;
    case OpCategory::kArithmetic:
      if (c == TypeCategory::kComplex || c == TypeCategory::kLongDoubleComplex) {
        return op.halyard == Op::kSum || op.halyard == Op::kProd;  // complex numbers have no order
      }
      return c != TypeCategory::kLogical && c != TypeCategory::kPacked;
    case OpCategory::kLogical:
      return is_integer || c == TypeCategory::kLogical;
    case OpCategory::kBitwise:
      return is_integer;
  }
  return false;
}

constexpr bool computable_for(const OpInfo& op, const DatatypeInfo& type) {
  switch (type.category) {
    case TypeCategory::kLongDouble:
    case TypeCategory::kLongDoubleComplex:
    case TypeCategory::kPacked:
      return false;
    case TypeCategory::kComplex:
      return op.halyard == Op::kSum;
    default:
      return true;
  }
}

// Every predefined op on every predefined element, decided at compile time: a reduction call
// looks its pair up instead of running the two tests above.
constexpr auto kVerdicts = [] {
  std::array<std::array<OpVerdict, std::size(kDatatypes)>, std::size(kOps)> verdicts{};
  for (std::size_t o = 0; o < std::size(kOps); ++o) {
    for (std::size_t t = 0; t < std::size(kDatatypes); ++t) {
      verdicts[o][t] = !defined_for(kOps[o], kDatatypes[t])      ? OpVerdict::kUndefined
                       : !computable_for(kOps[o], kDatatypes[t]) ? OpVerdict::kNotComputable
                                                                 : OpVerdict::kComputable;
    }
  }
  return verdicts;
}();

}  // namespace

OpVerdict op_verdict(const OpInfo& op, const DatatypeInfo& type) {
  return kVerdicts[static_cast<std::size_t>(&op - kOps)]
                  [static_cast<std::size_t>(&type - kDatatypes)];
}

}  // namespace halyard::mpi_shim
