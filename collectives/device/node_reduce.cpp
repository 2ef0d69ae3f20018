// node_reduce: every non-root rank sends the notice of its input to the root and waits for the
// root's token; the root maps every input, runs one kernel over all of them, then releases the
// peers with a token each.
#include <memory>
#include <string>
#include <vector>

#include "collectives/base/step_machine.hpp"
#include "collectives/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/node_operations.hpp"
#include "collectives/device/node_size_limit.hpp"

namespace halyard::device {

namespace {

class NodeReduce final : public base::StepMachine {
 public:
  NodeReduce(const Communicator& node, int tag, DeviceSupport& device, int root,
             const NodeReduction& reduction)
      : StepMachine(node, tag),
        device_(device),
        root_(root),
        r_(reduction),
        notices_(static_cast<std::size_t>(node.size())),
        tokens_(static_cast<std::size_t>(node.size())) {}

 protected:
  bool post_next_step() override { return rank() == root_ ? root_step() : peer_step(); }

 private:
  bool peer_step() {
    if (step_++ > 0) return false;
    BufferNotice& mine = notices_[static_cast<std::size_t>(rank())];
    mine.bytes = r_.bytes();
    mine.primary = device_.export_buffer(r_.input, r_.bytes());
    send(root_, &mine, sizeof mine);
    recv(root_, &tokens_[0], 1);
    return true;
  }

  bool root_step() {
    switch (step_++) {
      case 0:
        for (int r = 0; r < size(); ++r) {
          if (r == root_) continue;
          await(receive_notice(comm(), r, tag(), notices_[static_cast<std::size_t>(r)], r_.bytes(),
                               r_.operation));
        }
        return true;
      case 1: {
        std::vector<const void*> inputs(static_cast<std::size_t>(size()));
        for (int r = 0; r < size(); ++r) {
          inputs[static_cast<std::size_t>(r)] =
              r == root_ ? r_.input
                         : device_.map_peer_buffer(comm().world_rank(r),
                                                   notices_[static_cast<std::size_t>(r)].primary);
        }
        await(device_.reduce(r_.op, r_.type, r_.out, inputs, r_.count));
        return true;
      }
      case 2:
        for (int r = 0; r < size(); ++r) {
          if (r != root_) send(r, &tokens_[static_cast<std::size_t>(r)], 1);
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
  return base::StepMachine::start(std::make_shared<NodeReduce>(node, tag, device, root, reduction));
}

}  // namespace halyard::device
