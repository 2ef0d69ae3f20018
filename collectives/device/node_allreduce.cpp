// node_allreduce, in five steps:
//   0. every rank sends the notice of its input and receive buffers to every peer;
//   1. each rank reduces its slice (a block partition of the elements): one kernel reads the
//      slice of every rank's input in place and writes the slice of its own receive buffer;
//   2. a token to and from every peer: every slice is reduced;
//   3. each rank copies every other slice from its owner's receive buffer;
//   4. tokens again: nobody reads this rank's buffers any more, so it may return.
// With the input in place (input == recv) step 1 is still safe: rank j writes only slice j of
// its buffer, which no other rank reads before step 2.
#include <memory>
#include <string>
#include <vector>

#include "collectives/base/block_partition.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/device/node_size_limit.hpp"

namespace halyard::device {

namespace {

class NodeAllreduce final : public base::StepMachine {
 public:
  NodeAllreduce(const Communicator& node, int tag, DeviceSupport& device,
                const NodeReduction& reduction)
      : StepMachine(node, tag),
        device_(device),
        r_(reduction),
        element_(datatype_size(reduction.type)),
        slices_(reduction.count, static_cast<std::size_t>(node.size())),
        notices_(static_cast<std::size_t>(node.size())),
        tokens_(static_cast<std::size_t>(node.size())) {}

 protected:
  bool post_next_step() override {
    switch (step_++) {
      case 0:
        exchange_notices();
        return true;
      case 1:
        reduce_own_slice();
        return true;
      case 2:
      case 4:
        exchange_tokens();
        return true;
      case 3:
        copy_other_slices();
        return true;
      default:
        return false;
    }
  }

 private:
  std::size_t slice_begin(int r) const { return slices_.offset(static_cast<std::size_t>(r)); }
  std::size_t slice_count(int r) const { return slices_.length(static_cast<std::size_t>(r)); }
  BufferNotice& notice(int r) { return notices_[static_cast<std::size_t>(r)]; }
  const std::byte* input_of(int r) {
    return static_cast<const std::byte*>(r == rank() ? r_.input
                                                     : inputs_[static_cast<std::size_t>(r)]);
  }

  void exchange_notices() {
    const std::size_t bytes = r_.bytes();
    BufferNotice& mine = notice(rank());
    mine.bytes = bytes;
    mine.primary = device_.export_buffer(r_.input, bytes);
    mine.secondary = device_.export_buffer(r_.out, bytes);
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      send(r, &mine, sizeof mine);
      await(receive_notice(comm(), r, tag(), notice(r), bytes, r_.operation));
    }
  }

  void reduce_own_slice() {
    inputs_.assign(static_cast<std::size_t>(size()), nullptr);
    remote_recv_.assign(static_cast<std::size_t>(size()), nullptr);
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      const int world = comm().world_rank(r);
      inputs_[static_cast<std::size_t>(r)] = device_.map_peer_buffer(world, notice(r).primary);
      remote_recv_[static_cast<std::size_t>(r)] =
          device_.map_peer_buffer(world, notice(r).secondary);
    }
    const std::size_t n = slice_count(rank());
    if (n == 0) return;
    const std::size_t offset = slice_begin(rank()) * element_;
    std::vector<const void*> slices(static_cast<std::size_t>(size()));
    for (int r = 0; r < size(); ++r) slices[static_cast<std::size_t>(r)] = input_of(r) + offset;
    await(device_.reduce(r_.op, r_.type, static_cast<std::byte*>(r_.out) + offset, slices, n));
  }

  void copy_other_slices() {
    for (int r = 0; r < size(); ++r) {
      const std::size_t n = slice_count(r);
      if (r == rank() || n == 0) continue;
      const std::size_t offset = slice_begin(r) * element_;
      await(device_.copy(
          static_cast<std::byte*>(r_.out) + offset,
          static_cast<const std::byte*>(remote_recv_[static_cast<std::size_t>(r)]) + offset,
          n * element_));
    }
  }

  void exchange_tokens() {
    for (int r = 0; r < size(); ++r) {
      if (r == rank()) continue;
      send(r, &tokens_[static_cast<std::size_t>(rank())], 1);
      recv(r, &tokens_[static_cast<std::size_t>(r)], 1);
    }
  }

  DeviceSupport& device_;
  NodeReduction r_;
  std::size_t element_;
  base::BlockPartition slices_;
  std::vector<BufferNotice> notices_;
  std::vector<unsigned char> tokens_;
  std::vector<const void*> inputs_;  // peers' inputs, mapped here
  std::vector<void*> remote_recv_;   // peers' receive buffers, mapped here
  int step_ = 0;
};

}  // namespace

Request node_allreduce(const Communicator& node, DeviceSupport& device,
                       const NodeReduction& reduction) {
  const int tag = next_collective_tag(node);
  if (reduction.count == 0) return Request::make_completed(node.loop(), Status{});
  require_reducible_node(node, reduction.operation);
  return base::StepMachine::start(std::make_shared<NodeAllreduce>(node, tag, device, reduction));
}

}  // namespace halyard::device
