// Linear gather and scatter: the root talks to every rank directly, all messages at once.
#include <cstring>
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::base {

namespace {

// One step: at the root a receive (gather) or send (scatter) per other rank with its block of
// `blocks`; elsewhere one send (gather) or receive (scatter) of `mine`.
class LinearRootExchange final : public StepMachine {
 public:
  LinearRootExchange(const Communicator& comm, int tag, int root, bool gather, void* blocks,
                     void* mine, std::size_t block_bytes)
      : StepMachine(comm, tag),
        root_(root),
        gather_(gather),
        blocks_(blocks),
        mine_(mine),
        block_(block_bytes) {}

 private:
  bool post_next_step() override {
    if (done_) return false;
    done_ = true;
    if (rank() == root_) {
      for (int r = 0; r < size(); ++r) {
        if (r == root_) continue;
        std::byte* block = byte_at(blocks_, static_cast<std::size_t>(r) * block_);
        if (gather_) {
          recv(r, block, block_);
        } else {
          send(r, block, block_);
        }
      }
    } else if (gather_) {
      send(root_, mine_, block_);
    } else {
      recv(root_, mine_, block_);
    }
    return true;
  }

  int root_;
  bool gather_;
  void* blocks_;
  void* mine_;
  std::size_t block_;
  bool done_ = false;
};

}  // namespace

Request igather_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, int root) {
  const bool is_root = comm.rank() == root;
  const std::size_t block = count * datatype_size(type);
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  if (is_root && !core::is_in_place(send)) {
    std::memcpy(byte_at(recv, static_cast<std::size_t>(root) * block), send, block);
  }
  return StepMachine::launch<LinearRootExchange>(comm, tag, root, true, recv,
                                                 const_cast<void*>(send), block);
}

Request iscatter_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                        Datatype type, int root) {
  const bool is_root = comm.rank() == root;
  const std::size_t block = count * datatype_size(type);
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  if (is_root && !core::is_in_place(recv)) {
    std::memcpy(recv, byte_at(send, static_cast<std::size_t>(root) * block), block);
  }
  // Sends only read from the blocks; the const_cast keeps one machine for both directions.
  return StepMachine::launch<LinearRootExchange>(comm, tag, root, false, const_cast<void*>(send),
                                                 recv, block);
}

}  // namespace halyard::base
