// Linear and binomial reduce: both are a tree reduction, with different trees.
#include <cstring>
#include <memory>

#include "collectives/base/base.hpp"
#include "collectives/base/binomial_tree.hpp"
#include "collectives/base/rank_list.hpp"
#include "collectives/base/small_buffer.hpp"
#include "collectives/base/step_machine.hpp"
#include "collectives/core/collective_tag.hpp"
#include "collectives/core/in_place.hpp"
#include "runtime/datatypes/custom_op.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::base {

namespace {

// acc = own contribution; for each child in order: acc = acc (op) child's partial result, or
// child's (op) acc for a child below this rank; then acc goes to the parent. Two receive buffers
// let the message of child k arrive while child k-1's data is being reduced. When acc and each
// child's result cover contiguous, adjacent ranges of ranks (linear from any root; binomial
// rooted at rank 0, which then sends the result to the real root), this combines in rank
// order, as a non-commutative op needs.
class TreeReduce final : public StepMachine {
 public:
  TreeReduce(const Communicator& comm, int tag, const void* send, void* recv, std::size_t count,
             Datatype type, Op op, int parent, RankList children, int result_from)
      : StepMachine(comm, tag),
        recv_(recv),
        count_(count),
        bytes_(count * datatype_size(type)),
        type_(type),
        op_(op),
        parent_(parent),
        children_(std::move(children)),
        result_from_(result_from) {
    bool in_place = core::is_in_place(send);
    const void* own = in_place ? recv : send;  // kInPlace: the root's data is in recv
    if (parent_ < 0) {
      acc_ = recv;  // the root accumulates in the caller's receive buffer
      if (!in_place) std::memcpy(acc_, send, bytes_);
    } else if (!children_.empty()) {
      own_acc_.allocate(bytes_);
      acc_ = own_acc_.data();
      std::memcpy(acc_, own, bytes_);
    } else {
      acc_ = const_cast<void*>(own);  // a leaf only sends its contribution
    }
    for (std::size_t i = 0; i < std::min<std::size_t>(children_.size(), 2); ++i) {
      incoming_[i].allocate(bytes_);
    }
  }

 private:
  bool post_next_step() override {
    std::size_t k = step_++;
    const std::size_t last = children_.size() + (result_from_ >= 0 ? 1 : 0);
    if (k > last) return false;
    if (k < children_.size()) recv(children_[k], incoming_[k % 2].data(), bytes_);
    if (k > 0 && k <= children_.size()) combine_child(k - 1);
    if (k == children_.size() && parent_ >= 0) send(parent_, acc_, bytes_);
    // After its part went up the tree, a root that is not the tree's gets the result.
    if (k == children_.size() + 1) recv(result_from_, recv_, bytes_);
    return true;
  }

  void combine_child(std::size_t k) {
    const void* incoming = incoming_[k % 2].data();
    if (children_[k] < rank()) {
      reduce_to(op_, type_, acc_, incoming, acc_, count_);
    } else {
      reduce_into(op_, type_, acc_, incoming, count_);
    }
  }

  void* recv_;
  std::size_t count_;
  std::size_t bytes_;
  Datatype type_;
  Op op_;
  int parent_;
  RankList children_;
  int result_from_;  // the rank the result comes from when the tree is rooted elsewhere, or -1
  void* acc_ = nullptr;
  SmallBuffer<256> own_acc_;
  SmallBuffer<256> incoming_[2];
  std::size_t step_ = 0;
};

struct ReduceShape {
  int parent;
  RankList children;
  int result_from = -1;
};

Request start_reduce(const Communicator& comm, const void* send, void* recv, std::size_t count,
                     Datatype type, Op op, ReduceShape shape) {
  int tag = next_collective_tag(comm);
  if (count == 0) return Request::make_completed(comm.loop(), Status{});
  return StepMachine::launch<TreeReduce>(comm, tag, send, recv, count, type, op, shape.parent,
                                         std::move(shape.children), shape.result_from);
}

}  // namespace

Request ireduce_linear(const Communicator& comm, const void* send, void* recv, std::size_t count,
                       Datatype type, Op op, int root) {
  ReduceShape shape{root, {}};
  if (comm.rank() == root) {
    // Upwards from the root, then downwards below it: acc always covers a contiguous range of
    // ranks, so the reduction runs in rank order.
    shape.parent = -1;
    for (int r = root + 1; r < comm.size(); ++r) shape.children.push_back(r);
    for (int r = root - 1; r >= 0; --r) shape.children.push_back(r);
  }
  return start_reduce(comm, send, recv, count, type, op, std::move(shape));
}

Request ireduce_binomial(const Communicator& comm, const void* send, void* recv, std::size_t count,
                         Datatype type, Op op, int root) {
  if (op_is_commutative(op) || root == 0) {
    BinomialTree tree(comm.rank(), comm.size(), root);
    return start_reduce(comm, send, recv, count, type, op,
                        ReduceShape{tree.parent, std::move(tree.children)});
  }
  // A non-commutative op: the tree rooted at rank 0, whose subtrees are contiguous ranges of
  // ranks with the children in increasing order (rank order), then rank 0 hands the result to
  // the root: one more message for a log p tree instead of the linear reduce's p - 1 at the root.
  BinomialTree tree(comm.rank(), comm.size(), 0);
  ReduceShape shape{tree.parent, std::move(tree.children)};
  if (comm.rank() == 0) shape.parent = root;
  if (comm.rank() == root) shape.result_from = 0;
  return start_reduce(comm, send, recv, count, type, op, std::move(shape));
}

}  // namespace halyard::base
