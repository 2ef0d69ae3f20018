#include "runtime/notice_inbox.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/support/log.hpp"

namespace halyard {

NoticeInbox::NoticeInbox(Handler handler) : handler_(std::move(handler)) {
  event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (event_fd_ < 0) {
    throw Error(ErrorCode::kInternal,
                std::string("eventfd for control notices: ") + std::strerror(errno));
  }
}

NoticeInbox::~NoticeInbox() {
  if (event_fd_ >= 0) ::close(event_fd_);
}

void NoticeInbox::post(const ControlNotice& notice) {
  {
    std::lock_guard lock(mutex_);
    queued_.push_back(notice);
  }
  has_notices_.store(true, std::memory_order_release);
  std::uint64_t one = 1;
  // A full counter (never in practice) still leaves the fd readable, which is all we need.
  [[maybe_unused]] ssize_t n = ::write(event_fd_, &one, sizeof(one));
}

int NoticeInbox::progress() {
  if (!has_notices_.load(std::memory_order_acquire)) return 0;
  has_notices_.store(false, std::memory_order_relaxed);
  std::uint64_t count = 0;
  [[maybe_unused]] ssize_t n = ::read(event_fd_, &count, sizeof(count));  // re-arms the fd
  std::vector<ControlNotice> notices;
  {
    std::lock_guard lock(mutex_);
    notices.swap(queued_);
  }
  for (const auto& notice : notices) handler_(notice);
  return static_cast<int>(notices.size());
}

bool NoticeInbox::prepare_to_block() {
  // Drain the counter first, then look at the flag: a notice posted before the drain is seen
  // here, one posted after it makes the fd readable again, so the loop never sleeps through one
  // nor spins on a stale readable fd.
  std::uint64_t count = 0;
  [[maybe_unused]] ssize_t n = ::read(event_fd_, &count, sizeof(count));
  return !has_notices_.load(std::memory_order_acquire);
}

}  // namespace halyard
