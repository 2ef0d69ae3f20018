// Validation of MPI arguments, before anything reaches Halyard, so that every failure names
// the MPI argument the application passed ("invalid root 7 (communicator size 4)") and carries
// the MPI error class the standard gives it. Each check throws MpiError.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "runtime/communicator.hpp"
#include "runtime/support/error.hpp"
#include "shim/datatype_object.hpp"
#include "shim/datatype_table.hpp"
#include "shim/handle_tables.hpp"

namespace halyard::mpi_shim {

inline bool is_in_place(const void* buffer) {
  return buffer == MPI_IN_PLACE;
}

// The failures of the inline checks below, out of line: the checks are on every call's path,
// and a failure's message building kept them from being inlined (or cost their callers a heavy
// prologue).
[[noreturn]] void invalid_count(int count, const char* name);
[[noreturn]] void invalid_datatype(MPI_Datatype datatype, const char* name);
[[noreturn]] void uncommitted_datatype(MPI_Datatype datatype, const char* name);

// MPI_ERR_COUNT for count < 0; `name` is the argument ("count", "sendcount").
inline std::size_t checked_count(int count, const char* name = "count") {
  if (count < 0) [[unlikely]]
    invalid_count(count, name);
  return static_cast<std::size_t>(count);
}
// Any valid datatype, committed or not (inquiries and constructors).
inline const TypeObject& checked_any_datatype(MPI_Datatype datatype,
                                              const char* name = "datatype") {
  if (const TypeObject* type = datatype_table().find(datatype)) [[likely]]
    return *type;
  invalid_datatype(datatype, name);
}
// A datatype to communicate with: MPI_ERR_TYPE for a null, freed or unknown handle, or a derived
// type not yet committed.
inline const TypeObject& checked_datatype(MPI_Datatype datatype, const char* name = "datatype") {
  const TypeObject& type = checked_any_datatype(datatype, name);
  if (!type.committed) [[unlikely]]
    uncommitted_datatype(datatype, name);
  return type;
}
// MPI_ERR_OP for a null or unknown handle, or an op MPI does not define on `type`, or one Halyard
// cannot compute (no element type of its own, or a map that mixes element types).
// `info` is find_op(op), found by the caller. Returns the op; `element` is set to the predefined
// element the reduction computes in.
const OpInfo& checked_op(const OpInfo* info, MPI_Op op, const TypeObject& type,
                         const DatatypeInfo** element);
// "MPI_INT", or "a derived datatype" for one without a name.
std::string display_name(const TypeObject& type);
// MPI_ERR_ROOT unless 0 <= root < size.
[[noreturn, gnu::cold]] void invalid_root(int root, const Communicator& comm);
// Inline, with the message built out of line: every rooted call checks its root.
inline void check_root(int root, const Communicator& comm) {
  if (root < 0 || root >= comm.size()) [[unlikely]]
    invalid_root(root, comm);
}
// MPI_ERR_BUFFER for a null buffer holding `count` > 0 elements, or MPI_IN_PLACE where the call
// does not allow it.
[[noreturn]] void invalid_buffer(const void* buffer, std::size_t count, const char* name);
inline void check_buffer(const void* buffer, std::size_t count, const char* name,
                         bool in_place_allowed = false) {
  if ((is_in_place(buffer) && !in_place_allowed) || (buffer == nullptr && count > 0)) [[unlikely]]
    invalid_buffer(buffer, count, name);
}
// The same for a buffer of `type`: a null buffer passes as MPI_BOTTOM when the type is derived
// and its data does not start at displacement 0 (its displacements are addresses).
inline void check_buffer(const void* buffer, std::size_t count, const TypeObject& type,
                         const char* name, bool in_place_allowed = false) {
  if (buffer == MPI_BOTTOM && !type.predefined && type.true_lb != 0) return;
  check_buffer(buffer, count, name, in_place_allowed);
}
// MPI_ERR_RANK unless 0 <= rank < size (or MPI_ANY_SOURCE where allowed); `role` is
// "destination" or "source".
void check_peer(int rank, const Communicator& comm, const char* role, bool any_allowed);
// MPI_ERR_TAG for a negative tag (MPI_ANY_TAG where allowed).
void check_tag(int tag, bool any_allowed);
// MPI_ERR_ARG for a NULL output argument; `name` is the argument ("newcomm").
void check_out(const void* pointer, const char* name);

inline constexpr int kProcNull = MPI_PROC_NULL;

// The byte count of `count` elements of `type` (packed).
inline std::size_t bytes_of(std::size_t count, const TypeObject& type) {
  return count * type.size;
}

// Fills an MPI_Status (unless it is MPI_STATUS_IGNORE) from a Halyard completion.
void fill_status(MPI_Status* status, const Status& completion, int error_class);
// The status MPI gives an empty or null request.
void fill_empty_status(MPI_Status* status);

}  // namespace halyard::mpi_shim
