#include "shim/datatype_table.hpp"

#include <cstdint>

namespace halyard::mpi_shim {

namespace {

constexpr std::size_t kFirstDerived = HALYARD_MPI_FIRST_DERIVED_DATATYPE;

}  // namespace

DatatypeTable::DatatypeTable() : entries_(kFirstDerived) {
  for (std::size_t index = 1; index < kFirstDerived; ++index) {
    const DatatypeInfo* info =
        find_predefined_datatype(HALYARD_MPI_KIND_DATATYPE | static_cast<int>(index));
    if (info == nullptr) break;
    entries_[index] = predefined_type(*info);
  }
}

MPI_Datatype DatatypeTable::add(std::shared_ptr<TypeObject> type) {
  std::size_t index = entries_.size();
  if (!free_slots_.empty()) {
    index = free_slots_.back();
    free_slots_.pop_back();
    entries_[index] = std::move(type);
  } else {
    entries_.push_back(std::move(type));
  }
  return HALYARD_MPI_KIND_DATATYPE | static_cast<int>(index);
}

void DatatypeTable::remove(MPI_Datatype handle) {
  const std::size_t index = handle_index(handle, HALYARD_MPI_KIND_DATATYPE);
  entries_[index].reset();
  free_slots_.push_back(index);
}

}  // namespace halyard::mpi_shim
