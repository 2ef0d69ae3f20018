// The handles of MPI datatypes: predefined types at the indices mpi.h gives them, derived ones
// from HALYARD_MPI_FIRST_DERIVED_DATATYPE up, so that new predefined types never move a derived
// handle. Objects are shared: a type being freed lives on while a pending operation or another
// type's constructor record still uses it, as MPI requires.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "shim/datatype_object.hpp"
#include "shim/handle_bits.hpp"

namespace halyard::mpi_shim {

class DatatypeTable {
 public:
  DatatypeTable();
  // Null for MPI_DATATYPE_NULL, a freed or unknown handle, or a handle of another kind. Inline:
  // every call that moves data asks.
  TypeObject* find(MPI_Datatype handle) const {
    const std::size_t index = handle_index(handle, HALYARD_MPI_KIND_DATATYPE);
    return index < entries_.size() ? entries_[index].get() : nullptr;
  }
  MPI_Datatype add(std::shared_ptr<TypeObject> type);
  // Frees a derived type's handle (the object lives on while it is used).
  void remove(MPI_Datatype handle);

 private:
  std::vector<std::shared_ptr<TypeObject>> entries_;  // index = handle's low bits
  std::vector<std::size_t> free_slots_;
};

inline DatatypeTable& datatype_table() {
  static DatatypeTable table;
  return table;
}

}  // namespace halyard::mpi_shim
