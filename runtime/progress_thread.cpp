#include "runtime/progress_thread.hpp"

#include <exception>
#include <string>

#include "runtime/support/config.hpp"
#include "runtime/support/log.hpp"

namespace halyard {

bool ProgressThread::enabled_from_environment() {
  return config::env_choice("HALYARD_PROGRESS_THREAD", {"0", "1"}, "0") == "1";
}

ProgressThread::ProgressThread(EventLoop& loop) : loop_(loop) {
  if (loop_.driven()) {
    throw Error(ErrorCode::kInvalidArgument, "ProgressThread: the loop already has one");
  }
  if (!loop_.threaded()) {
    own_lock_ = std::make_unique<LoopLock>();
    loop_.set_lock(own_lock_.get());
  }
  lock_ = loop_.lock();
  loop_.set_driven(true);
  try {
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    loop_.set_driven(false);
    if (own_lock_) loop_.set_lock(nullptr);
    throw;
  }
}

ProgressThread::~ProgressThread() {
  stop();
}

void ProgressThread::stop() {
  if (!thread_.joinable()) return;
  if (thread_.get_id() == std::this_thread::get_id()) {
    throw Error(ErrorCode::kInvalidArgument,
                "ProgressThread::stop: called from a callback on the progress thread");
  }
  lock_->lock();
  stop_requested_ = true;
  lock_->wake_sleeper();
  lock_->unlock();
  thread_.join();
  loop_.set_driven(false);
  if (own_lock_) loop_.set_lock(nullptr);
}

void ProgressThread::run() {
  log::debug("progress thread started");
  lock_->lock();
  int idle = 0;
  while (!stop_requested_) {
    try {
      loop_.drive_step(idle);
    } catch (const std::exception& e) {
      // A callback threw: there is no caller to hand the exception to. Fail what is pending so
      // that the application's waits return with the reason instead of hanging.
      log::error("progress thread: a completion callback threw: {}", e.what());
      loop_.fail_all_pending(Status::failure(
          ErrorCode::kInternal, std::string("a completion callback threw: ") + e.what()));
      idle = 0;
      lock_->notify_after_pass();
    }
  }
  lock_->unlock();
  log::debug("progress thread stopped");
}

}  // namespace halyard
