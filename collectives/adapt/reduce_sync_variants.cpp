// The two reduces ADAPT is compared with, on the same trees: blocking p2p (Algorithm 1 run
// upwards) and non-blocking p2p with a wait for all per segment (Algorithm 2 run upwards).
// They wait on the caller's thread by design (see bcast_sync_variants.cpp); a failure returns
// only once nothing posted into the slots is left (core::drain_after_failure).
#include <cstring>
#include <memory>
#include <vector>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/core/collective_engine.hpp"
#include "runtime/datatypes/reduction.hpp"

namespace halyard::adapt {
namespace {

// Where segment s of the result is assembled: the root's recv, or one reused segment buffer
// on an intermediate rank (each segment is sent, and the send waited for, before the next).
class SegmentAccumulator {
 public:
  SegmentAccumulator(const CallPlan& plan, const ReduceOperands& operands)
      : plan_(plan), operands_(operands) {
    if (plan.parent >= 0 && !plan.children.empty()) {
      scratch_ = std::make_unique_for_overwrite<std::byte[]>(plan.segments.max_segment_bytes());
    }
  }

  // Folds the children's contributions `inputs` (one per child) into segment s.
  void fold(std::size_t s, const std::vector<const std::byte*>& inputs) {
    const Segmentation& seg = plan_.segments;
    std::byte* acc = target(s);
    const std::byte* own = operands_.own + seg.offset_bytes(s);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (i == 0) {
        reduce_to(operands_.op, operands_.type, acc, own, inputs[i], seg.elements(s));
      } else {
        reduce_into(operands_.op, operands_.type, acc, inputs[i], seg.elements(s));
      }
    }
  }

  // What goes up (non-root) for segment s once folded.
  const std::byte* outgoing(std::size_t s) const {
    if (plan_.children.empty()) return operands_.own + plan_.segments.offset_bytes(s);
    return scratch_.get();
  }

  // The lone root of a one-rank tree only copies.
  void copy_if_alone() {
    const Segmentation& seg = plan_.segments;
    if (plan_.parent < 0 && plan_.children.empty() && operands_.recv != operands_.own &&
        seg.count > 0) {
      std::memcpy(operands_.recv, operands_.own, seg.count * seg.element_size);
    }
  }

 private:
  std::byte* target(std::size_t s) {
    if (plan_.parent < 0) return operands_.recv + plan_.segments.offset_bytes(s);
    return scratch_.get();
  }

  const CallPlan& plan_;
  const ReduceOperands& operands_;
  std::unique_ptr<std::byte[]> scratch_;
};

// Temporary buffers for one segment from each child.
class ChildSlots {
 public:
  ChildSlots(const CallPlan& plan, std::size_t sets)
      : stride_(plan.segments.max_segment_bytes()),
        per_set_(plan.children.size()),
        memory_(std::make_unique_for_overwrite<std::byte[]>(sets * per_set_ * stride_)) {}
  std::byte* at(std::size_t set, std::size_t child) const {
    return memory_.get() + (set * per_set_ + child) * stride_;
  }
  std::vector<const std::byte*> set(std::size_t set) const {
    std::vector<const std::byte*> out;
    for (std::size_t c = 0; c < per_set_; ++c) out.push_back(at(set, c));
    return out;
  }

 private:
  std::size_t stride_;
  std::size_t per_set_;
  std::unique_ptr<std::byte[]> memory_;
};

Status send_up(const CallPlan& plan, const SegmentAccumulator& acc, std::size_t s) {
  if (plan.parent < 0) return Status{};
  return plan.comm.isend_internal(plan.parent, plan.tag, acc.outgoing(s), plan.segments.bytes(s))
      .wait();
}

}  // namespace

// Per segment: a blocking receive from each child in turn, folded as it arrives, then a
// blocking send to the parent.
Status reduce_blocking(const CallPlan& plan, const ReduceOperands& operands) {
  SegmentAccumulator acc(plan, operands);
  acc.copy_if_alone();
  ChildSlots slots(plan, 1);
  for (std::size_t s = 0; s < plan.segments.num_segments; ++s) {
    for (std::size_t c = 0; c < plan.children.size(); ++c) {
      Status got =
          plan.comm
              .irecv_internal(plan.children[c], plan.tag, slots.at(0, c), plan.segments.bytes(s))
              .wait();
      if (!got.ok()) return got;
    }
    if (!plan.children.empty()) acc.fold(s, slots.set(0));
    Status sent = send_up(plan, acc, s);
    if (!sent.ok()) return sent;
  }
  return Status{};
}

// Per segment: receives from all children posted at once (and those of the next segment
// posted before waiting, as Algorithm 2 does), a wait for all of them, the fold, then a send
// to the parent and a wait for it.
Status reduce_waitall(const CallPlan& plan, const ReduceOperands& operands) {
  SegmentAccumulator acc(plan, operands);
  acc.copy_if_alone();
  const std::size_t segments = plan.segments.num_segments;
  ChildSlots slots(plan, 2);
  auto post = [&](std::size_t s) {
    std::vector<Request> receives;
    for (std::size_t c = 0; c < plan.children.size(); ++c) {
      receives.push_back(plan.comm.irecv_internal(plan.children[c], plan.tag, slots.at(s % 2, c),
                                                  plan.segments.bytes(s)));
    }
    return receives;
  };
  std::vector<Request> current = segments > 0 ? post(0) : std::vector<Request>{};
  for (std::size_t s = 0; s < segments; ++s) {
    std::vector<Request> next = s + 1 < segments ? post(s + 1) : std::vector<Request>{};
    Status got = wait_all(current);
    if (got.ok()) {
      if (!plan.children.empty()) acc.fold(s, slots.set(s % 2));
      got = send_up(plan, acc, s);
    }
    if (!got.ok()) return core::drain_after_failure(plan.comm, plan.tag, next, got);
    current = std::move(next);
  }
  return Status{};
}

}  // namespace halyard::adapt
