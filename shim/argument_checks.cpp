#include "shim/argument_checks.hpp"

#include "shim/intercomm.hpp"

#include <cstdio>
#include <string>

#include "shim/datatype_table.hpp"
#include "shim/mpi_error.hpp"

namespace halyard::mpi_shim {

namespace {

std::string hex(int handle) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(handle));
  return text;
}

std::string size_note(const Communicator& comm) {
  return " (communicator size " + std::to_string(comm.size()) + ")";
}

}  // namespace

void invalid_count(int count, const char* name) {
  fail(MPI_ERR_COUNT, "invalid " + std::string(name) + " " + std::to_string(count));
}

void invalid_datatype(MPI_Datatype datatype, const char* name) {
  if (datatype == MPI_DATATYPE_NULL)
    fail(MPI_ERR_TYPE, std::string(name) + " is MPI_DATATYPE_NULL");
  fail(MPI_ERR_TYPE, "invalid " + std::string(name) + " " + hex(datatype));
}

void uncommitted_datatype(MPI_Datatype datatype, const char* name) {
  fail(MPI_ERR_TYPE, std::string(name) + " " + hex(datatype) + " is not committed");
}

std::string display_name(const TypeObject& type) {
  return type.name.empty() ? "a derived datatype" : type.name;
}

const OpInfo& checked_op(const OpInfo* info, MPI_Op op, const TypeObject& type,
                         const DatatypeInfo** element) {
  if (info == nullptr) {
    if (op == MPI_OP_NULL) fail(MPI_ERR_OP, "op is MPI_OP_NULL");
    fail(MPI_ERR_OP, "invalid op " + hex(op));
  }
  const DatatypeInfo* single = type.single_element;
  if (single == nullptr && type.size > 0) {
    fail(MPI_ERR_OP, std::string(info->name) + " on " + display_name(type) +
                         ": its elements are of several types, a reduction needs one");
  }
  // An empty type reduces nothing: bytes will do.
  *element = single != nullptr ? single : find_predefined_datatype(MPI_BYTE);
  if (single == nullptr) return *info;
  const OpVerdict verdict = op_verdict(*info, *single);
  if (verdict == OpVerdict::kUndefined) {
    fail(MPI_ERR_OP, std::string(info->name) + " is not defined for " + single->name);
  }
  if (verdict == OpVerdict::kNotComputable) {
    fail(MPI_ERR_OP, std::string(info->name) + " on " + single->name +
                         " is not supported: Halyard has no element type that computes it");
  }
  return *info;
}

void invalid_root(int root, const Communicator& comm) {
  fail(MPI_ERR_ROOT, "invalid root " + std::to_string(root) + size_note(comm));
}

void invalid_buffer(const void* buffer, std::size_t count, const char* name) {
  if (is_in_place(buffer)) {
    fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as " + std::string(name) + " here");
  }
  fail(MPI_ERR_BUFFER, std::string(name) + " is NULL with count " + std::to_string(count));
}

void check_peer(int rank, const Communicator& comm, const char* role, bool any_allowed) {
  if (any_allowed && rank == MPI_ANY_SOURCE) return;
  const Intercomm* inter = intercomm_of(comm);  // its ranks name the remote group
  if (rank < 0 || rank >= (inter != nullptr ? inter->remote_size() : comm.size())) {
    fail(MPI_ERR_RANK,
         "invalid " + std::string(role) + " rank " + std::to_string(rank) + size_note(comm));
  }
}

void check_tag(int tag, bool any_allowed) {
  if (any_allowed && tag == MPI_ANY_TAG) return;
  if (tag < 0) fail(MPI_ERR_TAG, "invalid tag " + std::to_string(tag));
}

void check_out(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is NULL");
}

void fill_status(MPI_Status* status, const Status& completion, int error_class) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = completion.source;
  status->MPI_TAG = completion.tag;
  status->MPI_ERROR = error_class;
  status->halyard_received_bytes = static_cast<long long>(completion.bytes);
  status->halyard_cancelled = 0;
}

void fill_empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->halyard_received_bytes = 0;
  status->halyard_cancelled = 0;
}

}  // namespace halyard::mpi_shim
