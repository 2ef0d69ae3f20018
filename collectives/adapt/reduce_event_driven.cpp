// ADAPT's event-driven reduce: the broadcast's building block run upwards.
//
// Per child, up to M receives are posted, each into its own temporary segment slot. When one
// completes, its data is reduced into the segment's accumulator at once (in the callback, no
// waiting for the siblings) and the slot takes the child's next receive. A segment is ready
// when every child's contribution has been folded in; ready segments go to the parent in
// increasing order (one tag per call: the parent's receives from a child match in posting
// order), up to N in flight. The root accumulates straight into `recv`.
//
// Accumulators: the root uses `recv`; an intermediate rank one buffer the size of the message,
// because a fast child may run up to the end of the message while a slow sibling is still at
// the start; a leaf sends its own data untouched.
//
// Completion and failure follow the engine contract (collectives/core/collective_engine.hpp):
// a failure stops the posting, withdraws the receives still waiting for the children, and the
// request completes only once every posted receive and send has drained (the slots and the
// accumulator live as long as the machine).
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/core/collective_engine.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::adapt {
namespace {

class EventDrivenReduce : public core::CollectiveEngine {
 public:
  EventDrivenReduce(const CallPlan& plan, const ReduceOperands& operands)
      : CollectiveEngine(plan.comm, plan.tag),
        plan_(plan),
        operands_(operands),
        arrived_(plan.segments.num_segments, 0),
        ready_(plan.segments.num_segments, 0) {}

  Request start() {
    const Segmentation& seg = plan_.segments;
    const std::size_t segments = seg.num_segments;
    if (plan_.children.empty()) {
      // A leaf (or a lone root) has nothing to wait for: its own data is every segment.
      outgoing_ = operands_.own;
      if (plan_.parent < 0 && operands_.recv != operands_.own && seg.count > 0) {
        std::memcpy(operands_.recv, operands_.own, seg.count * seg.element_size);
      }
      ready_prefix_ = segments;
      ready_count_ = segments;
    } else {
      if (plan_.parent < 0) {
        accumulator_ = operands_.recv;
      } else {
        owned_accumulator_ =
            std::make_unique_for_overwrite<std::byte[]>(seg.count * seg.element_size);
        accumulator_ = owned_accumulator_.get();
      }
      outgoing_ = accumulator_;
      const std::size_t slots =
          std::min<std::size_t>(static_cast<std::size_t>(plan_.recvs_in_flight), segments);
      for (int rank : plan_.children) {
        ChildInput child;
        child.rank = rank;
        child.slot_memory =
            std::make_unique_for_overwrite<std::byte[]>(slots * seg.max_segment_bytes());
        for (std::size_t i = slots; i > 0; --i) child.free_slots.push_back(i - 1);
        children_.push_back(std::move(child));
      }
      for (std::size_t c = 0; c < children_.size(); ++c) post_child_receives(c);
    }
    pump_parent();
    complete_if_finished();
    return launched();
  }

 private:
  struct ChildInput {
    int rank = -1;
    std::size_t next_segment = 0;  // the next segment to post a receive for
    std::unique_ptr<std::byte[]> slot_memory;
    std::vector<std::size_t> free_slots;
  };

  std::byte* slot(ChildInput& child, std::size_t index) const {
    return child.slot_memory.get() + index * plan_.segments.max_segment_bytes();
  }

  void post_child_receives(std::size_t c) {
    ChildInput& child = children_[c];
    while (!stopping() && !child.free_slots.empty() &&
           child.next_segment < plan_.segments.num_segments) {
      const std::size_t s = child.next_segment++;
      const std::size_t index = child.free_slots.back();
      child.free_slots.pop_back();
      track();
      plan_.comm.irecv_internal(child.rank, plan_.tag, slot(child, index), plan_.segments.bytes(s),
                                [self = keep_alive(this), c, s, index](const Status& status) {
                                  self->on_contribution(c, s, index, status);
                                });
    }
  }

  void on_contribution(std::size_t c, std::size_t s, std::size_t index, const Status& status) {
    settle(status);
    const Segmentation& seg = plan_.segments;
    if (status.ok() && status.bytes != seg.bytes(s)) {
      abort(Status::failure(ErrorCode::kInternal,
                            "adapt reduce: segment " + std::to_string(s) + " arrived with " +
                                std::to_string(status.bytes) + " bytes, expected " +
                                std::to_string(seg.bytes(s))));
    }
    if (stopping()) return complete_if_finished();
    ChildInput& child = children_[c];
    std::byte* acc = accumulator_ + seg.offset_bytes(s);
    const std::byte* own = operands_.own + seg.offset_bytes(s);
    // The first contribution combines with this rank's own data (which saves copying it into
    // the accumulator first); for an in-place root `own` is `acc`, which reduce_to allows.
    if (arrived_[s] == 0) {
      reduce_to(operands_.op, operands_.type, acc, own, slot(child, index), seg.elements(s));
    } else {
      reduce_into(operands_.op, operands_.type, acc, slot(child, index), seg.elements(s));
    }
    child.free_slots.push_back(index);
    post_child_receives(c);
    if (++arrived_[s] == children_.size()) {
      ready_[s] = 1;
      ++ready_count_;
      while (ready_prefix_ < ready_.size() && ready_[ready_prefix_] != 0) ++ready_prefix_;
      pump_parent();
    }
    complete_if_finished();
  }

  void pump_parent() {
    if (plan_.parent < 0) return;
    while (!stopping() && sends_in_flight_ < plan_.sends_in_flight && next_send_ < ready_prefix_) {
      const std::size_t s = next_send_++;
      const std::byte* segment = outgoing_ + plan_.segments.offset_bytes(s);
      // A segment the transport takes whole is sent at once: no completion to wait for.
      if (plan_.comm.try_send_internal(plan_.parent, plan_.tag, segment, plan_.segments.bytes(s))) {
        ++sent_;
        continue;
      }
      ++sends_in_flight_;
      track();
      plan_.comm.isend_internal(
          plan_.parent, plan_.tag, segment, plan_.segments.bytes(s),
          [self = keep_alive(this)](const Status& status) { self->on_sent(status); });
    }
  }

  void on_sent(const Status& status) {
    --sends_in_flight_;
    ++sent_;
    settle(status);
    pump_parent();
    complete_if_finished();
  }

  // The root is done when every segment is reduced; any other rank when the parent has them;
  // after a failure, once everything posted drained.
  void complete_if_finished() { try_complete(all_delivered()); }

  bool all_delivered() const {
    const std::size_t segments = plan_.segments.num_segments;
    if (ready_count_ < segments) return false;
    return plan_.parent < 0 || sent_ >= segments;
  }

  CallPlan plan_;
  ReduceOperands operands_;
  std::byte* accumulator_ = nullptr;     // where children's contributions are folded in
  const std::byte* outgoing_ = nullptr;  // what goes to the parent: accumulator_, or own data
  std::unique_ptr<std::byte[]> owned_accumulator_;
  std::vector<ChildInput> children_;
  std::vector<std::size_t> arrived_;  // per segment: children folded in so far
  std::vector<char> ready_;
  std::size_t ready_prefix_ = 0;
  std::size_t ready_count_ = 0;
  std::size_t next_send_ = 0;
  int sends_in_flight_ = 0;
  std::size_t sent_ = 0;
};

}  // namespace

Request reduce_event_driven(const CallPlan& plan, const ReduceOperands& operands) {
  return std::make_shared<EventDrivenReduce>(plan, operands)->start();
}

}  // namespace halyard::adapt
