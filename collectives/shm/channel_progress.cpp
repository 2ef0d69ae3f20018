#include "collectives/shm/channel_progress.hpp"

#include <utility>

#include "collectives/shm/channel.hpp"
#include "runtime/runtime_services.hpp"

namespace halyard::shm {

std::shared_ptr<ChannelProgress> ChannelProgress::of(const Communicator& comm) {
  Attachments& runtime = comm.services().attachments;
  if (auto source = runtime.find<ChannelProgress>()) return source;
  return runtime.attach(std::make_shared<ChannelProgress>(comm.loop()));
}

ChannelProgress::ChannelProgress(EventLoop& loop) : loop_(loop), id_(loop.add_source(*this)) {}

// The runtime releases its attachments before its loop goes (Runtime::tear_down).
ChannelProgress::~ChannelProgress() {
  loop_.remove_source(id_);
}

void ChannelProgress::activate(Channel& channel) {
  if (!channel.in_progress) {
    channel.in_progress = true;
    active_.push_back(channel.shared_from_this());
  }
  update_busy();
}

void ChannelProgress::owe_wake(Channel* channel) {
  channel->owes_wake = true;
  owed_.push_back(channel);
  update_busy();
}

void ChannelProgress::forget(Channel* channel) {
  std::erase(owed_, channel);
  update_busy();
}

void ChannelProgress::settle_owed_wakes() {
  if (owed_.empty()) return;
  // Our flag stores are visible before we read the members' sleeping flags (the other half of
  // the handshake is the transport's fence after it raises a sleeping flag).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (Channel* channel : owed_) {
    channel->owes_wake = false;
    channel->wake_members();
  }
  owed_.clear();
  idle_passes_ = 0;
}

int ChannelProgress::progress() {
  // The fence waits for this rank's last flag stores to reach the other cores: paid right after
  // publishing it would stall the call for a cache-line transfer, so it waits until this rank
  // idles (a rank about to sleep that missed our flag sleeps at most that long, plus its own
  // bounded poll() if this rank leaves the loop first).
  if (!owed_.empty() && ++idle_passes_ >= kIdlePassesBeforeFence) settle_owed_wakes();
  int events = 0;
  // A channel's progress may complete calls whose callbacks (deferred) start others: iterate by
  // index, the list may grow.
  for (std::size_t i = 0; i < active_.size(); ++i) events += active_[i]->progress();
  std::erase_if(active_, [](const std::shared_ptr<Channel>& channel) {
    if (!channel->idle()) return false;
    channel->in_progress = false;
    return true;
  });
  if (events > 0) idle_passes_ = 0;
  update_busy();
  return events;
}

bool ChannelProgress::prepare_to_block() {
  settle_owed_wakes();
  update_busy();
  // The transports' prepare_to_block ran first (they were registered first): this rank's
  // sleeping flag is up, so a flag a member publishes from now on comes with a wake-up.
  return progress() == 0;
}

}  // namespace halyard::shm
