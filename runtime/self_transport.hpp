// SelfTransport: messages a rank sends to itself, so a 1-rank job (or a collective that
// includes the calling rank's own block) needs no network.
//
// Small messages are copied at send() time, so a blocking send to oneself completes before
// the matching receive is posted (as MPI implementations do for eager sizes). Larger ones stay
// in the sender's buffer and are copied once, at deliver(); the send completes then. Arrivals
// and completions are always handed out from progress(), never inside send()/deliver().
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "runtime/transport.hpp"

namespace halyard {

class SelfTransport final : public Transport {
 public:
  // Messages up to this size are copied at send().
  static constexpr std::size_t kEagerLimit = 64 * 1024;

  explicit SelfTransport(int world_rank) : rank_(world_rank) {}

  std::string_view name() const override { return "self"; }
  void publish(BootstrapClient&) override {}
  void connect(BootstrapClient&, const TopologyTable&) override {}
  void set_incoming_handler(IncomingHandler handler) override { handler_ = std::move(handler); }
  void send(int peer, const Envelope& env, const void* buf, Completion done) override;
  int progress() override;
  bool prepare_to_block() override { return arrivals_.empty() && completions_.empty(); }
  const std::atomic<bool>* work_flag() override { return &has_work_; }
  // Completes the large sends no receive has copied yet: after the failure none ever will.
  void withdraw_sends() override;

 private:
  class Message;
  struct PendingCompletion {
    Completion done;
    Status status;
  };

  void complete_later(Completion done, Status status);
  void hold(const std::shared_ptr<Completion>& sender_done);

  int rank_;
  IncomingHandler handler_;
  std::deque<std::unique_ptr<IncomingMessage>> arrivals_;
  std::deque<PendingCompletion> completions_;
  // The sender completions of large messages not yet delivered, shared with their Message,
  // which the matching engine owns (and may drop unread after a failure). Expired entries are
  // pruned as the list grows.
  std::vector<std::weak_ptr<Completion>> held_sends_;
  std::size_t prune_held_at_ = 64;
  // True while either queue holds something (the loop's work_flag()). Only the loop's thread
  // touches the queues; the flag is atomic because the loop reads it through that interface.
  std::atomic<bool> has_work_{false};
};

}  // namespace halyard
