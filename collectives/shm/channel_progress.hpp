// ChannelProgress: the event-loop source that advances the shm engine's queued calls (one per
// runtime, a runtime attachment), like a transport's progress.
//
// Waiting: when nothing moves, the loop backs off as for every source (spin, yield, then sleep
// in poll()). Before it sleeps, the shm transport raises this rank's sleeping flag and fences;
// then prepare_to_block() here checks the channels' flags once more, so a member that
// publishes later sees the flag and wakes this rank (Channel::publish). Members publish without
// a fence; the fence that makes that race-free is paid here after a few idle passes (or before
// this rank sleeps), for every channel that published since.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "runtime/communicator.hpp"
#include "runtime/event_loop.hpp"

namespace halyard::shm {

class Channel;

class ChannelProgress final : public CompletionSource {
 public:
  // This runtime's source, made and registered with its loop on first use.
  static std::shared_ptr<ChannelProgress> of(const Communicator& comm);

  explicit ChannelProgress(EventLoop& loop);
  ~ChannelProgress() override;
  ChannelProgress(const ChannelProgress&) = delete;
  ChannelProgress& operator=(const ChannelProgress&) = delete;

  // `channel` has queued calls: advance them on every pass until it is idle. The source holds
  // a reference to each channel on its list (Channel::in_progress), taken only when it joins:
  // taking one is an atomic add, which waits until this core's earlier stores (a flag just
  // published) reach the other cores.
  void activate(Channel& channel);
  // `channel` published without a fence: wake its sleeping members after the next one.
  void owe_wake(Channel* channel);
  // `channel` goes: it is owed nothing more.
  void forget(Channel* channel);

  int progress() override;
  bool prepare_to_block() override;
  const std::atomic<bool>* work_flag() override { return &busy_; }

 private:
  void settle_owed_wakes();
  void update_busy() { busy_.store(!active_.empty() || !owed_.empty(), std::memory_order_relaxed); }

  EventLoop& loop_;
  EventLoop::SourceId id_;
  std::vector<std::shared_ptr<Channel>> active_;
  std::vector<Channel*> owed_;  // a channel leaves the list (forget) before it goes
  std::atomic<bool> busy_{false};
  static constexpr int kIdlePassesBeforeFence = 8;
  int idle_passes_ = 0;  // passes without events while wakes are owed
};

}  // namespace halyard::shm
