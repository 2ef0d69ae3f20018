// node_copy: the exporter sends its notice to every copier and waits for their "done" tokens;
// a copier maps the exporter's buffer, copies, and sends its token.
#include <memory>

#include "collectives/base/step_machine.hpp"
#include "collectives/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/node_operations.hpp"

namespace halyard::device {

namespace {

class NodeCopy final : public base::StepMachine {
 public:
  NodeCopy(const Communicator& node, int tag, DeviceSupport& device, NodeCopyPlan plan,
           const char* operation)
      : StepMachine(node, tag),
        device_(device),
        plan_(std::move(plan)),
        operation_(operation),
        tokens_(plan_.copiers.size()) {}

 protected:
  bool post_next_step() override {
    return rank() == plan_.exporter ? exporter_step() : copier_step();
  }

 private:
  bool exporter_step() {
    if (step_++ > 0) return false;
    notice_.bytes = plan_.bytes;
    notice_.primary = device_.export_buffer(plan_.buffer, plan_.bytes);
    for (std::size_t i = 0; i < plan_.copiers.size(); ++i) {
      send(plan_.copiers[i], &notice_, sizeof notice_);
      recv(plan_.copiers[i], &tokens_[i], sizeof tokens_[i]);
    }
    return true;
  }

  bool copier_step() {
    switch (step_++) {
      case 0:
        await(receive_notice(comm(), plan_.exporter, tag(), notice_, plan_.bytes, operation_));
        return true;
      case 1: {
        void* remote = device_.map_peer_buffer(comm().world_rank(plan_.exporter), notice_.primary);
        await(plan_.pull ? device_.copy(plan_.buffer, remote, plan_.bytes)
                         : device_.copy(remote, plan_.buffer, plan_.bytes));
        return true;
      }
      case 2:
        send(plan_.exporter, &tokens_[0], sizeof tokens_[0]);
        return true;
      default:
        return false;
    }
  }

  DeviceSupport& device_;
  NodeCopyPlan plan_;
  const char* operation_;
  BufferNotice notice_;
  std::vector<unsigned char> tokens_;
  int step_ = 0;
};

bool is_copier(const NodeCopyPlan& plan, int rank) {
  for (int c : plan.copiers) {
    if (c == rank) return true;
  }
  return false;
}

}  // namespace

std::vector<int> all_but(const Communicator& node, int root) {
  std::vector<int> others;
  for (int r = 0; r < node.size(); ++r) {
    if (r != root) others.push_back(r);
  }
  return others;
}

Request node_copy(const Communicator& node, DeviceSupport& device, const NodeCopyPlan& plan,
                  const char* operation) {
  const int tag = next_collective_tag(node);
  const bool involved = node.rank() == plan.exporter || is_copier(plan, node.rank());
  if (!involved || plan.bytes == 0 || plan.copiers.empty()) {
    return Request::make_completed(node.loop(), Status{});
  }
  return base::StepMachine::start(std::make_shared<NodeCopy>(node, tag, device, plan, operation));
}

}  // namespace halyard::device
