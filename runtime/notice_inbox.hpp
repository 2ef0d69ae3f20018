// NoticeInbox: carries hlaunch's control notices (a peer failed, the job aborts) from the
// bootstrap client's reader thread into the event loop.
//
// The reader thread may only record a notice and return (bootstrap_client.hpp), so post()
// queues it under a mutex and writes an eventfd; the inbox is a CompletionSource whose wait fd
// is that eventfd, so even a loop asleep in poll(2) wakes at once and fails what is pending.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

#include "runtime/bootstrap/bootstrap_client.hpp"
#include "runtime/event_loop.hpp"

namespace halyard {

class NoticeInbox final : public CompletionSource {
 public:
  using Handler = std::function<void(const ControlNotice&)>;

  // `handler` runs from the loop (progress()) for each notice, in arrival order.
  explicit NoticeInbox(Handler handler);
  ~NoticeInbox() override;
  NoticeInbox(const NoticeInbox&) = delete;
  NoticeInbox& operator=(const NoticeInbox&) = delete;

  // Thread-safe; called from any thread.
  void post(const ControlNotice& notice);

  int progress() override;
  int wait_fd() override { return event_fd_; }
  bool prepare_to_block() override;
  const std::atomic<bool>* work_flag() override { return &has_notices_; }

 private:
  Handler handler_;
  int event_fd_ = -1;
  // Checked on every pass, so the common case (no notice) costs no system call.
  std::atomic<bool> has_notices_{false};
  std::mutex mutex_;
  std::vector<ControlNotice> queued_;
};

}  // namespace halyard
