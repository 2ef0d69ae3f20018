// Pairwise-exchange alltoall: in step s (1 .. p-1) send block (r + s) to rank r + s and receive
// block (r - s) from rank r - s. One send and one receive per rank per step keeps every link
// busy without flooding any receiver.
#include <cstring>
#include <memory>

#include "collectives/base/arguments.hpp"
#include "collectives/base/base.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/collective_tag.hpp"

namespace halyard::base {

namespace {

class PairwiseAlltoall final : public StepMachine {
 public:
  PairwiseAlltoall(const Communicator& comm, int tag, const void* send, void* recv,
                   std::size_t block_bytes)
      : StepMachine(comm, tag), send_(send), recv_(recv), block_(block_bytes) {}

 private:
  bool post_next_step() override {
    int p = size();
    int s = step_++;
    if (s >= p) return false;
    int to = (rank() + s) % p;
    int from = (rank() - s + p) % p;
    send(to, byte_at(send_, static_cast<std::size_t>(to) * block_), block_);
    recv(from, byte_at(recv_, static_cast<std::size_t>(from) * block_), block_);
    return true;
  }

  const void* send_;
  void* recv_;
  std::size_t block_;
  int step_ = 1;
};

}  // namespace

Request ialltoall_pairwise(const Communicator& comm, const void* send, void* recv,
                           std::size_t count, Datatype type) {
  const char* operation = "ialltoall_pairwise";
  check_communicator(comm, operation);
  check_datatype(type, operation);
  check_buffer(send, count, "send", operation, false);
  check_buffer(recv, count, "recv", operation, false);
  std::size_t block = checked_bytes(count, type, 1, operation);
  checked_bytes(count, type, static_cast<std::size_t>(comm.size()), operation);
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  std::size_t own = static_cast<std::size_t>(comm.rank()) * block;
  std::memcpy(byte_at(recv, own), byte_at(send, own), block);
  return StepMachine::start(std::make_shared<PairwiseAlltoall>(comm, tag, send, recv, block));
}

}  // namespace halyard::base
