#include "shim/collective_calls.hpp"

#include "collectives/core/validate.hpp"
#include "collectives/post_call.hpp"
#include "shim/mpi_error.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

namespace {

// Set while a blocking MPI collective is on the stack: its call is marked blocking
// (CollArgs::blocking), since it waits for the request at once.
thread_local bool in_blocking_collective = false;

}  // namespace

Block block_of(int count, MPI_Datatype datatype, const char* side) {
  std::string count_name = std::string(side) + "count";
  std::string type_name = std::string(side) + "type";
  std::size_t n = checked_count(count, count_name.c_str());
  const DatatypeInfo& type = checked_datatype(datatype, type_name.c_str());
  std::size_t bytes = bytes_of(n, type);
  return {bytes, count_name + " " + std::to_string(count) + " x " + type.name + " (" +
                     std::to_string(bytes) + " bytes)"};
}

std::size_t matching_block(const Block& send, const Block& recv) {
  if (send.bytes != recv.bytes) {
    fail(MPI_ERR_ARG, send.description + " does not match " + recv.description);
  }
  return send.bytes;
}

std::size_t blocks(std::size_t block, const Communicator& comm) {
  return block * static_cast<std::size_t>(comm.size());
}

ReductionArgs reduction_args(int count, MPI_Datatype datatype, MPI_Op op) {
  std::size_t n = checked_count(count);
  const DatatypeInfo& type = checked_datatype(datatype);
  return {n, type.halyard, checked_op(op, type).halyard};
}

BlockingCollective::BlockingCollective() {
  in_blocking_collective = true;
}

BlockingCollective::~BlockingCollective() {
  in_blocking_collective = false;
}

Request start(core::CollArgs args) {
  core::settle(args);
  args.blocking = in_blocking_collective;
  return post_call(args);
}

void check_request_out(MPI_Request* request) {
  if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
}

void post(MPI_Comm comm, MPI_Request* request, const Request& posted) {
  *request = shim_state().add_request({posted, shim_state().comm(comm).errhandler});
}

}  // namespace halyard::mpi_shim
