#include "shim/collective_calls.hpp"

#include "collectives/core/validate.hpp"
#include "collectives/guard/call_record.hpp"
#include "collectives/post_call.hpp"
#include "runtime/support/fast_tls.hpp"
#include "shim/mpi_error.hpp"
#include "shim/shim_state.hpp"

namespace halyard::mpi_shim {

namespace {

// Set while a blocking MPI collective is on the stack: its call is marked blocking
// (CollArgs::blocking), since it waits for the request at once.
HALYARD_FAST_TLS thread_local bool blocking_collective = false;
// Set while MPI_*_init checks a persistent collective's arguments (CheckingOnly).
HALYARD_FAST_TLS thread_local CheckingOnly* checking_only = nullptr;

}  // namespace

Block block_of(int count, MPI_Datatype datatype, const char* side) {
  const bool send = side[0] == 's';
  std::size_t n = checked_count(count, send ? "sendcount" : "recvcount");
  const TypeObject& type = checked_datatype(datatype, send ? "sendtype" : "recvtype");
  return {n, &type, bytes_of(n, type), side};
}

std::string Block::description() const {
  return std::string(side) + "count " + std::to_string(count) + " x " + display_name(*type) + " (" +
         std::to_string(bytes) + " bytes)";
}

std::size_t matching_block(const Block& send, const Block& recv) {
  if (send.bytes != recv.bytes) {
    fail(MPI_ERR_ARG, send.description() + " does not match " + recv.description());
  }
  return send.bytes;
}

std::size_t blocks(std::size_t block, const Communicator& comm) {
  return block * static_cast<std::size_t>(comm.size());
}

TypedBuffer all_blocks(const void* buf, const Block& block, const Communicator& comm,
                       TypedBuffer::Use use) {
  return {buf, blocks(block.count, comm), *block.type, use};
}

BlockingCollective::BlockingCollective() {
  blocking_collective = true;
}
BlockingCollective::~BlockingCollective() {
  blocking_collective = false;
}
bool in_blocking_collective() {
  return blocking_collective;
}

CheckingOnly::CheckingOnly() {
  checking_only = this;
}
CheckingOnly::~CheckingOnly() {
  checking_only = nullptr;
}
void CheckingOnly::record(const core::CollArgs& settled) {
  if (calls_++ == 0) settled_.emplace(settled);
}
bool in_checking_only() {
  return checking_only != nullptr;
}

Request start(core::CollArgs args) {
  core::settle(args);
  if (in_checking_only()) [[unlikely]] {
    checking_only->record(args);
    return Request::make_completed(args.comm.loop(), {});
  }
  args.blocking = blocking_collective;
  return post_call(args);
}

std::optional<Request> start_laid_out(core::CollArgs args, const BufferLayout* send,
                                      const BufferLayout* recv) {
  if (in_checking_only()) return std::nullopt;  // a persistent call stages: its plan keeps args
  core::settle(args);
  if (!layouts_taken(args)) return std::nullopt;
  args.blocking = blocking_collective;
  args.send_layout = send;
  args.recv_layout = recv;
  return post_call(args);
}

void check_request_out(MPI_Request* request) {
  if (request == nullptr) fail(MPI_ERR_ARG, "request is NULL");
}

void post(MPI_Comm comm, MPI_Request* request, Started started) {
  *request =
      shim_state().add_request({std::move(started.request), shim_state().comm(comm).errhandler,
                                std::move(started.complete)});
}

void wait_for(const Started& started) {
  const Status status = started.request.wait();
  // A blocking MPI collective's end, as the C++ API's blocking calls record it
  // (collectives/guard/call_record.hpp); nothing when no blocking call is pending.
  guard::record_blocking_end(status);
  status.raise_if_failed();
  if (started.complete) started.complete(status);
}

}  // namespace halyard::mpi_shim
