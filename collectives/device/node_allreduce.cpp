// node_allreduce, in five steps:
//   0. every rank sends the notice of its input and receive buffers to every peer;
//   1. each rank reduces its slice (a block partition of the elements): one kernel reads the
//      slice of every rank's input in place and writes the slice of its own receive buffer;
//   2. a token to and from every peer: every slice is reduced (or someone failed);
//   3. each rank copies every other slice from its owner's receive buffer, if all went well;
//   4. tokens again: nobody reads this rank's buffers any more, so it may return.
// Tokens carry each rank's outcome, so a failure anywhere fails every rank and none waits.
// With the input in place (input == recv) step 1 is still safe: rank j writes only slice j of
// its buffer, which no other rank reads before step 2.
#include <memory>
#include <string>
#include <vector>

#include "collectives/base/block_partition.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/device_step_machine.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/device/node_size_limit.hpp"

namespace halyard::device {

namespace {

class NodeAllreduce final : public DeviceStepMachine {
 public:
  NodeAllreduce(const Communicator& node, int tag, DeviceSupport& device,
                const NodeReduction& reduction)
      : DeviceStepMachine(node, tag),
        device_(device),
        r_(reduction),
        element_(datatype_size(reduction.type)),
        slices_(reduction.count, static_cast<std::size_t>(node.size())),
        notices_(static_cast<std::size_t>(node.size())),
        tokens_(static_cast<std::size_t>(node.size()), kTokenFailed),
        inputs_(static_cast<std::size_t>(node.size()), nullptr),
        outputs_(static_cast<std::size_t>(node.size()), nullptr) {}

 protected:
  bool post_next_step() override {
    switch (step_++) {
      case 0:
        exchange_notices();
        return true;
      case 1:
        attempt([&] { reduce_own_slice(); });
        return true;
      case 2:
      case 4:
        exchange_tokens();
        return true;
      case 3:
        check_tokens();
        attempt([&] { copy_other_slices(); });
        return true;
      default:
        check_tokens();
        return false;
    }
  }

 private:
  std::size_t index(int r) const { return static_cast<std::size_t>(r); }
  BufferNotice& notice(int r) { return notices_[index(r)]; }
  std::size_t slice_bytes(int r) const { return slices_.length(index(r)) * element_; }
  std::size_t slice_offset(int r) const { return slices_.offset(index(r)) * element_; }
  // Peers that run this algorithm (even failing): they send and wait for tokens.
  bool takes_part(int r) { return r != rank() && is_from_device_rank(notice(r)); }

  void exchange_notices() {
    BufferNotice& mine = notice(rank());
    mine.bytes = r_.bytes();
    attempt([&] {
      mine.primary = device_.export_buffer(r_.input, r_.bytes());
      mine.secondary = device_.export_buffer(r_.out, r_.bytes());
    });
    mine.ok = failed() ? 0 : 1;
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      send(r, &mine, sizeof mine);
      await_outcome(receive_notice(comm(), r, tag(), notice(r), r_.bytes(), r_.operation));
    }
  }

  void reduce_own_slice() {
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      const int world = comm().world_rank(r);
      inputs_[index(r)] = map_peer(device_, world, notice(r).primary);
      outputs_[index(r)] = map_peer(device_, world, notice(r).secondary);
    }
    inputs_[index(rank())] = r_.input;
    const std::size_t offset = slice_offset(rank());
    if (slice_bytes(rank()) == 0) return;
    std::vector<const void*> slices(index(size()));
    for (int r = 0; r < size(); ++r) {
      slices[index(r)] = static_cast<const std::byte*>(inputs_[index(r)]) + offset;
    }
    await_outcome(device_.reduce(r_.op, r_.type, static_cast<std::byte*>(r_.out) + offset, slices,
                                 slices_.length(index(rank()))));
  }

  void copy_other_slices() {
    for (int r = 0; r < size(); ++r) {
      if (r == rank() || slice_bytes(r) == 0) continue;
      const std::size_t offset = slice_offset(r);
      await_outcome(device_.copy(static_cast<std::byte*>(r_.out) + offset,
                                 static_cast<const std::byte*>(outputs_[index(r)]) + offset,
                                 slice_bytes(r)));
    }
  }

  void exchange_tokens() {
    tokens_[index(rank())] = token();
    for (int r = 0; r < size(); ++r) {
      if (!takes_part(r)) continue;
      send(r, &tokens_[index(rank())], 1);
      recv(r, &tokens_[index(r)], 1);
    }
  }

  void check_tokens() {
    for (int r = 0; r < size(); ++r) {
      if (takes_part(r) && tokens_[index(r)] != kTokenOk) {
        record_failure(peer_failed(r_.operation, r));
      }
    }
  }

  DeviceSupport& device_;
  NodeReduction r_;
  std::size_t element_;
  base::BlockPartition slices_;
  std::vector<BufferNotice> notices_;
  std::vector<unsigned char> tokens_;  // [rank()]: this rank's; the others: received
  std::vector<const void*> inputs_;    // every rank's input, mapped here
  std::vector<void*> outputs_;         // every rank's output, mapped here
  int step_ = 0;
};

}  // namespace

Request node_allreduce(const Communicator& node, DeviceSupport& device,
                       const NodeReduction& reduction) {
  const int tag = next_collective_tag(node);
  if (reduction.count == 0) return Request::make_completed(node.loop(), Status{});
  require_reducible_node(node, reduction.operation);
  return base::StepMachine::launch<NodeAllreduce>(node, tag, device, reduction);
}

}  // namespace halyard::device
