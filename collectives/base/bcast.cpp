// Linear and binomial broadcast.
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/base/binomial_tree.hpp"
#include "collectives/base/rank_list.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"

namespace halyard::base {

namespace {

// Step 0: receive from the parent (not at the root). Step 1: send to the children. `children`
// is already in the order to feed them.
class TreeBcast final : public StepMachine {
 public:
  TreeBcast(const Communicator& comm, int tag, void* buffer, std::size_t bytes, int parent,
            RankList children)
      : StepMachine(comm, tag),
        buffer_(buffer),
        bytes_(bytes),
        parent_(parent),
        children_(std::move(children)) {}

 private:
  bool post_next_step() override {
    switch (step_++) {
      case 0:
        if (parent_ >= 0) recv(parent_, buffer_, bytes_);
        return true;
      case 1:
        for (int child : children_) send(child, buffer_, bytes_);
        return true;
      default:
        return false;
    }
  }

  void* buffer_;
  std::size_t bytes_;
  int parent_;
  RankList children_;
  int step_ = 0;
};

Request start_bcast(const Communicator& comm, void* buffer, std::size_t bytes, int parent,
                    RankList children) {
  int tag = next_collective_tag(comm);
  if (bytes == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<TreeBcast>(comm, tag, buffer, bytes, parent, std::move(children));
}

}  // namespace

Request ibcast_linear(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                      int root) {
  const std::size_t bytes = count * datatype_size(type);
  RankList children;
  if (comm.rank() == root) {
    for (int r = 0; r < comm.size(); ++r) {
      if (r != root) children.push_back(r);
    }
  }
  return start_bcast(comm, buffer, bytes, comm.rank() == root ? -1 : root, std::move(children));
}

Request ibcast_binomial(const Communicator& comm, void* buffer, std::size_t count, Datatype type,
                        int root) {
  const std::size_t bytes = count * datatype_size(type);
  BinomialTree tree(comm.rank(), comm.size(), root);
  // Biggest subtree first: its leaves are the farthest away.
  return start_bcast(comm, buffer, bytes, tree.parent, tree.children.reversed());
}

}  // namespace halyard::base
