// ADAPT's event-driven broadcast (dissertation Algorithms 3-5).
//
// Every rank keeps up to M receives from its parent posted and, per child, up to N sends in
// flight. The completion of a receive marks its segment as present, posts the next receive and
// tops up every child's sends; the completion of a send tops up that child only. No operation
// ever waits for another, so a slow child delays neither its siblings nor its parent
// (child independence), and a slow segment does not hold back the others' receives (segment
// independence).
//
// One tag carries the whole call, and messages between a pair with one tag match in posting
// order, so each child must receive segments in increasing order: a child's next send is the
// lowest segment it has not been sent, and it goes out once every segment up to it is present
// (the contiguous prefix). Receives complete in order in practice, so this costs nothing.
//
// Completion and failure follow the engine contract (collectives/core/collective_engine.hpp):
// a failure stops the posting, withdraws the receives still waiting for the parent, and the
// request completes only once every posted receive and send has drained.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectives/adapt/call_plan.hpp"
#include "collectives/core/collective_engine.hpp"

namespace halyard::adapt {
namespace {

class EventDrivenBcast : public core::CollectiveEngine {
 public:
  EventDrivenBcast(const CallPlan& plan, std::byte* buffer)
      : CollectiveEngine(plan.comm, plan.tag),
        plan_(plan),
        buffer_(buffer),
        present_(plan.segments.num_segments, 0) {
    for (int child : plan_.children) children_.push_back(ChildProgress{child});
  }

  Request start() {
    const std::size_t segments = plan_.segments.num_segments;
    if (plan_.parent < 0) {
      // The root holds every segment from the start, and has no parent to receive from (a
      // receive from parent -1 would be an any-source receive that nothing ever matches).
      present_prefix_ = segments;
      present_count_ = segments;
      next_receive_ = segments;
    }
    post_receives();
    for (std::size_t c = 0; c < children_.size(); ++c) pump_child(c);
    complete_if_finished();
    return launched();
  }

 private:
  struct ChildProgress {
    int rank;
    std::size_t next_segment = 0;  // the lowest segment not yet sent to this child
    int in_flight = 0;
    std::size_t sent = 0;  // sends completed
  };

  void post_receives() {
    const std::size_t segments = plan_.segments.num_segments;
    while (!stopping() && recvs_posted_ < plan_.recvs_in_flight && next_receive_ < segments) {
      const std::size_t s = next_receive_++;
      ++recvs_posted_;
      track();
      plan_.comm.irecv_internal(
          plan_.parent, plan_.tag, buffer_ + plan_.segments.offset_bytes(s),
          plan_.segments.bytes(s),
          [self = keep_alive(this), s](const Status& status) { self->on_received(s, status); });
    }
  }

  void on_received(std::size_t s, const Status& status) {
    --recvs_posted_;
    settle(status);
    if (status.ok() && status.bytes != plan_.segments.bytes(s)) {
      abort(Status::failure(ErrorCode::kInternal,
                            "adapt bcast: segment " + std::to_string(s) + " arrived with " +
                                std::to_string(status.bytes) + " bytes, expected " +
                                std::to_string(plan_.segments.bytes(s))));
    }
    if (stopping()) return complete_if_finished();
    present_[s] = 1;
    ++present_count_;
    while (present_prefix_ < present_.size() && present_[present_prefix_] != 0) ++present_prefix_;
    post_receives();
    for (std::size_t c = 0; c < children_.size(); ++c) pump_child(c);
    complete_if_finished();
  }

  void pump_child(std::size_t c) {
    ChildProgress& child = children_[c];
    while (!stopping() && child.in_flight < plan_.sends_in_flight &&
           child.next_segment < present_prefix_) {
      const std::size_t s = child.next_segment++;
      const std::byte* segment = buffer_ + plan_.segments.offset_bytes(s);
      // A segment the transport takes whole is sent at once: no completion to wait for.
      if (plan_.comm.try_send_internal(child.rank, plan_.tag, segment, plan_.segments.bytes(s))) {
        ++child.sent;
        continue;
      }
      ++child.in_flight;
      track();
      plan_.comm.isend_internal(
          child.rank, plan_.tag, segment, plan_.segments.bytes(s),
          [self = keep_alive(this), c](const Status& status) { self->on_sent(c, status); });
    }
  }

  void on_sent(std::size_t c, const Status& status) {
    ChildProgress& child = children_[c];
    --child.in_flight;
    ++child.sent;
    settle(status);
    pump_child(c);
    complete_if_finished();
  }

  // This rank's part is done when it holds every segment and every child has all of them
  // (the user may then reuse the buffer); after a failure, once everything posted drained.
  void complete_if_finished() { try_complete(all_delivered()); }

  bool all_delivered() const {
    const std::size_t segments = plan_.segments.num_segments;
    if (present_count_ < segments) return false;
    for (const ChildProgress& child : children_) {
      if (child.sent < segments) return false;
    }
    return true;
  }

  CallPlan plan_;
  std::byte* buffer_;
  std::vector<char> present_;  // per segment: arrived (or root)
  std::size_t present_prefix_ = 0;
  std::size_t present_count_ = 0;
  std::size_t next_receive_ = 0;
  int recvs_posted_ = 0;
  std::vector<ChildProgress> children_;
};

}  // namespace

Request bcast_event_driven(const CallPlan& plan, std::byte* buffer) {
  return std::make_shared<EventDrivenBcast>(plan, buffer)->start();
}

}  // namespace halyard::adapt
