// Linear gatherv and scatterv: the root talks to every rank directly, all messages at once, each
// block at its own count and displacement. Empty blocks send no message (both sides know the
// count, as MPI requires).
#include <cstring>
#include <utility>

#include "collectives/base/base.hpp"
#include "collectives/base/block_layout.hpp"
#include "collectives/base/byte_span.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"

namespace halyard::base {

namespace {

// One step: at the root a receive (gatherv) or send (scatterv) per other rank with its block of
// `blocks` as `layout` places it; elsewhere one send (gatherv) or receive (scatterv) of `mine`.
class LinearRootExchangeV final : public StepMachine {
 public:
  LinearRootExchangeV(const Communicator& comm, int tag, int root, bool gather, void* blocks,
                      BlockLayout layout, void* mine, std::size_t mine_bytes)
      : StepMachine(comm, tag),
        root_(root),
        gather_(gather),
        blocks_(blocks),
        layout_(std::move(layout)),
        mine_(mine),
        mine_bytes_(mine_bytes) {}

 private:
  bool post_next_step() override {
    if (done_) return false;
    done_ = true;
    if (rank() != root_) {
      if (mine_bytes_ == 0) return true;
      if (gather_) {
        send(root_, mine_, mine_bytes_);
      } else {
        recv(root_, mine_, mine_bytes_);
      }
      return true;
    }
    for (int r = 0; r < size(); ++r) {
      if (r == root_ || layout_.bytes(r) == 0) continue;
      std::byte* block = byte_at(blocks_, layout_.offset(r));
      if (gather_) {
        recv(r, block, layout_.bytes(r));
      } else {
        send(r, block, layout_.bytes(r));
      }
    }
    return true;
  }

  int root_;
  bool gather_;
  void* blocks_;
  BlockLayout layout_;  // the root's only
  void* mine_;
  std::size_t mine_bytes_;
  bool done_ = false;
};

// The root's layout of its blocks; other ranks' counts are not significant (and may be null).
BlockLayout root_layout(const Communicator& comm, int root, const std::size_t* counts,
                        const std::size_t* displacements, Datatype type) {
  if (comm.rank() != root) return {};
  return BlockLayout(comm.size(), counts, displacements, datatype_size(type));
}

}  // namespace

Request igatherv_linear(const Communicator& comm, const void* send, std::size_t count, void* recv,
                        const std::size_t* counts, const std::size_t* displacements, Datatype type,
                        int root) {
  int tag = next_collective_tag(comm);
  BlockLayout layout = root_layout(comm, root, counts, displacements, type);
  if (comm.rank() == root && !core::is_in_place(send) && layout.bytes(root) != 0) {
    std::memcpy(byte_at(recv, layout.offset(root)), send, layout.bytes(root));
  }
  // Sends only read from `mine`; the const_cast keeps one machine for both directions.
  return StepMachine::launch<LinearRootExchangeV>(comm, tag, root, true, recv, std::move(layout),
                                                  const_cast<void*>(send),
                                                  count * datatype_size(type));
}

Request iscatterv_linear(const Communicator& comm, const void* send, const std::size_t* counts,
                         const std::size_t* displacements, void* recv, std::size_t count,
                         Datatype type, int root) {
  int tag = next_collective_tag(comm);
  BlockLayout layout = root_layout(comm, root, counts, displacements, type);
  if (comm.rank() == root && !core::is_in_place(recv) && layout.bytes(root) != 0) {
    std::memcpy(recv, byte_at(send, layout.offset(root)), layout.bytes(root));
  }
  return StepMachine::launch<LinearRootExchangeV>(comm, tag, root, false, const_cast<void*>(send),
                                                  std::move(layout), recv,
                                                  count * datatype_size(type));
}

}  // namespace halyard::base
