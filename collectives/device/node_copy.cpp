// node_copy: the exporter sends its notice to every copier and waits for their tokens; a copier
// maps the exporter's buffer, copies, and sends its token. A failure on either side travels in
// the notice's ok flag or the token, so no rank waits for a message that will not come.
#include <memory>
#include <string>

#include "collectives/core/collective_tag.hpp"
#include "collectives/device/buffer_notice.hpp"
#include "collectives/device/device_step_machine.hpp"
#include "collectives/device/node_operations.hpp"

namespace halyard::device {

namespace {

class NodeCopy final : public DeviceStepMachine {
 public:
  NodeCopy(const Communicator& node, int tag, DeviceSupport& device, NodeCopyPlan plan,
           const char* operation)
      : DeviceStepMachine(node, tag),
        device_(device),
        plan_(std::move(plan)),
        operation_(operation),
        tokens_(plan_.copiers.size(), kTokenFailed) {
    if (plan_.failed_elsewhere) {
      record_failure(Status::failure(ErrorCode::kTransport,
                                     std::string(operation) + ": the collective failed on another "
                                                              "node (its ranks' errors say why)"));
    }
  }

 protected:
  bool post_next_step() override {
    return rank() == plan_.exporter ? exporter_step() : copier_step();
  }

 private:
  bool exporter_step() {
    switch (step_++) {
      case 0:
        notice_.bytes = plan_.bytes;
        attempt([&] { notice_.primary = device_.export_buffer(plan_.buffer, plan_.bytes); });
        notice_.ok = failed() ? 0 : 1;
        for (std::size_t i = 0; i < plan_.copiers.size(); ++i) {
          send(plan_.copiers[i], &notice_, sizeof notice_);
          // A copier answers only a notice that exported something.
          if (notice_.ok) recv(plan_.copiers[i], &tokens_[i], 1);
        }
        return true;
      case 1:
        for (std::size_t i = 0; i < plan_.copiers.size() && notice_.ok; ++i) {
          if (tokens_[i] != kTokenOk) record_failure(peer_failed(operation_, plan_.copiers[i]));
        }
        return false;
      default:
        return false;
    }
  }

  bool copier_step() {
    switch (step_++) {
      case 0:
        await_outcome(
            receive_notice(comm(), plan_.exporter, tag(), notice_, plan_.bytes, operation_));
        return true;
      case 1:
        attempt([&] {
          void* remote = map_peer(device_, comm().world_rank(plan_.exporter), notice_.primary);
          await_outcome(plan_.pull ? device_.copy(plan_.buffer, remote, plan_.bytes)
                                   : device_.copy(remote, plan_.buffer, plan_.bytes));
        });
        return true;
      case 2:
        my_token_ = token();
        if (is_from_device_rank(notice_) && notice_.ok) send(plan_.exporter, &my_token_, 1);
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
  unsigned char my_token_ = kTokenFailed;
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
  return base::StepMachine::launch<NodeCopy>(node, tag, device, plan, operation);
}

}  // namespace halyard::device
