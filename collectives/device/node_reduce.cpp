// node_reduce: every non-root rank sends the notice of its input to the root and waits for the
// root's token; the root maps every input, runs one kernel over all of them, then releases the
// peers with a token each (which says whether the reduction worked).
#include <memory>
#include <string>
#include <vector>

#include "collectives/core/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/device_step_machine.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/device/node_size_limit.hpp"

namespace halyard::device {

namespace {

class NodeReduce final : public DeviceStepMachine {
 public:
  NodeReduce(const Communicator& node, int tag, DeviceSupport& device, int root,
             const NodeReduction& reduction)
      : DeviceStepMachine(node, tag),
        device_(device),
        root_(root),
        r_(reduction),
        notices_(static_cast<std::size_t>(node.size())),
        tokens_(static_cast<std::size_t>(node.size()), kTokenFailed) {}

 protected:
  bool post_next_step() override { return rank() == root_ ? root_step() : peer_step(); }

 private:
  BufferNotice& notice(int r) { return notices_[static_cast<std::size_t>(r)]; }

  bool peer_step() {
    BufferNotice& mine = notice(rank());
    switch (step_++) {
      case 0:
        mine.bytes = r_.bytes();
        attempt([&] { mine.primary = device_.export_buffer(r_.input, r_.bytes()); });
        mine.ok = failed() ? 0 : 1;
        send(root_, &mine, sizeof mine);
        if (mine.ok) recv(root_, &tokens_[0], 1);  // the root answers exported inputs only
        return true;
      default:
        if (mine.ok && tokens_[0] != kTokenOk) record_failure(peer_failed(r_.operation, root_));
        return false;
    }
  }

  bool root_step() {
    switch (step_++) {
      case 0:
        for (int r = 0; r < size(); ++r) {
          if (r != root_) {
            await_outcome(receive_notice(comm(), r, tag(), notice(r), r_.bytes(), r_.operation));
          }
        }
        return true;
      case 1:
        attempt([&] {
          std::vector<const void*> inputs(static_cast<std::size_t>(size()));
          for (int r = 0; r < size(); ++r) {
            inputs[static_cast<std::size_t>(r)] =
                r == root_ ? r_.input : map_peer(device_, comm().world_rank(r), notice(r).primary);
          }
          await_outcome(device_.reduce(r_.op, r_.type, r_.out, inputs, r_.count));
        });
        return true;
      case 2:
        tokens_[static_cast<std::size_t>(root_)] = token();
        for (int r = 0; r < size(); ++r) {
          if (r != root_ && is_from_device_rank(notice(r)) && notice(r).ok) {
            send(r, &tokens_[static_cast<std::size_t>(root_)], 1);
          }
        }
        return true;
      default:
        return false;
    }
  }

  DeviceSupport& device_;
  int root_;
  NodeReduction r_;
  std::vector<BufferNotice> notices_;
  std::vector<unsigned char> tokens_;
  int step_ = 0;
};

}  // namespace

void require_reducible_node(const Communicator& node, const char* operation) {
  if (static_cast<std::size_t>(node.size()) > DeviceSupport::kMaxReductionInputs) {
    throw Error(ErrorCode::kUnsupported,
                std::string(operation) + ": device reductions over more than " +
                    std::to_string(DeviceSupport::kMaxReductionInputs) +
                    " ranks of one node are not supported (this node has " +
                    std::to_string(node.size()) + ")");
  }
}

Request node_reduce(const Communicator& node, DeviceSupport& device, int root,
                    const NodeReduction& reduction) {
  const int tag = next_collective_tag(node);
  if (reduction.count == 0) return Request::make_completed(node.loop(), Status{});
  require_reducible_node(node, reduction.operation);
  return base::StepMachine::launch<NodeReduce>(node, tag, device, root, reduction);
}

}  // namespace halyard::device
