// The two broadcasts ADAPT is compared with (dissertation section 3.2), on the same trees.
// They wait on the caller's thread by design: their waits are the synchronization
// dependencies that propagate noise, which is what the noise benchmark measures. A failure
// returns only once nothing posted is left (core::drain_after_failure).
#include <span>
#include <vector>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/core/collective_engine.hpp"

namespace halyard::adapt {
namespace {

// Isend segment `s` to every child, then wait for all of them (the Waitall of Algorithm 2).
Status send_to_all_children(const CallPlan& plan, std::byte* buffer, std::size_t s) {
  std::vector<Request> sends;
  sends.reserve(plan.children.size());
  for (int child : plan.children) {
    sends.push_back(plan.comm.isend_internal(
        child, plan.tag, buffer + plan.segments.offset_bytes(s), plan.segments.bytes(s)));
  }
  return wait_all(sends);
}

Request receive_segment(const CallPlan& plan, std::byte* buffer, std::size_t s) {
  return plan.comm.irecv_internal(plan.parent, plan.tag, buffer + plan.segments.offset_bytes(s),
                                  plan.segments.bytes(s));
}

}  // namespace

// Algorithm 1: per segment, a blocking receive from the parent, then a blocking send to each
// child in turn.
Status bcast_blocking(const CallPlan& plan, std::byte* buffer) {
  for (std::size_t s = 0; s < plan.segments.num_segments; ++s) {
    if (plan.parent >= 0) {
      Status got = receive_segment(plan, buffer, s).wait();
      if (!got.ok()) return got;
    }
    for (int child : plan.children) {
      Status sent = plan.comm
                        .isend_internal(child, plan.tag, buffer + plan.segments.offset_bytes(s),
                                        plan.segments.bytes(s))
                        .wait();
      if (!sent.ok()) return sent;
    }
  }
  return Status{};
}

// Algorithm 2: two receives in flight from the parent (the next one posted before waiting for
// the current one); each segment goes to all children at once, followed by a wait for all.
Status bcast_waitall(const CallPlan& plan, std::byte* buffer) {
  const std::size_t segments = plan.segments.num_segments;
  if (segments == 0) return Status{};
  if (plan.parent < 0) {
    for (std::size_t s = 0; s < segments; ++s) {
      Status sent = send_to_all_children(plan, buffer, s);
      if (!sent.ok()) return sent;
    }
    return Status{};
  }
  Request previous = receive_segment(plan, buffer, 0);
  for (std::size_t s = 1; s <= segments; ++s) {
    Request current = s < segments ? receive_segment(plan, buffer, s) : Request{};
    Status got = previous.wait();
    if (got.ok()) got = send_to_all_children(plan, buffer, s - 1);
    if (!got.ok()) {
      return core::drain_after_failure(plan.comm, plan.tag, std::span(&current, 1), got);
    }
    previous = current;
  }
  return Status{};
}

}  // namespace halyard::adapt
