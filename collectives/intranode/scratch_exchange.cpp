#include "collectives/intranode/scratch_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "collectives/intranode/slot_lanes.hpp"
#include "runtime/datatypes/reduction.hpp"
#include "runtime/support/copy_bytes.hpp"

namespace halyard::intranode {

namespace {

class ScratchExchange final : public NoticeMachine {
 public:
  ScratchExchange(const Communicator& comm, NodeMemory& memory, ScratchPlan plan, int ready_tag,
                  int done_tag)
      : NoticeMachine(comm, memory),
        plan_(std::move(plan)),
        ready_tag_(ready_tag),
        done_tag_(done_tag),
        element_(datatype_size(plan_.type)),
        lane_(lane_of(comm, memory)) {
    // Half a lane per fragment, whole elements only (reductions must not split one).
    fragment_ = lane_.bytes / 2 / element_ * element_;
    fragments_ = (plan_.bytes + fragment_ - 1) / fragment_;
    acks_.assign(plan_.readers.size(), 0);
    ready_.assign(plan_.writers.size(), 0);
    consumed_.assign(plan_.combine ? 1 : plan_.writers.size(), 0);
    for (int w : plan_.writers) {
      slots_.push_back(memory.scratch_slot(comm.world_rank(w)).data() + lane_.offset);
    }
    own_slot_ = memory.scratch_slot(comm.world_rank(comm.rank())).data() + lane_.offset;
  }

 private:
  bool writer() const { return plan_.source != nullptr; }
  std::size_t length(std::size_t k) const {
    return std::min(fragment_, plan_.bytes - k * fragment_);
  }
  std::size_t half(std::size_t k) const { return (k % 2) * fragment_; }

  void start() override {
    for (std::size_t i = 0; i < plan_.readers.size(); ++i) {
      if (plan_.readers[i] == rank()) continue;
      expect(plan_.readers[i], done_tag_, fragments_, [this, i](const Notice&) { ++acks_[i]; });
    }
    for (std::size_t i = 0; i < plan_.writers.size(); ++i) {
      if (plan_.writers[i] == rank()) continue;
      expect(plan_.writers[i], ready_tag_, fragments_, [this, i](const Notice&) { ++ready_[i]; });
    }
    if (writer()) {
      auto self = shared_from_this();
      acquire_lane(lane_, loop(), [self, this] {
        slot_held_ = true;
        step();
      });
    }
  }

  // Fragments every reader of this rank's flow is done with (this rank itself, as a combining
  // reader of its own slot, counts by what it consumed).
  std::size_t slowest_reader() const {
    std::size_t slowest = fragments_;
    for (std::size_t i = 0; i < plan_.readers.size(); ++i) {
      slowest = std::min(slowest, plan_.readers[i] == rank() ? consumed_[0] : acks_[i]);
    }
    return slowest;
  }

  bool write_one() {
    std::size_t k = next_write_;
    if (!writer() || !slot_held_ || k >= fragments_) return false;
    if (k >= 2 && slowest_reader() < k - 1) return false;  // fragment k - 2 still in use
    copy_bytes(own_slot_ + half(k), static_cast<const std::byte*>(plan_.source) + k * fragment_,
               length(k));
    for (std::size_t i = 0; i < plan_.readers.size(); ++i) {
      if (plan_.readers[i] != rank()) notify(plan_.readers[i], ready_tag_);
    }
    for (std::size_t i = 0; i < plan_.writers.size(); ++i) {
      if (plan_.writers[i] == rank()) ++ready_[i];
    }
    ++next_write_;
    return true;
  }

  bool copy_out() {
    bool progressed = false;
    for (std::size_t i = 0; i < plan_.writers.size(); ++i) {
      while (consumed_[i] < ready_[i]) {
        std::size_t k = consumed_[i];
        if (!failed()) {
          copy_bytes(static_cast<std::byte*>(plan_.destinations[i]) + k * fragment_,
                     slots_[i] + half(k), length(k));
        }
        notify(plan_.writers[i], done_tag_);
        ++consumed_[i];
        progressed = true;
      }
    }
    return progressed;
  }

  bool combine_one() {
    std::size_t k = consumed_[0];
    if (plan_.writers.empty() || k >= fragments_) return false;
    for (std::size_t r : ready_) {
      if (r <= k) return false;
    }
    std::size_t bytes = length(k);
    std::size_t count = bytes / element_;
    auto* out = static_cast<std::byte*>(plan_.destinations[0]) + k * fragment_;
    if (!failed()) {
      if (slots_.size() == 1) {
        copy_bytes(out, slots_[0] + half(k), bytes);
      } else {
        reduce_to(plan_.op, plan_.type, out, slots_[0] + half(k), slots_[1] + half(k), count);
        for (std::size_t i = 2; i < slots_.size(); ++i) {
          reduce_into(plan_.op, plan_.type, out, slots_[i] + half(k), count);
        }
      }
    }
    for (int w : plan_.writers) {
      if (w != rank()) notify(w, done_tag_);
    }
    ++consumed_[0];
    return true;
  }

  void advance() override {
    bool progressed = true;
    while (progressed) {
      progressed = write_one();
      progressed = (plan_.combine ? combine_one() : copy_out()) || progressed;
    }
  }

  bool finished() const override {
    if (writer()) {
      if (next_write_ < fragments_) return false;
      for (std::size_t i = 0; i < plan_.readers.size(); ++i) {
        if (plan_.readers[i] != rank() && acks_[i] < fragments_) return false;
      }
    }
    if (plan_.writers.empty()) return true;
    for (std::size_t c : consumed_) {
      if (c < fragments_) return false;
    }
    return true;
  }

  void release() override {
    if (slot_held_) release_lane(lane_, loop());
    slot_held_ = false;
  }

  ScratchPlan plan_;
  int ready_tag_;
  int done_tag_;
  std::size_t element_;
  SlotLane lane_;  // this communicator's region of every slot
  std::size_t fragment_ = 0;
  std::size_t fragments_ = 0;
  std::vector<std::byte*> slots_;  // the writers' slots, in plan_.writers order
  std::byte* own_slot_ = nullptr;
  bool slot_held_ = false;
  std::size_t next_write_ = 0;
  std::vector<std::size_t> acks_;      // per reader: fragments it is done with
  std::vector<std::size_t> ready_;     // per writer: fragments it announced
  std::vector<std::size_t> consumed_;  // per writer (copy out), or one counter (combine)
};

}  // namespace

Request start_scratch_exchange(const Communicator& comm, NodeMemory& memory, ScratchPlan plan,
                               int ready_tag, int done_tag) {
  return NoticeMachine::launch(
      std::make_shared<ScratchExchange>(comm, memory, std::move(plan), ready_tag, done_tag));
}

}  // namespace halyard::intranode
